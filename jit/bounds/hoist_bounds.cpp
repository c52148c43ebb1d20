#include "jit/bounds/hoist_bounds.hpp"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/ADT/Triple.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <set>
#include <string>
#include <vector>

#include "ir/bounds.hpp"
#include "ir/analysis/loop_analyses.hpp"
#include "ir/canonical_form.hpp"
#include "ir/promote_variables.hpp"
#include "ir/kernel_module.hpp"
#include "jit/bounds/bounds_lowering.hpp"
#include "ir/analysis/synchronizing.hpp"

namespace spvjit::detail {

namespace {

bool is_marker_check(const llvm::Instruction& inst) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
  const llvm::Function* f = call ? call->getCalledFunction() : nullptr;
  return f && f->getName().startswith(marker_check);
}

bool is_check(const llvm::Instruction& inst, CheckForm form) {
  return form == CheckForm::Markers ? is_marker_check(inst)
                                    : inst.getMetadata(lowered_check_tag) != nullptr;
}

// The (index, extent) pairs of a check, as the check's form holds them; false when a lowered
// check is not the `and` of `icmp ult` it was lowered to (a later pass changed it).
bool check_pairs(llvm::Instruction& check, CheckForm form,
                 std::vector<std::pair<llvm::Value*, llvm::Value*>>& out) {
  if (form == CheckForm::Markers) {
    auto* call = llvm::cast<llvm::CallInst>(&check);
    for (unsigned k = 0; k + 1 < call->arg_size(); k += 2) {
      out.emplace_back(call->getArgOperand(k), call->getArgOperand(k + 1));
    }
    return true;
  }
  std::vector<llvm::Value*> work{&check};
  while (!work.empty()) {
    llvm::Value* v = work.back();
    work.pop_back();
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v); c && c->isOne()) continue;
    if (auto* op = llvm::dyn_cast<llvm::BinaryOperator>(v);
        op && op->getOpcode() == llvm::Instruction::And) {
      work.push_back(op->getOperand(0));
      work.push_back(op->getOperand(1));
      continue;
    }
    auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(v);
    if (!cmp || cmp->getPredicate() != llvm::ICmpInst::ICMP_ULT) return false;
    out.emplace_back(cmp->getOperand(0), cmp->getOperand(1));
  }
  return true;
}

// One (index, extent) pair as the loop sees it: invariant, or {start, +, step} over the loop.
struct Pair {
  llvm::Value* index = nullptr;  ///< invariant pairs
  const llvm::SCEV* start = nullptr;
  const llvm::SCEV* step = nullptr;
  llvm::Value* extent = nullptr;
};

// The pairs of `check` as `loop` sees them; false when one is neither invariant nor affine.
bool loop_pairs(llvm::ScalarEvolution& se, const llvm::Loop& loop, llvm::Instruction& check,
                CheckForm form, std::vector<Pair>& out) {
  std::vector<std::pair<llvm::Value*, llvm::Value*>> raw;
  if (!check_pairs(check, form, raw)) return false;
  std::vector<Pair> pairs;
  for (auto [index, extent] : raw) {
    Pair p;
    p.extent = extent;
    if (!loop.isLoopInvariant(p.extent)) return false;
    if (loop.isLoopInvariant(index)) {
      p.index = index;
    } else {
      if (!index->getType()->isIntegerTy(64)) return false;
      auto* rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(se.getSCEV(index));
      if (!rec || rec->getLoop() != &loop || !rec->isAffine()) return false;
      p.start = rec->getStart();
      p.step = rec->getStepRecurrence(se);
      if (!se.isLoopInvariant(p.start, &loop) || !se.isLoopInvariant(p.step, &loop)) return false;
    }
    pairs.push_back(p);
  }
  out.insert(out.end(), pairs.begin(), pairs.end());
  return true;
}

