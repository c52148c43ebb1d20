// The divergence analysis (ir/analysis/divergence.hpp): values by propagation to a fixed point,
// blocks by control dependence on the branches whose conditions vary.
#include "ir/analysis/divergence.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include "ir/kernel_module.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

std::string dimension_of(const llvm::CallInst& call) {
  if (call.arg_size() == 1) {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0))) {
      return std::to_string(c->getZExtValue());
    }
  }
  return "?";
}

/// What a call of a builtin gives the work-items of a group by itself.
enum class BuiltinKind {
  Other,   ///< not a work-item builtin: the rules for calls decide
  Shared,  ///< a work-item query the whole group answers alike (group index, sizes, ...)
  Varies,  ///< `source` says which
};

BuiltinKind classify(const llvm::CallInst& call, std::string& source) {
  const llvm::Function* f = call.getCalledFunction();
  if (!f || !f->isDeclaration()) return BuiltinKind::Other;
  const auto name = f->getName();
  if (name.contains("get_local_id")) {
    source = "local_index(" + dimension_of(call) + ")";
  } else if (name.contains("get_global_id")) {
    source = "global_index(" + dimension_of(call) + ")";
  } else if (name == marker_in_ndrange) {
    source = "in_ndrange(), false for work-items padded past the ndrange";
  } else if (name.contains("linear_id") || name.contains("sub_group_local_id")) {
    source = name.str();
  } else if (name.contains("atomic") || name.contains("Atomic")) {
    source = "the result of an atomic operation";
  } else {
    return builtin::is_work_item_query(name) || name == builtin::work_dim ? BuiltinKind::Shared
                                                                          : BuiltinKind::Other;
  }
  return BuiltinKind::Varies;
}

}  // namespace

Divergence::Divergence(llvm::Function& f, DivergenceRules rules)
    : rules_(rules), dom_(f), post_dom_(f), loops_(dom_) {
  for (auto* block : llvm::ReversePostOrderTraversal<llvm::Function*>(&f)) {
    order_.push_back(block);
  }
  compute_control_dependence();
  run();
}

void Divergence::run() {
  for (bool changed = true; changed;) {
    changed = false;
    compute_controllers();
    for (auto* block : order_) {
      for (auto& inst : *block) {
        if (!values_.count(&inst)) {
          const Why why = value_reason(inst);
          if (why != none) {
            values_[&inst] = why;
            changed = true;
          }
        }
        if (!rules_.memory_varies) changed = mark_written_variables(inst) || changed;
      }
    }
  }
  compute_controllers();
}

const std::string* Divergence::source(const llvm::Value* v) const {
  const Why why = reason_of(v);
  return why == none ? nullptr : &sources_[static_cast<std::size_t>(why)];
}

const std::string* Divergence::branch_source(const llvm::BasicBlock& block) const {
  const Why why = terminator_reason(block);
  return why == none ? nullptr : &sources_[static_cast<std::size_t>(why)];
}

const llvm::Value* Divergence::branch_condition(const llvm::BasicBlock& block) {
  const auto* term = block.getTerminator();
  if (auto* br = llvm::dyn_cast_or_null<llvm::BranchInst>(term); br && br->isConditional()) {
    return br->getCondition();
  }
  if (auto* sw = llvm::dyn_cast_or_null<llvm::SwitchInst>(term)) return sw->getCondition();
  return nullptr;
}

const Divergence::BlockSet& Divergence::controllers(const llvm::BasicBlock* block) const {
  static const BlockSet none_;
  const auto found = controllers_.find(block);
  return found == controllers_.end() ? none_ : found->second;
}

const Divergence::BlockSet& Divergence::deciders(const llvm::BasicBlock* block) const {
  static const BlockSet none_;
  const auto found = deciders_.find(block);
  return found == deciders_.end() ? none_ : found->second;
}

Divergence::Why Divergence::intern(const std::string& source) const {
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    if (sources_[i] == source) return static_cast<Why>(i);
  }
  sources_.push_back(source);
  return static_cast<Why>(sources_.size() - 1);
}

