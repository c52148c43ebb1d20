// Loops under lane masks: jit/coarsen/masked_loops.hpp.
#include "jit/coarsen/masked_loops.hpp"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <optional>
#include <utility>

namespace spvjit::detail {

namespace {

// The header's exit branch of `loop`, if it leaves to `to` on a condition.
llvm::BranchInst* header_exit(const llvm::Loop& loop, const llvm::BasicBlock* to) {
  auto* br = llvm::dyn_cast<llvm::BranchInst>(loop.getHeader()->getTerminator());
  if (!br || !br->isConditional()) return nullptr;
  if (br->getSuccessor(0) != to && br->getSuccessor(1) != to) return nullptr;
  return br;
}

}  // namespace

llvm::BranchInst* foldable_overflow_exit(const llvm::Loop& loop) {
  llvm::SmallVector<llvm::BasicBlock*, 2> exiting;
  loop.getExitingBlocks(exiting);
  llvm::BasicBlock* header = loop.getHeader();
  llvm::BasicBlock* latch = loop.getLoopLatch();
  if (exiting.size() != 2 || !latch || !loop.getLoopPreheader()) return nullptr;
  llvm::BasicBlock* test = exiting[0] == header ? exiting[1] : exiting[0];
  if (test == header || test == latch || (exiting[0] != header && exiting[1] != header)) {
    return nullptr;
  }
  auto* br = llvm::dyn_cast<llvm::BranchInst>(test->getTerminator());
  if (!br || !br->isConditional()) return nullptr;
  const bool leave_on_true = !loop.contains(br->getSuccessor(0));
  llvm::BasicBlock* exit = br->getSuccessor(leave_on_true ? 0 : 1);
  if (br->getSuccessor(leave_on_true ? 1 : 0) != latch || latch->getSinglePredecessor() != test ||
      !header_exit(loop, exit)) {
    return nullptr;
  }
  // Both run once more for a lane that took the exit: neither may do anything but compute.
  for (llvm::BasicBlock* b : {header, latch}) {
    for (llvm::Instruction& i : *b) {
      if (!llvm::isa<llvm::PHINode>(i) && !i.isTerminator() &&
          !llvm::isSafeToSpeculativelyExecute(&i)) {
        return nullptr;
      }
    }
  }
  // After the loop, its values are read only through the exit block's phis.
  for (llvm::BasicBlock* b : loop.blocks()) {
    for (llvm::Instruction& i : *b) {
      for (const llvm::Use& use : i.uses()) {
        auto* user = llvm::cast<llvm::Instruction>(use.getUser());
        if (loop.contains(user->getParent())) continue;
        if (user->getParent() != exit || !llvm::isa<llvm::PHINode>(user)) return nullptr;
      }
    }
  }
  return br;
}

FoldedExit fold_overflow_exit(llvm::Loop& loop, llvm::BranchInst* test) {
  llvm::BasicBlock* header = loop.getHeader();
  llvm::BasicBlock* preheader = loop.getLoopPreheader();
  llvm::BasicBlock* latch = loop.getLoopLatch();
  llvm::BasicBlock* from = test->getParent();
  const bool leave_on_true = !loop.contains(test->getSuccessor(0));
  llvm::BasicBlock* exit = test->getSuccessor(leave_on_true ? 0 : 1);
  llvm::BranchInst* header_branch = header_exit(loop, exit);

  llvm::IRBuilder<> phis(&header->front());
  auto* took = phis.CreatePHI(phis.getInt1Ty(), 2, "overflow.exit.taken");
  took->addIncoming(phis.getFalse(), preheader);
  llvm::IRBuilder<> at(header_branch);
  llvm::Value* leave = test->getCondition();
  if (!leave_on_true) {
    leave = llvm::BinaryOperator::CreateNot(leave, "overflow.exit", test);
  }
  took->addIncoming(leave, latch);
  // Each exit phi's value on the folded edge, carried round to the header.
  for (llvm::PHINode& after : exit->phis()) {
    auto* carried = phis.CreatePHI(after.getType(), 2, after.getName() + ".at.overflow");
    carried->addIncoming(llvm::PoisonValue::get(after.getType()), preheader);
    carried->addIncoming(after.getIncomingValueForBlock(from), latch);
    after.setIncomingValueForBlock(
        header, at.CreateSelect(took, carried, after.getIncomingValueForBlock(header)));
    after.removeIncomingValue(from, /*DeletePHIIfEmpty=*/false);
  }
  // `select`, not `or`: the header's own test of a wrapped counter may be poison.
  llvm::Value* test_value = header_branch->getCondition();
  const bool header_stays_on_true = loop.contains(header_branch->getSuccessor(0));
  header_branch->setCondition(header_stays_on_true
                                  ? at.CreateSelect(took, at.getFalse(), test_value)
                                  : at.CreateSelect(took, at.getTrue(), test_value));
  llvm::BranchInst::Create(latch, test);
  test->eraseFromParent();
  return {test_value, header_stays_on_true, leave, took};
}

void add_unmasked_run(llvm::Loop& loop, const FoldedExit& folded) {
  llvm::BasicBlock* header = loop.getHeader();
  llvm::BasicBlock* preheader = loop.getLoopPreheader();
  llvm::BasicBlock* latch = loop.getLoopLatch();
  llvm::Function& f = *header->getParent();
  auto& m = *f.getParent();
  llvm::BranchInst* header_branch = llvm::cast<llvm::BranchInst>(header->getTerminator());
  llvm::BasicBlock* inside = header_branch->getSuccessor(folded.stays_on_true ? 0 : 1);

  // The copy: the same blocks, values and phis (their preheader edge kept, their latch edge
  // from the copy's latch).
  llvm::ValueToValueMapTy map;
  llvm::SmallVector<llvm::BasicBlock*, 16> copies;
  for (llvm::BasicBlock* b : loop.blocks()) {
    llvm::BasicBlock* copy = llvm::CloneBasicBlock(b, map, ".unmasked", &f);
    map[b] = copy;
    copies.push_back(copy);
  }
  llvm::remapInstructionsInBlocks(copies, map);
  auto copy_of = [&](llvm::Value* v) -> llvm::Value* {
    auto found = map.find(v);
    return found != map.end() ? static_cast<llvm::Value*>(found->second) : v;
  };
  auto* run_header = llvm::cast<llvm::BasicBlock>(copy_of(header));
  auto* run_latch = llvm::cast<llvm::BasicBlock>(copy_of(latch));

  // The masked loop's entry: the state the run stopped in.
  auto* entry = llvm::BasicBlock::Create(f.getContext(), "masked.entry", &f, header);
  llvm::IRBuilder<> at_entry(entry);
  for (llvm::PHINode& phi : header->phis()) {
    auto* state = at_entry.CreatePHI(phi.getType(), 2, phi.getName() + ".entry");
    state->addIncoming(copy_of(&phi), run_header);
    state->addIncoming(copy_of(phi.getIncomingValueForBlock(latch)), run_latch);
    phi.setIncomingBlock(phi.getBasicBlockIndex(preheader), entry);
    phi.setIncomingValue(phi.getBasicBlockIndex(entry), state);
  }
  at_entry.CreateBr(header);
  // No lane took the overflow exit inside the run: its latch leaves for the masked loop first.
  copy_of(folded.taken)->replaceAllUsesWith(at_entry.getFalse());

  // The run's header: on while every lane stays.
  auto* run_branch = llvm::cast<llvm::BranchInst>(run_header->getTerminator());
  llvm::IRBuilder<> at_header(run_branch);
  llvm::Value* stays = copy_of(folded.header_test);
  if (!folded.stays_on_true) stays = at_header.CreateNot(stays);
  llvm::Value* every = at_header.CreateCall(lane_test(m, every_lane_marker), {stays}, "lanes.all");
  llvm::BranchInst::Create(llvm::cast<llvm::BasicBlock>(copy_of(inside)), entry, every, run_branch);
  run_branch->eraseFromParent();
  // The run's latch: round again while no lane takes the overflow exit.
  auto* latch_branch = run_latch->getTerminator();
  llvm::IRBuilder<> at_latch(latch_branch);
  llvm::Value* none =
      at_latch.CreateCall(lane_test(m, no_lane_marker), {copy_of(folded.leave)}, "lanes.none");
  llvm::BranchInst::Create(run_header, entry, none, latch_branch);
  latch_branch->eraseFromParent();

  auto* enter = preheader->getTerminator();
  for (unsigned s = 0; s < enter->getNumSuccessors(); ++s) {
    if (enter->getSuccessor(s) == header) enter->setSuccessor(s, run_header);
  }
}

namespace {

// Why `loop`, which `exit` leaves on a varying condition, cannot run under lane masks; empty if
// it can. `divergent`: the blocks ending with a branch on a varying condition. `folded`: a
// second exit fold_overflow_exit takes away first, or null.
std::string masked_loop_problem(const llvm::Loop& loop, const llvm::BranchInst& exit,
                                const llvm::BranchInst* folded, const llvm::DominatorTree& dt,
                                const llvm::DenseSet<const llvm::BasicBlock*>& divergent) {
  if (!loop.isInnermost()) return "leaves a loop holding other loops on a varying condition";
  const llvm::BasicBlock* exiting = exit.getParent();
  if (!folded && loop.getExitingBlock() != exiting) {
    return "leaves a loop at more than one place, one of them on a varying condition";
  }
  const llvm::BasicBlock* latch = loop.getLoopLatch();
  if (!loop.getLoopPreheader() || !latch || !loop.hasDedicatedExits() ||
      !dt.dominates(exiting, latch)) {
    return "leaves a loop on a varying condition, the loop in a form coarsening does not take "
           "(several entries or latches, or a way around its exit test)";
  }
  for (const llvm::BasicBlock* b : loop.blocks()) {
    if (b != exiting && (!folded || b != folded->getParent()) && divergent.contains(b)) {
      return "branches on a varying condition inside a loop whose exit also differs between "
             "lanes";
    }
  }
  return {};
}

// The instructions of `loop` used after it.
std::vector<llvm::Instruction*> used_after(const llvm::Loop& loop) {
  std::vector<llvm::Instruction*> out;
  for (llvm::BasicBlock* b : loop.blocks()) {
    for (llvm::Instruction& i : *b) {
      for (const llvm::User* user : i.users()) {
        if (!loop.contains(llvm::cast<llvm::Instruction>(user)->getParent())) {
          out.push_back(&i);
          break;
        }
      }
    }
  }
  return out;
}

// The blocks of `loop` after its exit test: reached from `first` (the exit branch's successor
// inside the loop) before the header comes round again.
llvm::DenseSet<llvm::BasicBlock*> after_exit_test(const llvm::Loop& loop, llvm::BasicBlock* first) {
  llvm::DenseSet<llvm::BasicBlock*> after;
  std::vector<llvm::BasicBlock*> work = {first};
  while (!work.empty()) {
    llvm::BasicBlock* b = work.back();
    work.pop_back();
    if (b == loop.getHeader() || !after.insert(b).second) continue;
    for (llvm::BasicBlock* s : llvm::successors(b)) {
      if (loop.contains(s)) work.push_back(s);
    }
  }
  return after;
}

// The rewrite of masked_loops.hpp's picture, for one loop.
void mask_loop(llvm::Loop& loop, llvm::BranchInst* exit_branch, llvm::Function* no_lane,
               LaneMasks& masks) {
  llvm::BasicBlock* header = loop.getHeader();
  llvm::BasicBlock* preheader = loop.getLoopPreheader();
  llvm::BasicBlock* latch = loop.getLoopLatch();
  const bool stay_on_true = loop.contains(exit_branch->getSuccessor(0));
  llvm::BasicBlock* inside = exit_branch->getSuccessor(stay_on_true ? 0 : 1);
  llvm::BasicBlock* outside = exit_branch->getSuccessor(stay_on_true ? 1 : 0);
  const llvm::DenseSet<llvm::BasicBlock*> after = after_exit_test(loop, inside);
  const std::vector<llvm::Instruction*> live_out = used_after(loop);

  llvm::IRBuilder<> phis(&header->front());
  auto* active = phis.CreatePHI(phis.getInt1Ty(), 2, "lanes.active");
  active->addIncoming(phis.getTrue(), preheader);
  llvm::IRBuilder<> at(exit_branch);
  llvm::Value* test = exit_branch->getCondition();
  llvm::Value* go_on = stay_on_true ? test : at.CreateNot(test, "lanes.go.on");
  llvm::Value* stay = at.CreateSelect(active, go_on, at.getFalse(), "lanes.stay");
  llvm::Value* leaving =
      at.CreateSelect(active, at.CreateNot(go_on), at.getFalse(), "lanes.leaving");
  active->addIncoming(stay, latch);
  for (llvm::Instruction* v : live_out) {
    auto* last = phis.CreatePHI(v->getType(), 2, v->getName() + ".last");
    last->addIncoming(llvm::PoisonValue::get(v->getType()), preheader);
    llvm::Value* exit_value = at.CreateSelect(leaving, v, last, v->getName() + ".exit");
    last->addIncoming(exit_value, latch);
    v->replaceUsesWithIf(exit_value, [&](llvm::Use& use) {
      return !loop.contains(llvm::cast<llvm::Instruction>(use.getUser())->getParent());
    });
  }
  llvm::Value* none = at.CreateCall(no_lane, {stay}, "lanes.none");
  llvm::BranchInst::Create(outside, inside, none, exit_branch);
  exit_branch->eraseFromParent();
  for (llvm::BasicBlock* b : loop.blocks())
    mask_block(*b, after.contains(b) ? stay : active, masks);
}

}  // namespace

std::string take_masked_loop_exits(llvm::Function& f, std::vector<llvm::BranchInst*>& divergent,
                                   std::vector<llvm::BranchInst*>& loop_exits,
                                   bool fold_overflow_exits) {
  if (divergent.empty()) return {};
  llvm::DominatorTree dt(f);
  llvm::LoopInfo loops(dt);
  llvm::DenseSet<const llvm::BasicBlock*> blocks;
  for (llvm::BranchInst* br : divergent) blocks.insert(br->getParent());
  std::vector<llvm::BranchInst*> rest;
  llvm::DenseSet<llvm::BranchInst*> taken;
  for (llvm::BranchInst* br : divergent) {
    llvm::Loop* loop = loops.getLoopFor(br->getParent());
    if (!loop || !loop->isLoopExiting(br->getParent())) {
      rest.push_back(br);
      continue;
    }
    // A loop that also leaves before its counter would overflow is masked at its header's exit
    // once that exit is folded in (whichever of the two varies).
    llvm::BranchInst* exit = br;
    llvm::BranchInst* folded = fold_overflow_exits ? foldable_overflow_exit(*loop) : nullptr;
    if (folded)
      exit =
          header_exit(*loop, folded->getSuccessor(loop->contains(folded->getSuccessor(0)) ? 1 : 0));
    if (auto why = masked_loop_problem(*loop, *exit, folded, dt, blocks); !why.empty()) return why;
    if (taken.insert(exit).second) loop_exits.push_back(exit);
  }
  divergent = std::move(rest);
  return {};
}

void mask_loops(llvm::Function& f, const std::vector<llvm::BranchInst*>& loop_exits,
                LaneMasks& masks) {
  if (loop_exits.empty()) return;
  llvm::DominatorTree dt(f);
  std::optional<llvm::LoopInfo> loops(std::in_place, dt);
  for (llvm::BranchInst* br : loop_exits) {
    llvm::Loop* loop = loops->getLoopFor(br->getParent());
    if (llvm::BranchInst* test = foldable_overflow_exit(*loop)) {
      add_unmasked_run(*loop, fold_overflow_exit(*loop, test));
      // The run adds blocks and a preheader: the analyses are built again, only after a change.
      // A new LoopInfo rather than releaseMemory() and analyze(): releaseMemory, inlined here,
      // poisons its allocator's slab under ASan, and analyze, compiled into libLLVM, allocates
      // the new loops there without unpoisoning them (use-after-poison in a101033's CI run).
      dt.recalculate(f);
      loops.emplace(dt);
    }
  }
  // The masking rewrite changes no edge: one analysis serves every loop.
  llvm::Function* no_lane = lane_test(*f.getParent(), no_lane_marker);
  for (llvm::BranchInst* br : loop_exits) {
    mask_loop(*loops->getLoopFor(br->getParent()), br, no_lane, masks);
  }
}

}  // namespace spvjit::detail
