// Loops over private arrays unrolled: ir/unroll_array_loops.hpp.
#include "ir/unroll_array_loops.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/UnrollLoop.h>

#include <set>
#include <vector>

#include "ir/analysis/loop_analyses.hpp"
#include "ir/analysis/synchronizing.hpp"
#include "ir/promote_variables.hpp"

namespace spvjit::detail {

namespace {

// The getelementptrs reaching `pointer`, a private array, directly or through other ones.
void array_addresses(llvm::Value* pointer, std::vector<llvm::GetElementPtrInst*>& out) {
  for (llvm::User* user : pointer->users()) {
    if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
        gep && gep->getPointerOperand() == pointer) {
      out.push_back(gep);
      array_addresses(gep, out);
    }
  }
}

// Whether `index` is a constant once the loops of its recurrences are unrolled: built from
// constants and affine recurrences of loops holding `at` alone (no argument, load or call).
// Those loops are added to `loops`.
bool constant_once_unrolled(const llvm::SCEV* index, const llvm::Instruction* at,
                            llvm::SmallPtrSetImpl<const llvm::Loop*>& loops) {
  // llvm::visitAll's visitor: stops at the first term no unrolling makes constant.
  struct Terms {
    bool follow(const llvm::SCEV* s) {
      if (llvm::isa<llvm::SCEVUnknown>(s) || llvm::isa<llvm::SCEVCouldNotCompute>(s)) {
        known = false;
      } else if (const auto* recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(s)) {
        const llvm::Loop* loop = recurrence->getLoop();
        if (!recurrence->isAffine() || !loop->contains(at)) known = false;
        loops.insert(loop);
      }
      return known;
    }
    bool isDone() const { return !known; }
    const llvm::Instruction* at;
    llvm::SmallPtrSetImpl<const llvm::Loop*>& loops;
    bool known = true;
  } terms{at, loops};
  llvm::visitAll(index, terms);
  return terms.known;
}

std::size_t instruction_count(const llvm::Loop& loop) {
  std::size_t count = 0;
  for (const llvm::BasicBlock* block : loop.blocks()) count += block->size();
  return count;
}

// Whether unrolling `loop` is within `limits` and allowed; its trip count in `trips`.
bool unrollable(llvm::Loop& loop, llvm::ScalarEvolution& evolution, const ArrayLoopLimits& limits,
                unsigned& trips) {
  trips = evolution.getSmallConstantTripCount(&loop);
  // A loop tested at its top runs its header once more than its body.
  return trips > 0 && trips <= limits.max_trip_count + 1 &&
         instruction_count(loop) * trips <= limits.max_instructions &&
         !contains(loop, Waiting::Synchronizing);
}

// The innermost loop worth unrolling in `fn` as `a` sees it, or null: one whose counter indexes a
// private array every index of which is a constant once loops within `limits` are unrolled
// (an array left with a computed index stays in memory: unrolling would not pay), and none of
// those loops in `refused`.
llvm::Loop* next_loop(llvm::Function& fn, LoopAnalyses& a, const ArrayLoopLimits& limits,
                      const std::set<const llvm::BasicBlock*>& refused, unsigned& trip_count) {
  llvm::Loop* best = nullptr;
  for (llvm::Instruction& inst : fn.getEntryBlock()) {
    auto* slot = llvm::dyn_cast<llvm::AllocaInst>(&inst);
    if (!slot || !slot->isStaticAlloca() || !slot->getAllocatedType()->isArrayTy()) continue;
    std::vector<llvm::GetElementPtrInst*> addresses;
    array_addresses(slot, addresses);
    llvm::SmallPtrSet<const llvm::Loop*, 4> loops;
    bool constant = true;
    for (llvm::GetElementPtrInst* address : addresses) {
      for (llvm::Value* index : address->indices()) {
        if (llvm::isa<llvm::Constant>(index)) continue;
        constant = constant && a.evolution.isSCEVable(index->getType()) &&
                   constant_once_unrolled(a.evolution.getSCEV(index), address, loops);
      }
    }
    if (!constant) continue;
    llvm::Loop* deepest = nullptr;
    unsigned deepest_trips = 0;
    for (const llvm::Loop* needed : loops) {
      auto* loop = const_cast<llvm::Loop*>(needed);
      unsigned trips = 0;
      if (refused.count(loop->getHeader()) || !unrollable(*loop, a.evolution, limits, trips)) {
        constant = false;
        break;
      }
      if (!deepest || loop->getLoopDepth() > deepest->getLoopDepth()) {
        deepest = loop;
        deepest_trips = trips;
      }
    }
    if (!constant || !deepest) continue;
    if (!best || deepest->getLoopDepth() > best->getLoopDepth()) {
      best = deepest;
      trip_count = deepest_trips;
    }
  }
  return best;
}

// More than a kernel within the limits has loops to unroll: each unrolled loop's body is at least
// two instructions, so max_instructions / 2 rounds unroll every loop a limit allows.
constexpr unsigned max_rounds = 2048;

}  // namespace

unsigned unroll_private_array_loops(llvm::Function& fn, ArrayLoopLimits limits) {
  if (fn.isDeclaration()) return 0;
  promote_variables(fn);  // loop counters as SSA values, which ScalarEvolution reads
  std::set<const llvm::BasicBlock*> refused;
  unsigned unrolled = 0;
  // One loop per round, on analyses of the function as the last round left it. Each round
  // unrolls a loop or refuses one; the rounds are capped besides, as a refused header's address
  // may be a new block's once an outer loop is unrolled.
  for (unsigned round = 0; round < max_rounds; ++round) {
    LoopAnalyses a(fn);
    unsigned trip_count = 0;
    llvm::Loop* loop = next_loop(fn, a, limits, refused, trip_count);
    if (!loop) break;
    const llvm::BasicBlock* header = loop->getHeader();
    llvm::simplifyLoop(loop, &a.dominators, &a.loops, &a.evolution, &a.assumptions, nullptr,
                       /*PreserveLCSSA=*/false);
    llvm::formLCSSARecursively(*loop, a.dominators, &a.loops, &a.evolution);
    llvm::OptimizationRemarkEmitter remarks(&fn);
    llvm::UnrollLoopOptions options{};
    options.Count = trip_count;
    const llvm::LoopUnrollResult result =
        llvm::UnrollLoop(loop, options, &a.loops, &a.evolution, &a.dominators, &a.assumptions,
                         nullptr, &remarks, /*PreserveLCSSA=*/true);
    if (result != llvm::LoopUnrollResult::FullyUnrolled) {
      refused.insert(header);
      continue;
    }
    ++unrolled;
    // A loop tested at its top leaves a last copy of its body behind a `br i1 false`, whose
    // elements are past the arrays' ends: gone, so every access left is one that runs.
    for (llvm::BasicBlock& block : fn) llvm::ConstantFoldTerminator(&block, true);
    llvm::removeUnreachableBlocks(fn);
  }
  return unrolled;
}

}  // namespace spvjit::detail
