// Variables as SSA values: ir/promote_variables.hpp.
#include "ir/promote_variables.hpp"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <vector>

namespace spvjit::detail {

void promote_variables(llvm::Function& fn) {
  std::vector<llvm::AllocaInst*> allocas;
  for (auto& i : fn.getEntryBlock()) {
    auto* slot = llvm::dyn_cast<llvm::AllocaInst>(&i);
    if (!slot) continue;
    std::vector<llvm::GetElementPtrInst*> zero;
    for (auto* user : slot->users()) {
      if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
          gep && gep->hasAllZeroIndices() && gep->getType() == slot->getType()) {
        zero.push_back(gep);
      }
    }
    for (auto* gep : zero) {
      gep->replaceAllUsesWith(slot);
      gep->eraseFromParent();
    }
    if (llvm::isAllocaPromotable(slot)) allocas.push_back(slot);
  }
  if (allocas.empty()) return;
  llvm::DominatorTree dt(fn);
  llvm::PromoteMemToReg(allocas, dt);
}

}  // namespace spvjit::detail