// For every branching block X, the blocks control dependent on it: those on a path from one of
// X's successors up the post-dominator tree to X's immediate post-dominator.
void Divergence::compute_control_dependence() {
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

// controllers_[B]: the branches divergent now that B is control dependent on, directly or
// through the branches that decide those (divergent or not).
void Divergence::compute_controllers() {
  controllers_.clear();
  divergent_branches_.clear();
  for (const auto* block : order_) {
    if (terminator_reason(*block) != none) divergent_branches_.insert(block);
  }
  for (bool changed = true; changed;) {
    changed = false;
    // In reverse post-order a branch mostly comes before the blocks it decides: one pass settles
    // all but loops.
    for (const auto* block : order_) {
      const auto found = deciders_.find(block);
      if (found == deciders_.end()) continue;
      auto& mine = controllers_[block];
      const std::size_t before = mine.size();
      for (const auto* x : found->second) {
        if (divergent_branches_.contains(x)) mine.insert(x);
        const auto inherited = controllers_.find(x);
        if (inherited != controllers_.end()) {
          mine.insert(inherited->second.begin(), inherited->second.end());
        }
      }
      changed = changed || mine.size() != before;
    }
  }
}

Divergence::Why Divergence::reason_of(const llvm::Value* v) const {
  const auto found = values_.find(v);
  return found == values_.end() ? none : found->second;
}

Divergence::Why Divergence::operands_reason(const llvm::User& user) const {
  for (const llvm::Use& use : user.operands()) {
    const Why why = reason_of(use.get());
    if (why != none) return why;
  }
  return none;
}

Divergence::Why Divergence::terminator_reason(const llvm::BasicBlock& block) const {
  const llvm::Value* condition = branch_condition(block);
  return condition ? reason_of(condition) : none;
}

Divergence::Why Divergence::control_reason(const llvm::BasicBlock* block) const {
  for (const auto* x : controllers(block)) {
    const Why why = terminator_reason(*x);
    if (why != none) return why;
  }
  return none;
}

// The private variables (allocas) a pointer may point into.
std::vector<const llvm::AllocaInst*> Divergence::variables_behind(
    const llvm::Value* pointer) const {
  llvm::SmallVector<const llvm::Value*, 4> objects;
  llvm::getUnderlyingObjects(pointer, objects, nullptr, 0);
  std::vector<const llvm::AllocaInst*> out;
  for (const auto* object : objects) {
    if (auto* slot = llvm::dyn_cast<llvm::AllocaInst>(object)) out.push_back(slot);
  }
  return out;
}

Divergence::Why Divergence::read_reason(const llvm::Value* pointer) const {
  const Why why = reason_of(pointer);
  if (why != none) return why;
  for (const auto* slot : variables_behind(pointer)) {
    const auto found = variables_.find(slot);
    if (found != variables_.end()) return found->second;
  }
  return none;
}

Divergence::Why Divergence::call_reason(const llvm::CallInst& call) const {
  std::string source;
  switch (classify(call, source)) {
    case BuiltinKind::Varies:
      return intern(source);
    case BuiltinKind::Shared:
      return none;
    case BuiltinKind::Other:
      break;
  }
  if (rules_.memory_varies && !call.doesNotAccessMemory()) {
    return intern("a call that reads or writes memory");
  }
  if (auto* callee = call.getCalledFunction(); callee && !callee->isDeclaration()) {
    const Why why = function_reason(*callee);
    if (why != none) return why;
  }
  for (const llvm::Use& arg : call.args()) {
    Why why = reason_of(arg.get());
    if (why == none && !rules_.memory_varies && arg->getType()->isPointerTy()) {
      why = read_reason(arg.get());
    }
    if (why != none) return why;
  }
  return none;
}

// A device function whose body reads a work-item index or an atomic's result (directly or
// through the functions it calls) returns values that differ between work-items.
Divergence::Why Divergence::function_reason(const llvm::Function& f) const {
  const auto found = functions_.find(&f);
  if (found != functions_.end()) return found->second;
  functions_[&f] = none;  // a recursive call adds nothing
  Why why = none;
  for (const auto& block : f) {
    for (const auto& inst : block) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
      if (!call || why != none) continue;
      std::string source;
      if (classify(*call, source) == BuiltinKind::Varies) why = intern(source);
      const llvm::Function* callee = call->getCalledFunction();
      if (why == none && callee && !callee->isDeclaration()) why = function_reason(*callee);
    }
  }
  functions_[&f] = why;
  return why;
}

Divergence::Why Divergence::value_reason(const llvm::Instruction& inst) const {
  if (inst.getType()->isVoidTy()) return none;
  Why why = none;
  if (llvm::isa<llvm::AllocaInst>(inst)) {
    // The builder's variables are the group's names for each work-item's value; the group loops'
    // slots are each work-item's own memory.
    if (rules_.memory_varies) why = intern("a private variable, each work-item's own");
  } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
    why = call_reason(*call);
  } else if (llvm::isa<llvm::AtomicRMWInst>(inst) || llvm::isa<llvm::AtomicCmpXchgInst>(inst)) {
    why = intern("the result of an atomic operation");
  } else if (rules_.memory_varies && inst.mayReadOrWriteMemory()) {
    why = intern("a read of memory other work-items may write");
  } else if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
    why = read_reason(load->getPointerOperand());
  } else if (auto* phi = llvm::dyn_cast<llvm::PHINode>(&inst)) {
    why = phi_reason(*phi);
    // Which iteration or path a phi in such a block holds differs between the work-items that
    // reach it, even when those that are there at once agree.
    if (why == none && rules_.values_anywhere) why = control_reason(inst.getParent());
  } else {
    why = operands_reason(inst);
  }
  if (why != none) return why;
  return rules_.values_anywhere ? met_again_reason(inst) : left_loop_reason(inst);
}

