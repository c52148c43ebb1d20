// Must not compile: ir/ builds LLVM IR and knows nothing of OpenCL (test/layers/CMakeLists.txt).
#include <CL/cl.h>
