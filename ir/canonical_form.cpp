#include "ir/canonical_form.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <vector>

#include "common/error_report.hpp"
#include "ir/promote_variables.hpp"

namespace spvjit::detail {

void canonicalize(llvm::Function& kernel) {
  if (kernel.isDeclaration()) return;
  promote_variables(kernel);
  llvm::removeUnreachableBlocks(kernel);
  unify_returns(kernel);
}

std::string canonical_form_lacks(const llvm::Function& f) {
  if (f.isDeclaration()) return {};
  for (const auto& inst : f.getEntryBlock()) {
    const auto* slot = llvm::dyn_cast<llvm::AllocaInst>(&inst);
    if (slot && llvm::isAllocaPromotable(slot)) {
      return "a variable in memory (" + slot->getName().str() + ")";
    }
  }
  llvm::SmallPtrSet<const llvm::BasicBlock*, 32> reached;
  std::vector<const llvm::BasicBlock*> stack = {&f.getEntryBlock()};
  while (!stack.empty()) {
    const llvm::BasicBlock* block = stack.back();
    stack.pop_back();
    if (!reached.insert(block).second) continue;
    for (const llvm::BasicBlock* next : llvm::successors(block)) stack.push_back(next);
  }
  unsigned returns = 0;
  for (const auto& block : f) {
    if (!reached.count(&block)) return "an unreachable block (" + block.getName().str() + ")";
    returns += llvm::isa<llvm::ReturnInst>(block.getTerminator());
  }
  if (returns > 1) return std::to_string(returns) + " returns";
  return {};
}

void assert_canonical([[maybe_unused]] const llvm::Function& f, [[maybe_unused]] const char* pass) {
#ifndef NDEBUG
  const std::string lacks = canonical_form_lacks(f);
  internal_assert(lacks.empty()) << pass << " takes '" << f.getName().str()
                                 << "' in the canonical form (ir/canonical_form.hpp), which has "
                                 << lacks;
#endif
}

void unify_returns(llvm::Function& f) {
  std::vector<llvm::ReturnInst*> returns;
  for (auto& bb : f) {
    if (auto* r = llvm::dyn_cast<llvm::ReturnInst>(bb.getTerminator())) returns.push_back(r);
  }
  if (returns.size() < 2 || !f.getReturnType()->isVoidTy()) return;
  auto* exit = llvm::BasicBlock::Create(f.getContext(), "exit", &f);
  llvm::ReturnInst::Create(f.getContext(), exit);
  for (auto* r : returns) {
    llvm::BranchInst::Create(exit, r);
    r->eraseFromParent();
  }
}

}  // namespace spvjit::detail
