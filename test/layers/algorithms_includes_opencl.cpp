// Must not compile: algorithms/ sees OpenCL only through the public API, which includes none.
#include <CL/cl.h>
