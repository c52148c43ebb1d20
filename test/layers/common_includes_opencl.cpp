// Must not compile: common/ is shared by every layer and uses neither OpenCL nor LLVM.
#include <CL/opencl.h>