// The test of `pairs` (index, extent, ...) in the checks' own form: a marker, or comparisons.
llvm::Value* emit_test(llvm::IRBuilder<>& b, llvm::Module& m, CheckForm form,
                       const std::vector<llvm::Value*>& args) {
  if (form == CheckForm::Markers) {
    return b.CreateCall(check_marker(m, static_cast<unsigned>(args.size() / 2)), args,
                        "loop.in.bounds");
  }
  return all_pairs_inside(b, args);
}

// Versions `loop` if it qualifies; false when it does not.
bool version(llvm::Function& f, LoopAnalyses& a, llvm::Loop& loop, CheckForm form,
             std::set<llvm::BasicBlock*>& done) {
  if (!loop.isInnermost() || contains(loop, Waiting::Synchronizing)) return false;
  llvm::BasicBlock* header = loop.getHeader();
  // Where the loop leaves: at the header (the body runs once less than the header), or at the
  // latch (every block runs at most once per trip of the back edge, plus the last).
  auto exits_at_header = [&] { return loop.getExitingBlock() == header; };
  auto exits_at_latch = [&] {
    return loop.getExitingBlock() && loop.getExitingBlock() == loop.getLoopLatch();
  };
  if (!exits_at_header() && !exits_at_latch()) return false;
  simplifyLoop(&loop, &a.dominators, &a.loops, &a.evolution, &a.assumptions, nullptr, false);
  formLCSSA(loop, a.dominators, &a.loops, &a.evolution);
  llvm::BasicBlock* preheader = loop.getLoopPreheader();
  if (!preheader || !loop.hasDedicatedExits()) return false;
  const bool at_header = exits_at_header();
  if (!at_header && !exits_at_latch()) return false;
  const llvm::SCEV* taken = a.evolution.getBackedgeTakenCount(&loop);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(taken)) return false;

  std::vector<llvm::Instruction*> hoisted;
  std::vector<Pair> pairs;
  for (auto* block : loop.blocks()) {
    if (at_header && block == header) continue;  // the header runs once more than the body
    for (auto& inst : *block) {
      if (is_check(inst, form) && loop_pairs(a.evolution, loop, inst, form, pairs)) {
        hoisted.push_back(&inst);
      }
    }
  }
  if (hoisted.empty()) return false;

  // In the preheader: the body runs `count` times (`taken`, or `taken + 1` when the latch
  // exits), its counter from start to start + step * (count - 1). Each index must be inside its
  // extent at both ends; the magnitudes are bounded (count <= 2^31, |step| < 2^31, |start| <
  // 2^62) so nothing between them wraps, and an affine index between two in-range ends is in
  // range. A check under a branch in the body may run fewer times: the test covers more.
  auto& ctx = f.getContext();
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::SCEVExpander expander(a.evolution, f.getParent()->getDataLayout(), "bounds");
  llvm::Instruction* at = preheader->getTerminator();
  llvm::IRBuilder<> b(at);
  auto expand = [&](const llvm::SCEV* s) {
    llvm::Value* v = expander.expandCodeFor(s, s->getType(), at);
    return v->getType() == i64 ? v : b.CreateSExtOrTrunc(v, i64);
  };
  llvm::Value* count = expand(taken);
  if (!at_header) count = b.CreateAdd(count, b.getInt64(1));
  std::vector<llvm::Value*> args;
  auto add = [&](llvm::Value* index, llvm::Value* extent) {
    args.push_back(index);
    args.push_back(extent);
  };
  bool any_affine = false;
  for (const Pair& p : pairs) {
    if (p.index) {
      add(p.index, p.extent);
      continue;
    }
    any_affine = true;
    llvm::Value* start = expand(p.start);
    llvm::Value* step = expand(p.step);
    llvm::Value* last = b.CreateAdd(start, b.CreateMul(step, b.CreateSub(count, b.getInt64(1))));
    add(b.CreateAdd(step, b.getInt64(std::int64_t{1} << 31)), b.getInt64(std::int64_t{1} << 32));
    add(b.CreateAdd(start, b.getInt64(std::int64_t{1} << 62)), b.getInt64(INT64_MAX));
    add(start, p.extent);
    add(last, p.extent);
  }
  if (any_affine) add(count, b.getInt64((std::int64_t{1} << 31) + 1));
  // A loop that never runs its body reaches nothing. With a constant trip count the test alone
  // (IRBuilder leaves `or false, %test`, which keeps the branch from folding once the test is
  // proven true).
  auto* constant_count = llvm::dyn_cast<llvm::ConstantInt>(count);
  llvm::Value* inside = constant_count && !constant_count->isZero()
                            ? emit_test(b, *f.getParent(), form, args)
                            : b.CreateOr(b.CreateICmpEQ(count, b.getInt64(0)),
                                         emit_test(b, *f.getParent(), form, args));

  // Two versions: the original loop without the hoisted checks, and a copy with them.
  llvm::BasicBlock* fast_entry = llvm::SplitBlock(preheader, at, &a.dominators, &a.loops);
  llvm::ValueToValueMapTy map;
  llvm::SmallVector<llvm::BasicBlock*, 16> blocks;
  llvm::Loop* checked = llvm::cloneLoopWithPreheader(fast_entry, preheader, &loop, map, ".checked",
                                                     &a.loops, &a.dominators, blocks);
  llvm::remapInstructionsInBlocks(blocks, map);
  auto* checked_entry = llvm::cast<llvm::BasicBlock>(map[fast_entry]);
  preheader->getTerminator()->eraseFromParent();
  llvm::BranchInst::Create(fast_entry, checked_entry, inside, preheader);
  llvm::SmallVector<llvm::BasicBlock*, 4> exits;
  loop.getExitBlocks(exits);
  for (auto* exit : exits) {
    for (auto& phi : exit->phis()) {
      const unsigned incoming = phi.getNumIncomingValues();
      for (unsigned i = 0; i < incoming; ++i) {
        llvm::BasicBlock* from = phi.getIncomingBlock(i);
        if (!loop.contains(from)) continue;
        llvm::Value* v = phi.getIncomingValue(i);
        llvm::Value* mapped = map.count(v) ? static_cast<llvm::Value*>(map[v]) : v;
        phi.addIncoming(mapped, llvm::cast<llvm::BasicBlock>(map[from]));
      }
    }
  }
  // Every use first, so that deleting one check's comparisons never reaches another check.
  for (auto* check : hoisted) check->replaceAllUsesWith(llvm::ConstantInt::getTrue(ctx));
  for (auto* check : hoisted) {
    // A marker is a call LLVM does not know returns; comparisons go with what only they used.
    if (form == CheckForm::Markers) {
      check->eraseFromParent();
    } else {
      llvm::RecursivelyDeleteTriviallyDeadInstructions(check);
    }
  }
  done.insert(header);
  done.insert(checked->getHeader());
  return true;
}

}  // namespace

unsigned hoist_loop_bounds_checks(llvm::Function& kernel, CheckForm form) {
  if (kernel.isDeclaration()) return 0;
  bool any_check = false;
  for (auto& block : kernel) {
    for (auto& inst : block) any_check = any_check || is_check(inst, form);
  }
  if (!any_check) return 0;
  // Loop counters as SSA values, which ScalarEvolution reads.
  if (form == CheckForm::Markers) {
    assert_canonical(kernel, "hoist-loop-bounds-checks");
  } else {
    promote_variables(kernel);
  }
  std::set<llvm::BasicBlock*> done;
  unsigned versioned = 0;
  // Analyses are rebuilt after each change; a kernel has few loops.
  for (unsigned round = 0; round < 64; ++round) {
    LoopAnalyses a(kernel);
    llvm::Loop* next = nullptr;
    for (llvm::Loop* loop : a.loops.getLoopsInPreorder()) {
      if (loop->isInnermost() && !done.count(loop->getHeader())) {
        next = loop;
        break;
      }
    }
    if (!next) break;
    if (version(kernel, a, *next, form, done)) {
      ++versioned;
    } else {
      done.insert(next->getHeader());
    }
  }
  return versioned;
}

}  // namespace spvjit::detail
