// Which calls make work-items wait for each other, and whether a block, a loop or a function
// holds one: one vocabulary for the passes that must not let work-items take different paths
// around such a call (loop versioning, leaving a function early) or that rewrite around
// barriers (the group loops, the barrier-tail check). Three rules, narrowest first:
// - Waiting::GroupBarrier: exactly barrier() or work_group_barrier() (builtin::is_group_barrier),
//   the rule of passes that rewrite around barriers;
// - Waiting::NamedBarrier: any declared builtin whose name says barrier, sub-group barriers and
//   SPIR-V's OpControlBarrier as the translator spells it included (builtin::names_a_barrier),
//   the rule of analyses for which one too many only costs a little precision;
// - Waiting::Synchronizing: a barrier, a work-group or sub-group collective, anything marked
//   convergent, and any call whose callee cannot be seen (an indirect call, inline assembly).
#pragma once

namespace llvm {
class BasicBlock;
class CallInst;
class Function;
class Instruction;
class Loop;
class Module;
}  // namespace llvm

namespace spvjit::detail {

enum class Waiting { GroupBarrier, NamedBarrier, Synchronizing };

/// True when `call` may synchronize the work-items of a group (Waiting::Synchronizing).
bool synchronizing_call(const llvm::CallInst& call);

/// True when `inst` is a call that `what` counts.
bool waits(const llvm::Instruction& inst, Waiting what);

/// True when `block` (a block of `loop`, of `f`) makes a call that `what` counts. A call of a
/// defined function counts by its name alone, not by what its body calls.
bool contains(const llvm::BasicBlock& block, Waiting what);
bool contains(const llvm::Loop& loop, Waiting what);
bool contains(const llvm::Function& f, Waiting what);

/// True when a function of `m` calls a declared (or unseen) function that may synchronize.
bool synchronizes_anywhere(const llvm::Module& m);

}  // namespace spvjit::detail
