// Clean-ups of a region's loop nest after the group-loop rewrite: jit/workgroup/region_loops.hpp.
#include "jit/workgroup/region_loops.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

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

// A branch on `id0 < x` (`pred` ULT or SLT, operands in that order once swapped), x computed
// outside the loops.
struct IdGuard {
  llvm::BranchInst* branch = nullptr;
  llvm::CmpInst::Predicate pred = llvm::CmpInst::BAD_ICMP_PREDICATE;
  llvm::Value* x = nullptr;

  bool same_test(const IdGuard& other) const {
    return branch && other.branch && pred == other.pred && x == other.x;
  }
};

// A condition computed outside the loops (so the same for the whole group and every iteration)
// that a block is reached only when it has the value `holds`.
struct Literal {
  llvm::Value* condition = nullptr;
  bool holds = true;
};

// The side effects of one block of the nest's body: the bound of its nearest guard, that guard when
// it is `id0 < X`, and the group-wide conditions under which it runs at all: `path`, those between
// the guard and the effect first (`path[0, above_guard)`), then those above the guard.
struct GuardedEffect {
  llvm::Value* bound = nullptr;
  IdGuard guard;
  llvm::SmallVector<Literal, 4> path;
  std::size_t above_guard = 0;

  // Whether `other` never runs in a pass of the loop that reaches this effect's guard: a
  // condition that holds wherever the guard is reached (one above it; one below is decided after
  // it) contradicts one `other` runs under (any of its path: its bound counts only where all
  // hold).
  bool excluded_where_guard_runs(const GuardedEffect& other) const {
    for (std::size_t i = above_guard; i < path.size(); ++i) {
      for (const Literal& theirs : other.path) {
        if (path[i].condition == theirs.condition && path[i].holds != theirs.holds) return true;
      }
    }
    return false;
  }
};

// The bounds guards set on the work-items of one nest's innermost loop, made before its loops.
class GuardBounds {
 public:
  GuardBounds(const RegionNest& nest, std::uint64_t group_size0)
      : nest_(nest), g0_(group_size0), b_(nest.head->getTerminator()) {}

  llvm::IRBuilder<>& builder() { return b_; }

