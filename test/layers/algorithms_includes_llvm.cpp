// Must not compile: algorithms/ builds kernels with the public builder, not with LLVM.
#include <llvm/IR/Module.h>
