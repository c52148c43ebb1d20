// The grid-stride move: jit/workgroup/grid_stride.hpp.
#include "jit/workgroup/grid_stride.hpp"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/IR/ValueHandle.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstdint>
#include <optional>

#include "ir/analysis/divergence.hpp"
#include "ir/analysis/synchronizing.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

// A test of the loop's counter against a bound, read as `counter pred bound`.
struct Threshold {
  llvm::CmpInst::Predicate pred = llvm::CmpInst::BAD_ICMP_PREDICATE;
  llvm::Value* bound = nullptr;
};

// `v` (negated where `negate`) as a Threshold on `counter`: an icmp with the counter on either
// side, or the builder's `select(s > 0, up, down)` read as `up`, since the moved loop runs only
// where s > 0.
std::optional<Threshold> threshold(llvm::Value* v, const llvm::PHINode* counter,
                                   const llvm::Value* step, bool negate) {
  using namespace llvm::PatternMatch;
  llvm::Value *sign = nullptr, *up = nullptr;
  if (match(v, m_Select(m_Value(sign), m_Value(up), m_Value()))) {
    llvm::ICmpInst::Predicate p{};
    if (!match(sign, m_ICmp(p, m_Specific(step), m_Zero())) || p != llvm::ICmpInst::ICMP_SGT)
      return std::nullopt;
    return threshold(up, counter, step, negate);
  }
  auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(v);
  if (!cmp) return std::nullopt;
  Threshold t{cmp->getPredicate(), cmp->getOperand(1)};
  llvm::Value* lhs = cmp->getOperand(0);
  if (t.bound == counter && lhs != counter) {
    std::swap(lhs, t.bound);
    t.pred = llvm::CmpInst::getSwappedPredicate(t.pred);
  }
  if (lhs != counter || t.bound == counter) return std::nullopt;
  if (negate) t.pred = llvm::CmpInst::getInversePredicate(t.pred);
  return t;
}

// Where a counter starts: get_global_id(0) or get_local_id(0), plus `offset` (null for none).
struct Start {
  bool from_global_id = false;
  llvm::Value* offset = nullptr;
};

std::optional<Start> id_start(llvm::Value* v) {
  const auto id = [](const llvm::Value* x) -> std::optional<bool> {
    if (!x->getType()->isIntegerTy(64)) return std::nullopt;
    if (builtin::is_query_call(x, builtin::global_id, 0)) return true;
    if (builtin::is_query_call(x, builtin::local_id, 0)) return false;
    return std::nullopt;
  };
  if (const auto global = id(v)) return Start{*global, nullptr};
  using namespace llvm::PatternMatch;
  llvm::Value *a = nullptr, *b = nullptr;
  if (!match(v, m_Add(m_Value(a), m_Value(b)))) return std::nullopt;
  if (const auto global = id(a)) return Start{*global, b};
  if (const auto global = id(b)) return Start{*global, a};
  return std::nullopt;
}

// One candidate loop, matched and checked; `move` rewrites it.
struct GridStrideLoop {
  llvm::Loop* loop = nullptr;
  llvm::PHINode* counter = nullptr;
  Start start;
  llvm::Value* step = nullptr;
  llvm::Value* end = nullptr;  ///< n of `i < n`
  bool unsigned_end = false;
  bool stay_on_true = true;  ///< which way the header's branch stays in the loop
  /// The other exiting blocks (each leaves when `i > B` or `i >= B`) and their bounds B.
  std::vector<std::pair<llvm::BasicBlock*, llvm::Value*>> overflow_exits;
};

class Mover {
 public:
  Mover(llvm::Function& kernel, const WorkGroup& group) : f_(kernel), group_(group) {}

