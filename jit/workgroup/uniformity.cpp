// Varying values by propagation to a fixed point: from the seeds (jit/workgroup/uniformity.hpp)
// through operands, and from each varying branch to the phis of the blocks between it and its
// immediate post-dominator (where the work-items meet again) and to the values defined there
// and used past it.
#include "jit/workgroup/uniformity.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace spvjit::detail {

llvm::DenseSet<const llvm::Value*> uniform_instructions(
    llvm::Function& f, llvm::function_ref<CallKind(const llvm::CallBase&)> kind_of,
    llvm::DenseSet<const llvm::BasicBlock*>* divergent) {
  llvm::DenseSet<const llvm::Value*> varying;
  for (auto& block : f) {
    for (auto& inst : block) {
      bool seed = llvm::isa<llvm::AllocaInst>(inst) || inst.mayReadOrWriteMemory();
      if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
        const CallKind kind = kind_of(*call);
        seed = kind == CallKind::Unknown ? !call->doesNotAccessMemory() : kind == CallKind::Varying;
      }
      if (seed) varying.insert(&inst);
    }
  }
  llvm::PostDominatorTree post(f);
  llvm::SmallPtrSet<const llvm::BasicBlock*, 16> split;  // branches already followed
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& block : f) {
      for (auto& inst : block) {
        if (varying.contains(&inst)) continue;
        for (const llvm::Use& op : inst.operands()) {
          if (varying.contains(op.get())) {
            varying.insert(&inst);
            changed = true;
            break;
          }
        }
      }
    }
    for (auto& block : f) {
      const auto* term = block.getTerminator();
      const llvm::Value* condition = nullptr;
      if (const auto* br = llvm::dyn_cast<llvm::BranchInst>(term)) {
        if (br->isConditional()) condition = br->getCondition();
      } else if (const auto* sw = llvm::dyn_cast<llvm::SwitchInst>(term)) {
        condition = sw->getCondition();
      }
      if (!condition || !varying.contains(condition) || !split.insert(&block).second) continue;
      changed = true;
      const auto* node = post.getNode(&block);
      const llvm::BasicBlock* meet =
          node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
      llvm::SmallPtrSet<const llvm::BasicBlock*, 32> apart;
      llvm::SmallVector<const llvm::BasicBlock*, 16> work(llvm::succ_begin(&block),
                                                          llvm::succ_end(&block));
      while (!work.empty()) {
        const llvm::BasicBlock* b = work.pop_back_val();
        if (b == meet || !apart.insert(b).second) continue;
        for (const llvm::BasicBlock* next : llvm::successors(b)) work.push_back(next);
      }
      if (meet) {
        for (const auto& phi : meet->phis()) varying.insert(&phi);
      }
      if (divergent) divergent->insert(apart.begin(), apart.end());
      for (const llvm::BasicBlock* b : apart) {
        for (const auto& inst : *b) {
          if (llvm::isa<llvm::PHINode>(inst)) {
            varying.insert(&inst);
            continue;
          }
          for (const llvm::User* user : inst.users()) {
            const auto* at = llvm::cast<llvm::Instruction>(user)->getParent();
            if (!apart.contains(at)) {
              varying.insert(&inst);
              break;
            }
          }
        }
      }
    }
  }
  llvm::DenseSet<const llvm::Value*> uniform;
  for (auto& block : f) {
    for (auto& inst : block) {
      if (!varying.contains(&inst)) uniform.insert(&inst);
    }
  }
  return uniform;
}

}  // namespace spvjit::detail
