// Which calls may make work-items wait for each other: a barrier, a work-group or sub-group
// collective, anything marked convergent, and any call whose callee cannot be seen (an
// indirect call, inline assembly). Passes that let work-items take different paths around such
// a call (loop versioning, leaving a function early) must not.
#pragma once

namespace llvm {
class CallInst;
class Module;
}  // namespace llvm

namespace spvjit::detail {

/// True when `call` may synchronize the work-items of a group (see above).
bool synchronizing_call(const llvm::CallInst& call);

/// True when a function of `m` makes a synchronizing_call.
bool synchronizes_anywhere(const llvm::Module& m);

}  // namespace spvjit::detail