// A phi varies where it joins paths that a divergent branch split: the branch controls (or is)
// one of its incoming blocks but not the phi's own block.
Divergence::Why Divergence::phi_reason(const llvm::PHINode& phi) const {
  const Why why = operands_reason(phi);
  if (why != none) return why;
  const auto& here = controllers(phi.getParent());
  for (const auto* incoming : phi.blocks()) {
    if (!dom_.isReachableFromEntry(incoming)) continue;
    // Only the branches divergent when the controllers were computed: one that turned divergent
    // since is missing from `here` too, and would make the phi vary wrongly (the next round,
    // which that branch's change causes, judges it with both).
    if (!here.count(incoming) && divergent_branches_.contains(incoming)) {
      return terminator_reason(*incoming);
    }
    for (const auto* x : controllers(incoming)) {
      if (!here.count(x)) return terminator_reason(*x);
    }
  }
  return none;
}

// Under values_anywhere: a value computed where only some work-items are (under a divergent
// branch) and read where more of them are again. In SSA form only a loop with a divergent exit
// lets that happen, and each work-item reads the value of the iteration it left in.
Divergence::Why Divergence::met_again_reason(const llvm::Instruction& inst) const {
  const auto& here = controllers(inst.getParent());
  if (here.empty()) return none;
  for (const llvm::Use& use : inst.uses()) {
    const auto* user = llvm::cast<llvm::Instruction>(use.getUser());
    const auto* phi = llvm::dyn_cast<llvm::PHINode>(user);
    const llvm::BasicBlock* at = phi ? phi->getIncomingBlock(use) : user->getParent();
    if (!dom_.isReachableFromEntry(at)) continue;
    const auto& there = controllers(at);
    for (const auto* x : here) {
      if (!there.count(x)) return terminator_reason(*x);
    }
  }
  return none;
}

// A loop some work-items leave in another iteration than others: an exiting branch is divergent,
// or an exiting block (a break_) runs under a divergent branch inside the loop.
Divergence::Why Divergence::divergent_exit(const llvm::Loop& loop) const {
  llvm::SmallVector<llvm::BasicBlock*, 4> exiting;
  loop.getExitingBlocks(exiting);
  for (const auto* block : exiting) {
    const Why why = terminator_reason(*block);
    if (why != none) return why;
    for (const auto* x : controllers(block)) {
      if (loop.contains(x)) return terminator_reason(*x);
    }
  }
  return none;
}

// Without values_anywhere: an instruction that reads a value computed inside a loop with a
// divergent exit, from after it, varies (the value itself is uniform where it is computed).
Divergence::Why Divergence::left_loop_reason(const llvm::Instruction& inst) const {
  for (const llvm::Use& use : inst.operands()) {
    auto* def = llvm::dyn_cast<llvm::Instruction>(use.get());
    if (!def) continue;
    const llvm::BasicBlock* at = inst.getParent();
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(&inst)) at = phi->getIncomingBlock(use);
    for (auto* loop = loops_.getLoopFor(def->getParent()); loop; loop = loop->getParentLoop()) {
      if (loop->contains(at)) break;
      const Why why = divergent_exit(*loop);
      if (why != none) return why;
    }
  }
  return none;
}

// Stores (and calls that may write through a pointer) make a private variable divergent when
// they write a divergent value, at a divergent address, or under divergent control.
bool Divergence::mark_written_variables(const llvm::Instruction& inst) {
  Why why = none;
  std::vector<const llvm::AllocaInst*> written;
  if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
    written = variables_behind(store->getPointerOperand());
    if (written.empty()) return false;
    why = operands_reason(*store);
  } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
    if (call->doesNotAccessMemory() || builtin::names_a_barrier(call->getCalledFunction())) {
      return false;
    }
    for (const llvm::Use& arg : call->args()) {
      if (!arg->getType()->isPointerTy()) continue;
      for (const auto* slot : variables_behind(arg.get())) written.push_back(slot);
    }
    if (written.empty()) return false;
    why = call_reason(*call);
  } else {
    return false;
  }
  // A value stored after the loop it was computed in is what each work-item left the loop with.
  if (why == none) why = left_loop_reason(inst);
  if (why == none) why = control_reason(inst.getParent());
  if (why == none) return false;
  bool changed = false;
  for (const auto* slot : written) changed = variables_.try_emplace(slot, why).second || changed;
  return changed;
}

llvm::DenseSet<const llvm::Value*> uniform_instructions(
    llvm::Function& f, llvm::DenseSet<const llvm::BasicBlock*>* divergent) {
  const Divergence analysis(f, DivergenceRules::group_loops());
  llvm::DenseSet<const llvm::Value*> uniform;
  for (auto& block : f) {
    // What is never run is never shared: the analysis does not look at it.
    if (!analysis.dominators().isReachableFromEntry(&block)) continue;
    if (divergent && analysis.divergent(&block)) divergent->insert(&block);
    for (auto& inst : block) {
      if (analysis.varies(&inst)) continue;
      // An instruction without a value is the group's when it touches no memory and reads only
      // what the group shares (a branch on a uniform condition).
      if (inst.getType()->isVoidTy()) {
        bool shared = !inst.mayReadOrWriteMemory();
        for (const llvm::Use& op : inst.operands()) shared = shared && !analysis.varies(op.get());
        if (!shared) continue;
      }
      uniform.insert(&inst);
    }
  }
  return uniform;
}

}  // namespace spvjit::detail
