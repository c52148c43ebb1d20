// Which values of a kernel every work-item of a group computes alike, on LLVM IR (the builder's
// own check, ir/analysis/uniformity, works on its kernels before they are lowered; group loops
// need the answer after specialization and bounds lowering). Conservative: a load, an atomic, a
// call that touches memory, a private slot, a local or global id, and everything computed from
// them varies; so does a phi where work-items that branched apart meet (or could have, within a
// loop they may leave at different iterations), and a value defined where they may be apart and
// used after they have met.
#pragma once

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/STLFunctionalExtras.h>

namespace llvm {
class BasicBlock;
class CallBase;
class Function;
class Value;
}  // namespace llvm

namespace spvjit::detail {

/// What a call gives the work-items of a group, for the calls only the caller knows (the
/// work-item functions): `Unknown` leaves it to the rule for calls (a call that touches memory
/// varies, one that does not varies with its arguments).
enum class CallKind { Unknown, Uniform, Varying };

/// The instructions of `f` that are the same for every work-item of a group. Where `divergent`
/// is given, it receives the blocks some work-items of a group may run while others do not (those
/// between a varying branch and the block where its ways meet again); every other block is run by
/// the whole group or by none of it.
llvm::DenseSet<const llvm::Value*> uniform_instructions(
    llvm::Function& f, llvm::function_ref<CallKind(const llvm::CallBase&)> kind_of,
    llvm::DenseSet<const llvm::BasicBlock*>* divergent = nullptr);

}  // namespace spvjit::detail
