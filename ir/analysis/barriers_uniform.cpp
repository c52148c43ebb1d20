// The builder's barrier check over a finished kernel: the divergence analysis
// (ir/analysis/divergence.hpp) on a copy whose scalar variables mem2reg turned into SSA values
// (private arrays stay in memory), then the first barrier in a block only some work-items of a
// group run, named with the branch that decides it.
#include "ir/analysis/barriers_uniform.hpp"

#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <functional>
#include <vector>

#include "common/error_report.hpp"
#include "ir/analysis/divergence.hpp"
#include "ir/work_item_builtins.hpp"
#include "spvjit/error.hpp"

namespace spvjit::detail {

namespace {

using builtin::names_a_barrier;
using BlockSet = Divergence::BlockSet;

std::string describe(const llvm::Value& v) {
  std::string out;
  llvm::raw_string_ostream os(out);
  v.print(os);
  os.flush();
  while (!out.empty() && out.front() == ' ') out.erase(out.begin());
  return out;
}

// The first reachable barrier under divergent control, in the builder's words: the branch that
// decides it and what its condition depends on.
class BarrierCheck {
 public:
  BarrierCheck(const Divergence& analysis, std::function<std::string(const llvm::Value&)> show)
      : analysis_(analysis), show_(std::move(show)) {}

  void check(const std::string& kernel_name) const {
    for (auto* block : analysis_.blocks()) {
      for (auto& inst : *block) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
        if (!call || !names_a_barrier(call->getCalledFunction())) continue;
        const BlockSet& controllers = analysis_.controllers(block);
        if (controllers.empty()) continue;
        user_error({"finish", kernel_name}) << message(*block, decisive(*block, controllers));
      }
    }
  }

 private:
  // The divergent branch to name for a barrier: the one deciding it most directly.
  const llvm::BasicBlock* decisive(const llvm::BasicBlock& barrier, const BlockSet& all) const {
    for (const auto* x : analysis_.deciders(&barrier)) {
      if (all.count(x)) return x;
    }
    return *all.begin();
  }

  // The return_/break_/continue_ a block ends with, if any (a loop's own latch and exit
  // branches aside, which the builder names loop.latch / loop.exit).
  static const char* early_exit(const llvm::BasicBlock& block) {
    const auto* term = block.getTerminator();
    if (llvm::isa<llvm::ReturnInst>(term)) return "return_()";
    auto* br = llvm::dyn_cast<llvm::BranchInst>(term);
    if (!br || br->isConditional()) return nullptr;
    const auto target = br->getSuccessor(0)->getName();
    if (target.startswith("loop.exit")) return "break_()";
    if (target.startswith("loop.latch")) return "continue_()";
    return nullptr;
  }

  // When the barrier does not lie on the side of the branch that holds an early exit under
  // it, the exit is what lets work-items skip the barrier.
  const char* skipping_exit(const llvm::BasicBlock& barrier, const llvm::BasicBlock& branch) const {
    const auto& dom = analysis_.dominators();
    const llvm::BasicBlock* side = nullptr;
    for (const auto* successor : llvm::successors(&branch)) {
      if (dom.dominates(successor, &barrier)) side = successor;
    }
    for (const auto& [block, deciders] : analysis_.all_controllers()) {
      if (!deciders.count(&branch)) continue;
      const char* exit = early_exit(*block);
      if (!exit) continue;
      if (!side || !dom.dominates(side, block)) return exit;
    }
    return nullptr;
  }

  std::string message(const llvm::BasicBlock& barrier, const llvm::BasicBlock* branch) const {
    const std::string* source = analysis_.branch_source(*branch);
    const std::string why = source ? *source : "a work-item index";
    const llvm::Value* cond = Divergence::branch_condition(*branch);
    const std::string shown = cond ? "`" + show_(*cond) + "`" : "?";
    std::string what;
    if (const char* exit = skipping_exit(barrier, *branch)) {
      what = "barrier after a " + std::string(exit) +
             " that only some work-items of a group take: its condition differs between "
             "them (it depends on " +
             why + "): " + shown;
    } else {
      what =
          "barrier under a condition that differs between work-items of a group (it "
          "depends on " +
          why + "): " + shown;
    }
    return what +
           "; every work-item of a group must reach each barrier (KA: @synchronize), so "
           "compute the condition from group_index(), group_size(), parameters or values "
           "every work-item shares, or move the barrier out of the if_/loop";
  }

