// Clean-ups of a region's loop nest after the group-loop rewrite: jit/workgroup/region_loops.hpp.
#include "jit/workgroup/region_loops.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>
#include <utility>

namespace spvjit::detail {

bool RegionNest::contains(const llvm::Value* v) const {
  const auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
  return inst && blocks.contains(inst->getParent());
}

void hoist_uniform_arithmetic(llvm::Function& f, RegionNest& nest) {
  llvm::Instruction* before = nest.head->getTerminator();
  for (bool moved = true; moved;) {
    moved = false;
    for (llvm::BasicBlock* block : llvm::ReversePostOrderTraversal<llvm::Function*>(&f)) {
      if (!nest.blocks.contains(block)) continue;
      for (auto it = block->begin(); it != block->end();) {
        llvm::Instruction& inst = *it++;
        if (!nest.uniform.contains(&inst) || llvm::isa<llvm::PHINode>(inst) ||
            inst.isTerminator() || inst.mayReadOrWriteMemory() ||
            !llvm::isSafeToSpeculativelyExecute(&inst)) {
          continue;
        }
        bool invariant = true;
        for (const llvm::Use& op : inst.operands())
          invariant = invariant && !nest.contains(op.get());
        if (!invariant) continue;
        inst.moveBefore(before);
        moved = true;
      }
    }
  }
}

namespace {

// The bounds guards set on the work-items of one nest's innermost loop, made before its loops.
class GuardBounds {
 public:
  GuardBounds(const RegionNest& nest, std::uint64_t group_size0)
      : nest_(nest), g0_(group_size0), b_(nest.head->getTerminator()) {}

  llvm::IRBuilder<>& builder() { return b_; }

  // The bound the edge `from` → `to` sets when it is a guard `id0 < X` (or `id0 == c`) with X
  // computed outside the loops: min(X, G0), X below zero read as zero. Null otherwise.
  llvm::Value* of_edge(const llvm::BasicBlock* from, const llvm::BasicBlock* to) {
    const auto* br = llvm::dyn_cast<llvm::BranchInst>(from->getTerminator());
    if (!br || !br->isConditional() || br->getSuccessor(0) != to || br->getSuccessor(1) == to) {
      return nullptr;
    }
    auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(br->getCondition());
    if (!cmp) return nullptr;
    llvm::Value* lhs = cmp->getOperand(0);
    llvm::Value* rhs = cmp->getOperand(1);
    auto pred = cmp->getPredicate();
    if (rhs == nest_.id0) {
      std::swap(lhs, rhs);
      pred = llvm::ICmpInst::getSwappedPredicate(pred);
    }
    if (lhs != nest_.id0) return nullptr;
    switch (pred) {
      case llvm::ICmpInst::ICMP_ULT:
        return clamped(rhs, false);
      case llvm::ICmpInst::ICMP_SLT:
        return clamped(rhs, true);
      case llvm::ICmpInst::ICMP_EQ:
        if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(rhs)) {
          const std::int64_t v = c->getSExtValue();
          return b_.getInt64(v < 0 ? 0 : v >= static_cast<std::int64_t>(g0_) ? g0_ : v + 1);
        }
        return nullptr;
      default:
        return nullptr;
    }
  }

  // The bound of the guard nearest above `block` (up its dominators to the innermost loop's
  // header) on an edge that alone leads there; null when there is none.
  llvm::Value* above(llvm::BasicBlock* block, const llvm::DominatorTree& dominators) {
    const llvm::BasicBlock* top = nest_.id0->getParent();
    for (const auto* node = dominators.getNode(block); node; node = node->getIDom()) {
      const llvm::BasicBlock* at = node->getBlock();
      if (at == top) break;
      if (const llvm::BasicBlock* pred = at->getSinglePredecessor()) {
        if (llvm::Value* found = of_edge(pred, at)) return found;
      }
    }
    return nullptr;
  }

 private:
  llvm::Value* clamped(llvm::Value* x, bool is_signed) {
    if (x->getType() != b_.getInt64Ty() || nest_.contains(x)) return nullptr;
    if (is_signed) x = b_.CreateSelect(b_.CreateICmpSLT(x, b_.getInt64(0)), b_.getInt64(0), x);
    return b_.CreateSelect(b_.CreateICmpULT(x, b_.getInt64(g0_)), x, b_.getInt64(g0_));
  }

  const RegionNest& nest_;
  std::uint64_t g0_;
  llvm::IRBuilder<> b_;
};

}  // namespace

void narrow_to_guarded_items(RegionNest& nest, std::uint64_t group_size0,
                             const llvm::DominatorTree& dominators) {
  if (!nest.id0 || !nest.last0) return;
  GuardBounds guards(nest, group_size0);
  llvm::IRBuilder<>& b = guards.builder();
  llvm::Value* bound = nullptr;
  // In the function's order, not the set's (which follows addresses): the same kernel compiles
  // to the same IR in every run.
  for (llvm::BasicBlock& block : *nest.head->getParent()) {
    if (!nest.blocks.contains(&block)) continue;
    for (llvm::Instruction& inst : block) {
      if (!inst.mayHaveSideEffects()) continue;
      llvm::Value* found = guards.above(&block, dominators);
      // Not all guarded: the full loop (what was made above is dead, for the device's DCE).
      if (!found) return;
      bound = bound ? b.CreateSelect(b.CreateICmpUGT(bound, found), bound, found) : found;
    }
  }
  if (!bound) bound = b.getInt64(0);  // nothing to do: one work-item runs, for the exit
  bound = b.CreateSelect(b.CreateICmpEQ(bound, b.getInt64(0)), b.getInt64(1), bound, "region.items");
  nest.last0->setOperand(1, bound);
}

}  // namespace spvjit::detail
