// Which calls may make work-items wait for each other: a barrier, a work-group or sub-group
// collective, anything marked convergent, and any call whose callee cannot be seen (an
// indirect call, inline assembly). Passes that let work-items take different paths around such
// a call (loop versioning, leaving a function early) must not.
#pragma once

namespace llvm {
class CallInst;
class Loop;
class Module;
}  // namespace llvm

namespace spvjit::detail {

/// True when `call` may synchronize the work-items of a group (see above).
bool synchronizing_call(const llvm::CallInst& call);

/// True when a block of `loop` makes a synchronizing_call (passes that version or unroll a loop
/// leave such a loop as it is).
bool synchronizes(const llvm::Loop& loop);

/// True when a function of `m` makes a synchronizing_call.
bool synchronizes_anywhere(const llvm::Module& m);

}  // namespace spvjit::detail