  GridStrideMoves run() {
    GridStrideMoves out;
    // One loop at a time, the analyses made again after each move; the original of a moved loop
    // still matches, so each header is looked at once.
    for (;;) {
      llvm::DenseSet<const llvm::BasicBlock*> divergent;
      uniform_ = uniform_instructions(f_, &divergent);
      llvm::DominatorTree dominators(f_);
      llvm::LoopInfo loops(dominators);
      bool moved = false;
      for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
        if (!seen_.insert(loop->getHeader()).second) continue;
        llvm::PHINode* counter = counter_of(*loop);
        if (!counter) continue;
        GridStrideLoop g;
        std::string why = match(*loop, counter, divergent, g);
        if (why.empty()) why = check_exit_values(*loop, counter, dominators, loops);
        if (!why.empty()) {
          out.refusals.push_back("loop '" + loop->getHeader()->getName().str() + "': " + why);
          continue;
        }
        out.versions.push_back(move(g));
        out.slots.insert(out.slots.end(), slots_.begin(), slots_.end());
        slots_.clear();
        moved = true;
        break;
      }
      if (!moved) return out;
    }
  }

 private:
  // What the whole group shares: a constant, an argument, or a uniform instruction.
  bool shared(const llvm::Value* v) const {
    if (llvm::isa<llvm::Constant>(v) || llvm::isa<llvm::Argument>(v)) return true;
    return uniform_.contains(v);
  }

  // The header phi that starts at a work-item's id, if any.
  static llvm::PHINode* counter_of(const llvm::Loop& loop) {
    for (llvm::PHINode& phi : loop.getHeader()->phis()) {
      for (unsigned k = 0; k < phi.getNumIncomingValues(); ++k) {
        if (!loop.contains(phi.getIncomingBlock(k)) && id_start(phi.getIncomingValue(k)))
          return &phi;
      }
    }
    return nullptr;
  }

  // Whether `v` can be computed before the loop: from outside it, or pure arithmetic of such.
  static bool hoistable(const llvm::Value* v, const llvm::Loop& loop, unsigned depth = 8) {
    const auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
    if (!inst || !loop.contains(inst)) return true;
    if (depth == 0 || llvm::isa<llvm::PHINode>(inst) || inst->mayReadOrWriteMemory() ||
        !llvm::isSafeToSpeculativelyExecute(inst)) {
      return false;
    }
    if (!llvm::isa<llvm::BinaryOperator>(inst) && !llvm::isa<llvm::CastInst>(inst) &&
        !llvm::isa<llvm::CmpInst>(inst) && !llvm::isa<llvm::SelectInst>(inst)) {
      return false;
    }
    for (const llvm::Use& op : inst->operands()) {
      if (!hoistable(op.get(), loop, depth - 1)) return false;
    }
    return true;
  }

  // `v` computed before `at` (hoistable() said it can be).
  static llvm::Value* hoist(llvm::Value* v, const llvm::Loop& loop, llvm::Instruction* at) {
    auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
    if (!inst || !loop.contains(inst)) return v;
    llvm::Instruction* copy = inst->clone();
    for (llvm::Use& op : copy->operands()) op.set(hoist(op.get(), loop, at));
    copy->insertBefore(at);
    copy->setName(inst->getName() + ".hoisted");
    return copy;
  }

  // A value the group shares that can be computed before the loop, or why not.
  std::string invariant(const llvm::Value* v, const llvm::Loop& loop, const char* what) const {
    if (!hoistable(v, loop)) return std::string(what) + " is computed in the loop";
    if (!shared(v)) return std::string(what) + " differs between work-items";
    return {};
  }

  std::string match(llvm::Loop& loop, llvm::PHINode* counter,
                    const llvm::DenseSet<const llvm::BasicBlock*>& divergent,
                    GridStrideLoop& g) const {
    llvm::BasicBlock* header = loop.getHeader();
    llvm::BasicBlock* preheader = loop.getLoopPreheader();
    llvm::BasicBlock* latch = loop.getLoopLatch();
    llvm::BasicBlock* exit = loop.getUniqueExitBlock();
    if (!loop.isInnermost()) return "it holds a loop";
    if (!preheader || !latch || !exit || !loop.hasDedicatedExits() || latch == header)
      return "not one preheader, one latch and one exit block of its own";
    if (divergent.contains(preheader)) return "only some work-items of a group reach it";
    if (contains(loop, Waiting::Synchronizing)) return "it may synchronize the group";
    g.loop = &loop;
    g.counter = counter;
    g.start = *id_start(counter->getIncomingValueForBlock(preheader));
    if (!counter->getType()->isIntegerTy(64)) return "its counter is not 64-bit";
    if (g.start.offset) {
      if (std::string why = invariant(g.start.offset, loop, "its start's offset"); !why.empty())
        return why;
    }
    using namespace llvm::PatternMatch;
    llvm::Value* next = counter->getIncomingValueForBlock(latch);
    if (!::llvm::PatternMatch::match(next, m_c_Add(m_Specific(counter), m_Value(g.step))))
      return "its counter does not step by an added value";
    if (std::string why = invariant(g.step, loop, "its step"); !why.empty()) return why;
    // The header's test: the counter below a bound, the loop left on the other side.
    const auto* test = llvm::dyn_cast<llvm::BranchInst>(header->getTerminator());
    if (!test || !test->isConditional() ||
        (test->getSuccessor(0) != exit) == (test->getSuccessor(1) != exit)) {
      return "its header does not branch between the loop and its exit";
    }
    g.stay_on_true = test->getSuccessor(1) == exit;
    const auto below = threshold(test->getCondition(), counter, g.step, !g.stay_on_true);
    if (!below ||
        (below->pred != llvm::CmpInst::ICMP_SLT && below->pred != llvm::CmpInst::ICMP_ULT)) {
      return "its header's test is not `i < n`";
    }
    g.end = below->bound;
    g.unsigned_end = below->pred == llvm::CmpInst::ICMP_ULT;
    if (std::string why = invariant(g.end, loop, "its end"); !why.empty()) return why;
    for (const llvm::Instruction& inst : *header) {
      if (inst.mayHaveSideEffects()) return "its header has side effects";
    }
    // Every other way out: before `i + s` would overflow.
    llvm::SmallVector<llvm::BasicBlock*, 4> exiting;
    loop.getExitingBlocks(exiting);
    for (llvm::BasicBlock* block : exiting) {
      if (block == header) continue;
      const auto* br = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
      if (!br || !br->isConditional()) return "it is left other than by a test of its counter";
      const bool leave_on_true = br->getSuccessor(0) == exit;
      const auto past = threshold(br->getCondition(), counter, g.step, !leave_on_true);
      if (!past ||
          (past->pred != llvm::CmpInst::ICMP_SGT && past->pred != llvm::CmpInst::ICMP_SGE)) {
        return "it is left other than by `i < n` and an overflow test `i > B`";
      }
      if (std::string why = invariant(past->bound, loop, "an overflow test's bound"); !why.empty())
        return why;
      g.overflow_exits.emplace_back(block, past->bound);
    }
    return {};
  }

  // After the loop, only values its header holds when the work-item leaves are read (the moved
  // loop leaves from elsewhere): the header's phis but the counter, and values from outside.
  static std::string check_exit_values(llvm::Loop& loop, const llvm::PHINode* counter,
                                       const llvm::DominatorTree& dominators,
                                       const llvm::LoopInfo& loops) {
    llvm::formLCSSA(loop, dominators, &loops, nullptr);
    llvm::BasicBlock* header = loop.getHeader();
    for (const llvm::PHINode& phi : loop.getUniqueExitBlock()->phis()) {
      const llvm::Value* v = phi.getIncomingValueForBlock(header);
      if (v == counter) return "its counter is read after it";
      const auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
      if (inst && loop.contains(inst) &&
          !(llvm::isa<llvm::PHINode>(inst) && inst->getParent() == header)) {
        return "a value its header computes is read after it";
      }
    }
    return {};
  }

  llvm::BranchInst* move(const GridStrideLoop& g) {
    llvm::Loop& loop = *g.loop;
    llvm::LLVMContext& ctx = f_.getContext();
    llvm::Module& m = *f_.getParent();
    llvm::BasicBlock* header = loop.getHeader();
    llvm::BasicBlock* preheader = loop.getLoopPreheader();
    llvm::BasicBlock* latch = loop.getLoopLatch();
    llvm::BasicBlock* exit = loop.getUniqueExitBlock();
    std::vector<llvm::BasicBlock*> blocks(loop.block_begin(), loop.block_end());

    // Before the loop: the group's first counter U, the shared values, the version's test.
    llvm::Instruction* at = preheader->getTerminator();
    llvm::IRBuilder<> b(at);
    llvm::Type* i64 = b.getInt64Ty();
    llvm::Value* zero = b.getInt64(0);
    llvm::Value* step = hoist(g.step, loop, at);
    llvm::Value* end = hoist(g.end, loop, at);
    llvm::Value* first = zero;
    if (g.start.from_global_id) {
      first =
          b.CreateMul(builtin_call(b, m, builtin::group_id, 0),
                      b.getInt64(static_cast<std::uint64_t>(group_.size[0])), "grid.stride.group");
    }
    if (g.start.offset) first = b.CreateAdd(first, hoist(g.start.offset, loop, at));
    llvm::Value* holds = b.CreateICmpSGT(step, zero);
    holds = b.CreateAnd(holds, b.CreateICmpSGE(first, zero));
    holds = b.CreateAnd(
        holds,
        b.CreateICmpSLE(end, b.CreateSub(llvm::ConstantInt::getSigned(i64, INT64_MAX), step)));
    if (g.unsigned_end) holds = b.CreateAnd(holds, b.CreateICmpSGE(end, zero));
    for (const auto& exit_bound : g.overflow_exits) {
      holds = b.CreateAnd(holds, b.CreateICmpSLE(end, hoist(exit_bound.second, loop, at)));
    }
    holds->setName("grid.stride.holds");

    // The original loop, entered from a preheader of its own.
    auto* original = llvm::BasicBlock::Create(ctx, "grid.stride.original", &f_, header);
    llvm::BranchInst::Create(header, original);
    header->replacePhiUsesWith(preheader, original);

    // The per-work-item slots of the values the loop carries.
    std::vector<std::pair<llvm::PHINode*, llvm::AllocaInst*>> carried;
    {
      llvm::IRBuilder<> e(&*f_.getEntryBlock().getFirstInsertionPt());
      for (llvm::PHINode& phi : header->phis()) {
        if (&phi == g.counter) continue;
        carried.emplace_back(&phi, e.CreateAlloca(phi.getType(), nullptr, phi.getName() + ".item"));
        slots_.push_back(carried.back().second);
      }
    }

    // The moved loop's blocks: before it, its round's test, each work-item's test, the next
    // round, after it.
    auto* enter = llvm::BasicBlock::Create(ctx, "grid.stride.enter", &f_, header);
    auto* round = llvm::BasicBlock::Create(ctx, "grid.stride.round", &f_, header);
    auto* item = llvm::BasicBlock::Create(ctx, "grid.stride.item", &f_, header);
    auto* next = llvm::BasicBlock::Create(ctx, "grid.stride.next", &f_, header);
    auto* done = llvm::BasicBlock::Create(ctx, "grid.stride.done", &f_, header);

    // The body, copied: each work-item's iteration.
    llvm::ValueToValueMapTy map;
    llvm::SmallVector<llvm::BasicBlock*, 16> copies;
    for (llvm::BasicBlock* block : blocks) {
      llvm::BasicBlock* copy = llvm::CloneBasicBlock(block, map, ".item", &f_);
      map[block] = copy;
      copies.push_back(copy);
    }
    llvm::remapInstructionsInBlocks(copies, map);
    const auto copy_of = [&](llvm::Value* v) -> llvm::Value* {
      auto found = map.find(v);
      return found == map.end() ? v : static_cast<llvm::Value*>(found->second);
    };
    auto* body = llvm::cast<llvm::BasicBlock>(map[header]);
    auto* body_latch = llvm::cast<llvm::BasicBlock>(map[latch]);

    b.SetInsertPoint(enter);
    for (auto& [phi, slot] : carried) b.CreateStore(phi->getIncomingValueForBlock(original), slot);
    b.CreateBr(round);

    b.SetInsertPoint(round);
    llvm::PHINode* u = b.CreatePHI(i64, 2, "grid.stride.u");
    u->addIncoming(first, enter);
    b.CreateCondBr(b.CreateICmpSLT(u, end, "grid.stride.any"), item, done);

    b.SetInsertPoint(item);
    llvm::Value* lid = builtin_call(b, m, builtin::local_id, 0);
    llvm::Value* left = b.CreateSub(end, u, "grid.stride.left", false, true);
    b.CreateCondBr(b.CreateICmpSLT(lid, left, "grid.stride.active"), body, next);

    b.SetInsertPoint(next);
    u->addIncoming(b.CreateAdd(u, step, "grid.stride.u.next", false, true), next);
    b.CreateBr(round);

    // The latch stores what the iteration carries on; then the header's phis read the slots and
    // the counter is the work-item's `u + lid`.
    for (auto& [phi, slot] : carried) {
      new llvm::StoreInst(copy_of(phi->getIncomingValueForBlock(latch)), slot,
                          body_latch->getTerminator());
    }
    body_latch->getTerminator()->replaceSuccessorWith(body, next);
    b.SetInsertPoint(&*body->getFirstInsertionPt());
    llvm::Value* i = b.CreateAdd(u, lid, "grid.stride.i", true, true);
    auto* counter_copy = llvm::cast<llvm::PHINode>(map[g.counter]);
    auto* stepped =
        llvm::dyn_cast<llvm::Instruction>(counter_copy->getIncomingValueForBlock(body_latch));
    counter_copy->replaceAllUsesWith(i);
    counter_copy->eraseFromParent();
    for (auto& [phi, slot] : carried) {
      auto* phi_copy = llvm::cast<llvm::PHINode>(map[phi]);
      phi_copy->replaceAllUsesWith(b.CreateLoad(phi->getType(), slot, phi->getName()));
      phi_copy->eraseFromParent();
    }
    if (stepped) llvm::RecursivelyDeleteTriviallyDeadInstructions(stepped);

    // In the copy, the work-item's tests never leave: its body runs only where `u + lid < n`,
    // where they hold (see the header).
    const auto stay = [](llvm::BasicBlock* copy, llvm::BasicBlock* in_loop) {
      auto* br = llvm::cast<llvm::BranchInst>(copy->getTerminator());
      llvm::Value* condition = br->getCondition();
      llvm::BranchInst::Create(in_loop, br);
      br->eraseFromParent();
      llvm::RecursivelyDeleteTriviallyDeadInstructions(condition);
    };
    auto* header_br = llvm::cast<llvm::BranchInst>(body->getTerminator());
    stay(body, header_br->getSuccessor(g.stay_on_true ? 0 : 1));
    for (const auto& exit_bound : g.overflow_exits) {
      auto* copy = llvm::cast<llvm::BasicBlock>(map[exit_bound.first]);
      auto* br = llvm::cast<llvm::BranchInst>(copy->getTerminator());
      stay(copy, br->getSuccessor(br->getSuccessor(0) == exit ? 1 : 0));
    }

    // After the moved loop: what each work-item's header held when it left.
    b.SetInsertPoint(done);
    for (llvm::PHINode& phi : exit->phis()) {
      llvm::Value* v = phi.getIncomingValueForBlock(header);
      for (auto& [carried_phi, slot] : carried) {
        if (v == carried_phi) {
          v = b.CreateLoad(carried_phi->getType(), slot, carried_phi->getName() + ".left");
          break;
        }
      }
      phi.addIncoming(v, done);
    }
    b.CreateBr(exit);

    // The version's branch.
    at->eraseFromParent();
    return llvm::BranchInst::Create(enter, original, holds, preheader);
  }

  llvm::Function& f_;
  const WorkGroup& group_;
  llvm::DenseSet<const llvm::Value*> uniform_;
  llvm::SmallPtrSet<const llvm::BasicBlock*, 16> seen_;
  std::vector<llvm::AllocaInst*> slots_;
};

}  // namespace

GridStrideMoves move_grid_stride_loops(llvm::Function& kernel, const WorkGroup& group) {
  return Mover(kernel, group).run();
}

void undo_grid_stride_moves(llvm::Function& kernel, const GridStrideMoves& moves) {
  if (moves.versions.empty()) return;
  std::vector<llvm::WeakTrackingVH> tests;
  for (llvm::BranchInst* version : moves.versions) {
    tests.emplace_back(version->getCondition());
    llvm::BasicBlock* preheader = version->getParent();
    version->setCondition(llvm::ConstantInt::getFalse(kernel.getContext()));
    llvm::ConstantFoldTerminator(preheader);
    // The original loop's own preheader goes back into the block it was split from.
    llvm::MergeBlockIntoPredecessor(preheader->getSingleSuccessor());
  }
  llvm::removeUnreachableBlocks(kernel);
  for (llvm::WeakTrackingVH& test : tests) {
    if (test) llvm::RecursivelyDeleteTriviallyDeadInstructions(test);
  }
  for (llvm::AllocaInst* slot : moves.slots) {
    if (slot->use_empty()) slot->eraseFromParent();
  }
}

}  // namespace spvjit::detail