  const Divergence& analysis_;
  std::function<std::string(const llvm::Value&)> show_;
};

bool has_barrier(const llvm::Function& fn) {
  for (const auto& block : fn) {
    for (const auto& inst : block) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
      if (call && names_a_barrier(call->getCalledFunction())) return true;
    }
  }
  return false;
}

// The analysis runs on a copy of the kernel with its variables promoted to SSA values, so that
// a var is divergent only where a divergent assignment reaches (`x = lid; ...; x = tile(0)`
// leaves x uniform), through the phis mem2reg places at joins.
class PromotedCopy {
 public:
  explicit PromotedCopy(llvm::Function& kernel) {
    copy_ = llvm::CloneFunction(&kernel, map_);
    for (const auto& [original, copied] : map_) {
      if (auto* inst = llvm::dyn_cast<llvm::Instruction>(copied)) {
        originals_[inst] = llvm::cast<llvm::Instruction>(original);
      }
    }
    std::vector<llvm::AllocaInst*> slots;
    for (auto& inst : copy_->getEntryBlock()) {
      if (auto* slot = llvm::dyn_cast<llvm::AllocaInst>(&inst)) slots.push_back(slot);
    }
    std::vector<llvm::AllocaInst*> promotable;
    for (auto* slot : slots) {
      // The builder reaches a variable through `getelementptr %var, 0`, which mem2reg declines.
      std::vector<llvm::GetElementPtrInst*> zero_offsets;
      for (auto* user : slot->users()) {
        auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
        if (gep && gep->hasAllZeroIndices() && gep->getType() == slot->getType()) {
          zero_offsets.push_back(gep);
        }
      }
      for (auto* gep : zero_offsets) {
        gep->replaceAllUsesWith(slot);
        gep->eraseFromParent();
      }
      if (llvm::isAllocaPromotable(slot)) promotable.push_back(slot);
    }
    if (!promotable.empty()) {
      llvm::DominatorTree tree(*copy_);
      llvm::PromoteMemToReg(promotable, tree);
    }
  }
  ~PromotedCopy() {
    copy_->dropAllReferences();
    copy_->eraseFromParent();
  }
  PromotedCopy(const PromotedCopy&) = delete;
  PromotedCopy& operator=(const PromotedCopy&) = delete;

  llvm::Function& function() { return *copy_; }
  /// The kernel's own instruction for one of the copy's, so that messages match to_string().
  const llvm::Value& original(const llvm::Value& v) const {
    auto* inst = llvm::dyn_cast<llvm::Instruction>(&v);
    const auto found = inst ? originals_.find(inst) : originals_.end();
    // mem2reg erased loads and stores and made phis, maybe at an erased one's address: those
    // have no original (a phi never does).
    if (found == originals_.end() || found->second->getOpcode() != inst->getOpcode() ||
        found->second->getType() != inst->getType()) {
      return v;
    }
    return *found->second;
  }

 private:
  llvm::ValueToValueMapTy map_;
  llvm::DenseMap<const llvm::Instruction*, const llvm::Instruction*> originals_;
  llvm::Function* copy_ = nullptr;
};

}  // namespace

void check_barriers_uniform(llvm::Function& kernel, const std::string& kernel_name) {
  if (!has_barrier(kernel)) return;
  PromotedCopy promoted(kernel);
  const Divergence analysis(promoted.function(), DivergenceRules::barrier_check());
  BarrierCheck(analysis, [&](const llvm::Value& v) {
    return describe(promoted.original(v));
  }).check(kernel_name);
}

}  // namespace spvjit::detail
