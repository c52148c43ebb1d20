// Which values of a kernel may differ between the work-items of one group, and which blocks only
// some of them run: the one divergence analysis, for both of its users. The builder's barrier
// check (ir/analysis/barriers_uniform.hpp) asks it of a kernel before lowering, to refuse a barrier
// some work-items skip; the group loops (jit/workgroup/) ask it after lowering, to keep a value
// once per group and to iterate a loop outside the loop over work-items.
//
// A value varies when it is (or is computed from) a local or global index, in_ndrange(), a
// linear or sub-group id, or an atomic's result; a phi that joins paths a divergent branch split;
// or a value read after a loop some work-items leave earlier than others (each reads the value of
// the iteration it left in). A branch is divergent when its condition varies; a block is
// divergent when it is control dependent (post-dominator tree), directly or through other
// branches, on a divergent branch. What memory gives, and whether a value must be the same
// wherever it is read, are the caller's (DivergenceRules). Divergence only grows, so the analysis
// repeats until nothing changes. Each round reads the blocks' controllers as they stood at its
// start, and the rules that ask whether a branch is not among a block's controllers ask it only
// of the branches that were divergent then, so no rule fires on half-updated facts and the answer
// does not depend on the order the blocks are visited in.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Dominators.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class AllocaInst;
class BasicBlock;
class CallInst;
class Function;
class Instruction;
class PHINode;
class User;
class Value;
}  // namespace llvm

namespace spvjit::detail {

/// What the caller asks: the builder's barrier check and the group loops differ in two things.
struct DivergenceRules {
  /// false, for the builder's kernels (each private variable promoted to SSA values where it can
  /// be, the rest tracked): a load is as uniform as its address and, for a private variable,
  /// what was stored in it; a call that reads memory, as its arguments and what it reads.
  /// true, for code that the group loops move between work-items: each private slot is a
  /// work-item's own, and a load, a store, an atomic or a call that touches memory varies (another
  /// work-item may have written the memory in between).
  bool memory_varies = false;
  /// false: a value is uniform when the work-items that compute it agree on it where they compute
  /// it (a loop counter inside a loop some work-items leave early), which is what decides whether
  /// a barrier is reached alike; a value read after such a loop makes its reader vary.
  /// true: only when it is the same for every work-item wherever it is read, which is what the
  /// group loops need to keep it once per group or read it after a barrier: every phi in a block
  /// only some work-items run varies, and so does every value defined there and read where more
  /// of them are.
  bool values_anywhere = false;

  /// The builder's question, before lowering (ir/analysis/barriers_uniform.hpp).
  static DivergenceRules barrier_check() { return {false, false}; }
  /// The group loops' question, on lowered IR (jit/workgroup/).
  static DivergenceRules group_loops() { return {true, true}; }
};

class Divergence {
 public:
  using BlockSet = std::set<const llvm::BasicBlock*>;

  /// Runs the analysis on `f`, which must stay unchanged while this object is asked.
  Divergence(llvm::Function& f, DivergenceRules rules);

  /// Whether `v` may differ between the work-items of a group.
  bool varies(const llvm::Value* v) const { return values_.count(v) != 0; }
  /// Why `v` varies, in the builder's words ("local_index(0)"), or null when it does not.
  const std::string* source(const llvm::Value* v) const;
  /// Why the condition of `block`'s branch or switch varies, or null when it does not (or the
  /// block does not branch on a condition).
  const std::string* branch_source(const llvm::BasicBlock& block) const;
  /// The condition of `block`'s conditional branch or switch, or null.
  static const llvm::Value* branch_condition(const llvm::BasicBlock& block);

  /// The divergent branches that decide whether `block` runs, directly or through the branches
  /// that decide those (divergent or not): empty when the whole group runs it or none of it does.
  const BlockSet& controllers(const llvm::BasicBlock* block) const;
  bool divergent(const llvm::BasicBlock* block) const { return !controllers(block).empty(); }
  /// The branches `block` is directly control dependent on, divergent or not.
  const BlockSet& deciders(const llvm::BasicBlock* block) const;
  /// Every block some branch decides, with its controllers (maybe none), for callers that look
  /// for what a branch decides.
  const std::map<const llvm::BasicBlock*, BlockSet>& all_controllers() const {
    return controllers_;
  }

  const llvm::DominatorTree& dominators() const { return dom_; }
  /// The reachable blocks in reverse post-order.
  const std::vector<llvm::BasicBlock*>& blocks() const { return order_; }

 private:
  using Why = int;  // an index into sources_; none: -1
  static constexpr Why none = -1;

  void run();
  Why intern(const std::string& source) const;
  void compute_control_dependence();
  void compute_controllers();
  Why reason_of(const llvm::Value* v) const;
  Why operands_reason(const llvm::User& user) const;
  Why terminator_reason(const llvm::BasicBlock& block) const;
  Why control_reason(const llvm::BasicBlock* block) const;
  std::vector<const llvm::AllocaInst*> variables_behind(const llvm::Value* pointer) const;
  Why read_reason(const llvm::Value* pointer) const;
  Why call_reason(const llvm::CallInst& call) const;
  Why function_reason(const llvm::Function& f) const;
  Why value_reason(const llvm::Instruction& inst) const;
  Why phi_reason(const llvm::PHINode& phi) const;
  Why met_again_reason(const llvm::Instruction& inst) const;
  Why divergent_exit(const llvm::Loop& loop) const;
  Why left_loop_reason(const llvm::Instruction& inst) const;
  bool mark_written_variables(const llvm::Instruction& inst);

  DivergenceRules rules_;
  llvm::DominatorTree dom_;
  llvm::PostDominatorTree post_dom_;
  llvm::LoopInfo loops_;
  std::vector<llvm::BasicBlock*> order_;
  std::map<const llvm::BasicBlock*, BlockSet> deciders_;
  std::map<const llvm::BasicBlock*, BlockSet> controllers_;
  /// The blocks whose branch was divergent when controllers_ was computed.
  llvm::DenseSet<const llvm::BasicBlock*> divergent_branches_;
  llvm::DenseMap<const llvm::Value*, Why> values_;
  llvm::DenseMap<const llvm::AllocaInst*, Why> variables_;
  mutable llvm::DenseMap<const llvm::Function*, Why> functions_;
  mutable std::vector<std::string> sources_;
};

/// The reachable instructions of `f` that are the same for every work-item of a group wherever
/// they are read, under DivergenceRules::group_loops(), as a set: an instruction the caller adds
/// later is not in it. Where `divergent` is given, it receives the blocks only some work-items of
/// a group may run.
llvm::DenseSet<const llvm::Value*> uniform_instructions(
    llvm::Function& f, llvm::DenseSet<const llvm::BasicBlock*>* divergent = nullptr);

}  // namespace spvjit::detail
