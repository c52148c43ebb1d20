// Must not compile: common/ is shared by every layer and uses neither OpenCL nor LLVM.
#include <llvm/Support/raw_ostream.h>
