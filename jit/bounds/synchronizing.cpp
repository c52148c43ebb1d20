#include "jit/bounds/synchronizing.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace spvjit::detail {

bool synchronizing_call(const llvm::CallInst& call) {
  const llvm::Function* f = call.getCalledFunction();
  if (!f || call.isConvergent() || f->hasFnAttribute(llvm::Attribute::Convergent)) return true;
  const auto name = f->getName();
  return name.contains("barrier") || name.contains("work_group") || name.contains("sub_group");
}

}  // namespace spvjit::detail
