// Divergence analysis over a finished kernel, on a copy whose scalar variables mem2reg turned
// into SSA values (private arrays stay in memory).
//
// A value is divergent when it may differ between the work-items of one group: it is (or is
// computed from) a local or global index, in_ndrange() or an atomic's result; a load through a
// divergent address or from a private array that was written a divergent value, at a divergent
// index or under divergent control; a phi that joins paths a divergent branch split; or a value
// that leaves a loop some work-items leave earlier than others. Everything else (group indices
// and sizes, the ndrange, parameters, loads from uniform addresses, loop counters with uniform
// bounds) is uniform. A block is under divergent control when it is control dependent
// (post-dominator tree), directly or through other branches, on a branch with a divergent
// condition; a barrier in such a block is what hangs a group.
//
// Divergence only grows (a divergent value makes branches divergent, which makes phis at their
// joins and arrays written under them divergent, which makes their loads divergent), so the
// analysis repeats until nothing changes.
#include "ir/analysis/uniformity.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/raw_ostream.h>

#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "common/error_report.hpp"
#include "ir/kernel_module.hpp"
#include "spvjit/error.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

using BlockSet = std::set<const llvm::BasicBlock*>;

/// Why a value differs between work-items: an index into the analysis's list of sources
/// ("local_index(0)", ...), or none.
struct Why {
  int source = -1;
  explicit operator bool() const { return source >= 0; }
};

// Builtins only: a device function's name says nothing (and cannot hold a barrier).
using builtin::names_a_barrier;

std::string dimension_of(const llvm::CallInst& call) {
  if (call.arg_size() == 1) {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0))) {
      return std::to_string(c->getZExtValue());
    }
  }
  return "?";
}

/// What makes a call's result differ between work-items by itself, in the builder's words.
std::optional<std::string> varying_builtin(const llvm::CallInst& call) {
  const llvm::Function* f = call.getCalledFunction();
  if (!f || !f->isDeclaration()) return std::nullopt;
  const auto name = f->getName();
  if (name.contains("get_local_id")) return "local_index(" + dimension_of(call) + ")";
  if (name.contains("get_global_id")) return "global_index(" + dimension_of(call) + ")";
  if (name == marker_in_ndrange)
    return "in_ndrange(), false for work-items padded past the ndrange";
  if (name.contains("linear_id") || name.contains("sub_group_local_id")) return name.str();
  if (name.contains("atomic") || name.contains("Atomic")) {
    return "the result of an atomic operation";
  }
  return std::nullopt;
}

std::string describe(const llvm::Value& v) {
  std::string out;
  llvm::raw_string_ostream os(out);
  v.print(os);
  os.flush();
  while (!out.empty() && out.front() == ' ') out.erase(out.begin());
  return out;
}

class Divergence {
 public:
  Divergence(llvm::Function& fn, std::function<std::string(const llvm::Value&)> show)
      : show_(std::move(show)), dom_(fn), post_dom_(fn), loops_(dom_) {
    for (auto* block : llvm::ReversePostOrderTraversal<llvm::Function*>(&fn)) {
      order_.push_back(block);
    }
    compute_control_dependence();
  }

  void run() {
    bool changed = true;
    while (changed) {
      changed = false;
      compute_controllers();
      for (auto* block : order_) {
        for (auto& inst : *block) {
          if (!values_.count(&inst)) {
            if (auto why = value_reason(inst)) {
              values_[&inst] = why;
              changed = true;
            }
          }
          changed = mark_written_variables(inst) || changed;
        }
      }
    }
    compute_controllers();
  }

