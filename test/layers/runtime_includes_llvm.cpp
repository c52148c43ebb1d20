// Must not compile: runtime/ drives OpenCL and knows nothing of LLVM.
#include <llvm/IR/Module.h>
