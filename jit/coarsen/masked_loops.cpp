// Loops under lane masks: jit/coarsen/masked_loops.hpp.
#include "jit/coarsen/masked_loops.hpp"

#include <llvm/ADT/DenseSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <utility>

namespace spvjit::detail {

namespace {

// Why `loop`, which `exit` leaves on a varying condition, cannot run under lane masks; empty if
// it can. `divergent`: the blocks ending with a branch on a varying condition.
std::string masked_loop_problem(const llvm::Loop& loop, const llvm::BranchInst& exit,
                                const llvm::DominatorTree& dt,
                                const llvm::DenseSet<const llvm::BasicBlock*>& divergent) {
  if (!loop.isInnermost()) return "leaves a loop holding other loops on a varying condition";
  const llvm::BasicBlock* exiting = exit.getParent();
  if (loop.getExitingBlock() != exiting) {
    return "leaves a loop at more than one place, one of them on a varying condition";
  }
  const llvm::BasicBlock* latch = loop.getLoopLatch();
  if (!loop.getLoopPreheader() || !latch || !loop.hasDedicatedExits() ||
      !dt.dominates(exiting, latch)) {
    return "leaves a loop on a varying condition, the loop in a form coarsening does not take "
           "(several entries or latches, or a way around its exit test)";
  }
  for (const llvm::BasicBlock* b : loop.blocks()) {
    if (b != exiting && divergent.contains(b)) {
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
                                   std::vector<llvm::BranchInst*>& loop_exits) {
  if (divergent.empty()) return {};
  llvm::DominatorTree dt(f);
  llvm::LoopInfo loops(dt);
  llvm::DenseSet<const llvm::BasicBlock*> blocks;
  for (llvm::BranchInst* br : divergent) blocks.insert(br->getParent());
  std::vector<llvm::BranchInst*> rest;
  for (llvm::BranchInst* br : divergent) {
    llvm::Loop* loop = loops.getLoopFor(br->getParent());
    if (!loop || !loop->isLoopExiting(br->getParent())) {
      rest.push_back(br);
      continue;
    }
    if (auto why = masked_loop_problem(*loop, *br, dt, blocks); !why.empty()) return why;
    loop_exits.push_back(br);
  }
  divergent = std::move(rest);
  return {};
}

void mask_loops(llvm::Function& f, const std::vector<llvm::BranchInst*>& loop_exits,
                LaneMasks& masks) {
  if (loop_exits.empty()) return;
  // The rewrite changes no edge: one analysis serves every loop.
  llvm::DominatorTree dt(f);
  llvm::LoopInfo loops(dt);
  llvm::Function* no_lane = lane_test(*f.getParent(), no_lane_marker);
  for (llvm::BranchInst* br : loop_exits) {
    mask_loop(*loops.getLoopFor(br->getParent()), br, no_lane, masks);
  }
}

}  // namespace spvjit::detail