  /// The first reachable barrier under divergent control, with the branch that decides it.
  void check(const std::string& kernel_name) const {
    for (auto* block : order_) {
      for (auto& inst : *block) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
        if (!call || !names_a_barrier(call->getCalledFunction())) continue;
        const auto found = controllers_.find(block);
        if (found == controllers_.end() || found->second.empty()) continue;
        user_error({"finish", kernel_name}) << message(*block, decisive(*block, found->second));
      }
    }
  }

 private:
  Why intern(const std::string& source) const {
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      if (sources_[i] == source) return Why{static_cast<int>(i)};
    }
    sources_.push_back(source);
    return Why{static_cast<int>(sources_.size() - 1)};
  }

  // For every branching block X, the blocks control dependent on it: those on a path from one
  // of X's successors up the post-dominator tree to X's immediate post-dominator.
  void compute_control_dependence() {
    for (auto* x : order_) {
      const auto* term = x->getTerminator();
      if (!term || term->getNumSuccessors() < 2) continue;
      auto* x_node = post_dom_.getNode(x);
      if (!x_node) continue;
      auto* stop = x_node->getIDom();
      for (auto* successor : llvm::successors(x)) {
        for (auto* node = post_dom_.getNode(successor); node && node != stop;
             node = node->getIDom()) {
          if (node->getBlock()) deciders_[node->getBlock()].insert(x);
        }
      }
    }
  }

  Why terminator_reason(const llvm::BasicBlock& block) const {
    const auto* term = block.getTerminator();
    const llvm::Value* cond = nullptr;
    if (auto* br = llvm::dyn_cast<llvm::BranchInst>(term); br && br->isConditional()) {
      cond = br->getCondition();
    } else if (auto* sw = llvm::dyn_cast<llvm::SwitchInst>(term)) {
      cond = sw->getCondition();
    }
    if (!cond) return Why{};
    return reason_of(cond);
  }

  // controllers_[B]: the divergent branches B is control dependent on, directly or through
  // branches that are themselves under divergent control.
  void compute_controllers() {
    controllers_.clear();
    bool changed = true;
    while (changed) {
      changed = false;
      // In reverse post-order a branch mostly comes before the blocks it decides: one pass
      // settles all but loops.
      for (const auto* block : order_) {
        const auto found = deciders_.find(block);
        if (found == deciders_.end()) continue;
        const BlockSet& deciders = found->second;
        auto& mine = controllers_[block];
        const std::size_t before = mine.size();
        for (const auto* x : deciders) {
          if (terminator_reason(*x)) mine.insert(x);
          const auto inherited = controllers_.find(x);
          if (inherited != controllers_.end()) {
            mine.insert(inherited->second.begin(), inherited->second.end());
          }
        }
        changed = changed || mine.size() != before;
      }
    }
  }

  const BlockSet& controllers(const llvm::BasicBlock* block) const {
    static const BlockSet none;
    const auto found = controllers_.find(block);
    return found == controllers_.end() ? none : found->second;
  }

  Why control_reason(const llvm::BasicBlock* block) const {
    for (const auto* x : controllers(block)) {
      if (auto why = terminator_reason(*x)) return why;
    }
    return Why{};
  }

  Why reason_of(const llvm::Value* v) const {
    const auto found = values_.find(v);
    if (found == values_.end()) return Why{};
    return found->second;
  }

  Why operands_reason(const llvm::User& user) const {
    for (const llvm::Use& use : user.operands()) {
      if (auto why = reason_of(use.get())) return why;
    }
    return Why{};
  }

  // The private variables (allocas) a pointer may point into.
  std::vector<const llvm::AllocaInst*> variables_behind(const llvm::Value* pointer) const {
    llvm::SmallVector<const llvm::Value*, 4> objects;
    llvm::getUnderlyingObjects(pointer, objects, nullptr, 0);
    std::vector<const llvm::AllocaInst*> out;
    for (const auto* object : objects) {
      if (auto* slot = llvm::dyn_cast<llvm::AllocaInst>(object)) out.push_back(slot);
    }
    return out;
  }

  Why read_reason(const llvm::Value* pointer) const {
    if (auto why = reason_of(pointer)) return why;
    for (const auto* slot : variables_behind(pointer)) {
      const auto found = variables_.find(slot);
      if (found != variables_.end()) return found->second;
    }
    return Why{};
  }

  Why call_reason(const llvm::CallInst& call) const {
    if (auto source = varying_builtin(call)) return intern(*source);
    if (auto* callee = call.getCalledFunction(); callee && !callee->isDeclaration()) {
      if (auto why = function_reason(*callee)) return why;
    }
    for (const llvm::Use& arg : call.args()) {
      if (auto why = reason_of(arg.get())) return why;
      if (arg->getType()->isPointerTy()) {
        if (auto why = read_reason(arg.get())) return why;
      }
    }
    return Why{};
  }

  // A device function whose body reads a work-item index or an atomic's result (directly or
  // through the functions it calls) returns values that differ between work-items.
  Why function_reason(const llvm::Function& f) const {
    const auto found = functions_.find(&f);
    if (found != functions_.end()) return found->second;
    functions_[&f] = Why{};  // a recursive call adds nothing
    Why why;
    for (const auto& block : f) {
      for (const auto& inst : block) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
        if (!call || why) continue;
        if (auto source = varying_builtin(*call)) why = intern(*source);
        if (!why && call->getCalledFunction() && !call->getCalledFunction()->isDeclaration()) {
          why = function_reason(*call->getCalledFunction());
        }
      }
    }
    functions_[&f] = why;
    return why;
  }

  // A loop some work-items leave in another iteration than others: an exiting branch is
  // divergent, or an exiting block (a break_) runs under a divergent branch inside the loop.
  Why divergent_exit(const llvm::Loop& loop) const {
    llvm::SmallVector<llvm::BasicBlock*, 4> exiting;
    loop.getExitingBlocks(exiting);
    for (const auto* block : exiting) {
      if (auto why = terminator_reason(*block)) return why;
      for (const auto* x : controllers(block)) {
        if (loop.contains(x)) return terminator_reason(*x);
      }
    }
    return Why{};
  }

  Why value_reason(const llvm::Instruction& inst) const {
    if (inst.getType()->isVoidTy()) return Why{};
    if (llvm::isa<llvm::AllocaInst>(inst)) return Why{};
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
      if (auto why = read_reason(load->getPointerOperand())) return why;
    } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
      if (auto why = call_reason(*call)) return why;
    } else if (llvm::isa<llvm::AtomicRMWInst>(inst) || llvm::isa<llvm::AtomicCmpXchgInst>(inst)) {
      return intern("the result of an atomic operation");
    } else if (auto* phi = llvm::dyn_cast<llvm::PHINode>(&inst)) {
      if (auto why = phi_reason(*phi)) return why;
    } else if (auto why = operands_reason(inst)) {
      return why;
    }
    return left_loop_reason(inst);
  }

  // A phi is divergent where it joins paths that a divergent branch split: the branch controls
  // (or is) one of its incoming blocks but not the phi's own block.
  Why phi_reason(const llvm::PHINode& phi) const {
    if (auto why = operands_reason(phi)) return why;
    const auto& here = controllers(phi.getParent());
    for (const auto* incoming : phi.blocks()) {
      if (!dom_.isReachableFromEntry(incoming)) continue;
      if (!here.count(incoming)) {
        if (auto why = terminator_reason(*incoming)) return why;
      }
      for (const auto* x : controllers(incoming)) {
        if (!here.count(x)) return terminator_reason(*x);
      }
    }
    return Why{};
  }

  // A value computed inside a loop with a divergent exit and read after it: each work-item
  // reads the value of the iteration it left in.
  Why left_loop_reason(const llvm::Instruction& inst) const {
    for (const llvm::Use& use : inst.operands()) {
      auto* def = llvm::dyn_cast<llvm::Instruction>(use.get());
      if (!def) continue;
      const llvm::BasicBlock* at = inst.getParent();
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(&inst)) at = phi->getIncomingBlock(use);
      for (auto* loop = loops_.getLoopFor(def->getParent()); loop; loop = loop->getParentLoop()) {
        if (loop->contains(at)) break;
        if (auto why = divergent_exit(*loop)) return why;
      }
    }
    return Why{};
  }

  // Stores (and calls that may write through a pointer) make a private variable divergent when
  // they write a divergent value, at a divergent address, or under divergent control.
  bool mark_written_variables(const llvm::Instruction& inst) {
    Why why;
    std::vector<const llvm::AllocaInst*> written;
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
      written = variables_behind(store->getPointerOperand());
      if (written.empty()) return false;
      why = operands_reason(*store);
    } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
      if (call->doesNotAccessMemory() || names_a_barrier(call->getCalledFunction())) return false;
      for (const llvm::Use& arg : call->args()) {
        if (!arg->getType()->isPointerTy()) continue;
        for (const auto* slot : variables_behind(arg.get())) written.push_back(slot);
      }
      if (written.empty()) return false;
      why = call_reason(*call);
    } else {
      return false;
    }
    if (!why) why = control_reason(inst.getParent());
    if (!why) return false;
    bool changed = false;
    for (const auto* slot : written) changed = variables_.try_emplace(slot, why).second || changed;
    return changed;
  }

  // The divergent branch to name for a barrier: the one deciding it most directly.
  const llvm::BasicBlock* decisive(const llvm::BasicBlock& barrier, const BlockSet& all) const {
    const auto direct = deciders_.find(&barrier);
    if (direct != deciders_.end()) {
      for (const auto* x : direct->second) {
        if (all.count(x)) return x;
      }
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
    const llvm::BasicBlock* side = nullptr;
    for (const auto* successor : llvm::successors(&branch)) {
      if (dom_.dominates(successor, &barrier)) side = successor;
    }
    for (const auto& [block, deciders] : controllers_) {
      if (!deciders.count(&branch)) continue;
      const char* exit = early_exit(*block);
      if (!exit) continue;
      if (!side || !dom_.dominates(side, block)) return exit;
    }
    return nullptr;
  }

  std::string message(const llvm::BasicBlock& barrier, const llvm::BasicBlock* branch) const {
    const Why source = terminator_reason(*branch);
    const std::string why =
        source ? sources_[static_cast<std::size_t>(source.source)] : "a work-item index";
    const llvm::Value* cond = nullptr;
    const auto* term = branch->getTerminator();
    if (auto* br = llvm::dyn_cast<llvm::BranchInst>(term)) cond = br->getCondition();
    if (auto* sw = llvm::dyn_cast<llvm::SwitchInst>(term)) cond = sw->getCondition();
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

  std::function<std::string(const llvm::Value&)> show_;
  llvm::DominatorTree dom_;
  llvm::PostDominatorTree post_dom_;
  llvm::LoopInfo loops_;
  std::vector<llvm::BasicBlock*> order_;
  std::map<const llvm::BasicBlock*, BlockSet> deciders_;
  std::map<const llvm::BasicBlock*, BlockSet> controllers_;
  llvm::DenseMap<const llvm::Value*, Why> values_;
  llvm::DenseMap<const llvm::AllocaInst*, Why> variables_;
  mutable llvm::DenseMap<const llvm::Function*, Why> functions_;
  mutable std::vector<std::string> sources_;
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
  Divergence analysis(promoted.function(),
                      [&](const llvm::Value& v) { return describe(promoted.original(v)); });
  analysis.run();
  analysis.check(kernel_name);
}

}  // namespace spvjit::detail