  // The bound the edge `from` → `to` sets when it is a guard `id0 < X` (or `id0 == c`) with X
  // computed outside the loops: min(X, G0), X below zero read as zero. Null otherwise. Sets
  // `guard` to the branch's test when it is `id0 < X`.
  llvm::Value* of_edge(llvm::BasicBlock* from, const llvm::BasicBlock* to, IdGuard& guard) {
    auto* br = llvm::dyn_cast<llvm::BranchInst>(from->getTerminator());
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
      case llvm::ICmpInst::ICMP_SLT: {
        llvm::Value* bound = clamped(rhs, pred == llvm::ICmpInst::ICMP_SLT);
        if (bound) guard = {br, pred, rhs};
        return bound;
      }
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
  // header) on an edge that alone leads there, and the literals of the edges above it; no bound
  // when there is none.
  GuardedEffect above(llvm::BasicBlock* block, const llvm::DominatorTree& dominators) {
    GuardedEffect effect;
    const llvm::BasicBlock* top = nest_.id0->getParent();
    for (const auto* node = dominators.getNode(block); node; node = node->getIDom()) {
      llvm::BasicBlock* at = node->getBlock();
      if (at == top) break;
      llvm::BasicBlock* pred = at->getSinglePredecessor();
      if (!pred) continue;
      if (!effect.bound) {
        effect.bound = of_edge(pred, at, effect.guard);
        if (effect.bound) {
          effect.above_guard = effect.path.size();
          continue;
        }
      }
      if (const auto literal = literal_of_edge(pred, at)) effect.path.push_back(*literal);
    }
    return effect;
  }

 private:
  // The edge `from` → `to` as a literal, when `from` branches on a condition computed outside
  // the loops and the edge is one of its two ways.
  std::optional<Literal> literal_of_edge(llvm::BasicBlock* from, const llvm::BasicBlock* to) const {
    const auto* br = llvm::dyn_cast<llvm::BranchInst>(from->getTerminator());
    if (!br || !br->isConditional() || br->getSuccessor(0) == br->getSuccessor(1)) {
      return std::nullopt;
    }
    llvm::Value* condition = br->getCondition();
    if (nest_.contains(condition)) return std::nullopt;
    return Literal{condition, br->getSuccessor(0) == to};
  }

  llvm::Value* clamped(llvm::Value* x, bool is_signed) {
    if (x->getType() != b_.getInt64Ty() || nest_.contains(x)) return nullptr;
    if (is_signed) x = b_.CreateSelect(b_.CreateICmpSLT(x, b_.getInt64(0)), b_.getInt64(0), x);
    return b_.CreateSelect(b_.CreateICmpULT(x, b_.getInt64(g0_)), x, b_.getInt64(g0_));
  }

  const RegionNest& nest_;
  std::uint64_t g0_;
  llvm::IRBuilder<> b_;
};

// A guard `id0 < X` is the same for every work-item the loop runs where, whenever the guard is
// reached, the loop runs max(1, min(X, G0)) of them: every other side effect has the same test,
// or cannot run in a pass that reaches the guard. Then it is X > 0 (X != 0 unsigned), and its
// branch takes that loop-invariant condition instead: the body needs no mask per work-item (the
// device unswitches the loop, and its vectorizer sees a body without the branch).
bool guard_holds_throughout(const GuardedEffect& effect, const std::vector<GuardedEffect>& all) {
  for (const GuardedEffect& other : all) {
    if (!other.guard.same_test(effect.guard) && !effect.excluded_where_guard_runs(other))
      return false;
  }
  return true;
}

// Folds each guard branch for which every effect below it (those it is the nearest guard of)
// holds throughout; the tests no longer used go.
void fold_guards(const std::vector<GuardedEffect>& effects, llvm::IRBuilder<>& b) {
  std::vector<llvm::BranchInst*> branches;
  for (const GuardedEffect& effect : effects) {
    llvm::BranchInst* branch = effect.guard.branch;
    if (branch && std::find(branches.begin(), branches.end(), branch) == branches.end())
      branches.push_back(branch);
  }
  std::vector<std::pair<const IdGuard*, llvm::Value*>> made;  // each test's `X > 0`, made once
  std::vector<llvm::Instruction*> tests;
  for (llvm::BranchInst* branch : branches) {
    const IdGuard* guard = nullptr;
    bool holds = true;
    for (const GuardedEffect& effect : effects) {
      if (effect.guard.branch != branch) continue;
      guard = &effect.guard;
      holds = holds && guard_holds_throughout(effect, effects);
    }
    if (!holds) continue;
    llvm::Value* any = nullptr;
    for (const auto& [g, value] : made) {
      if (g->same_test(*guard)) any = value;
    }
    if (!any) {
      llvm::Value* zero = llvm::ConstantInt::get(guard->x->getType(), 0);
      any = guard->pred == llvm::CmpInst::ICMP_SLT ? b.CreateICmpSGT(guard->x, zero, "region.any")
                                                   : b.CreateICmpNE(guard->x, zero, "region.any");
      made.emplace_back(guard, any);
    }
    if (auto* test = llvm::dyn_cast<llvm::Instruction>(branch->getCondition())) {
      if (std::find(tests.begin(), tests.end(), test) == tests.end()) tests.push_back(test);
    }
    branch->setCondition(any);
  }
  for (llvm::Instruction* test : tests) {
    if (test->use_empty()) test->eraseFromParent();
  }
}

// One effect's share of the bound: its guard's, where its path holds, else none.
llvm::Value* bound_of(const GuardedEffect& effect, llvm::IRBuilder<>& b) {
  llvm::Value* runs = nullptr;
  for (const Literal& literal : effect.path) {
    llvm::Value* holds = literal.holds ? literal.condition : b.CreateNot(literal.condition);
    runs = runs ? b.CreateAnd(runs, holds) : holds;
  }
  return runs ? b.CreateSelect(runs, effect.bound, b.getInt64(0)) : effect.bound;
}

}  // namespace

void narrow_to_guarded_items(RegionNest& nest, std::uint64_t group_size0,
                             const llvm::DominatorTree& dominators) {
  if (!nest.id0 || !nest.last0) return;
  GuardBounds guards(nest, group_size0);
  llvm::IRBuilder<>& b = guards.builder();
  std::vector<GuardedEffect> effects;
  // In the function's order, not the set's (which follows addresses): the same kernel compiles
  // to the same IR in every run.
  for (llvm::BasicBlock& block : *nest.head->getParent()) {
    if (!nest.blocks.contains(&block)) continue;
    // A block's side effects all lie under the same guards and conditions: one walk up its
    // dominators (and one bound made before the loops) stands for all of them.
    if (llvm::none_of(block, [](const llvm::Instruction& i) { return i.mayHaveSideEffects(); }))
      continue;
    effects.push_back(guards.above(&block, dominators));
    // Not all guarded: the full loop (what was made above is dead, for the device's DCE).
    if (!effects.back().bound) return;
  }
  llvm::Value* bound = nullptr;
  for (const GuardedEffect& effect : effects) {
    llvm::Value* found = bound_of(effect, b);
    bound = bound ? b.CreateSelect(b.CreateICmpUGT(bound, found), bound, found) : found;
  }
  if (!bound) bound = b.getInt64(0);  // nothing to do: one work-item runs, for the exit
  bound =
      b.CreateSelect(b.CreateICmpEQ(bound, b.getInt64(0)), b.getInt64(1), bound, "region.items");
  nest.last0->setOperand(1, bound);
  fold_guards(effects, b);
}

}  // namespace spvjit::detail
