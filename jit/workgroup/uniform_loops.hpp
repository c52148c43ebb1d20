// Loops the whole group runs alike, cut like barriers (issue #52, step 3): in a kernel with
// barriers, an innermost loop without one, reached by every work-item of the group and left by
// all of them at the same iteration, gets a barrier at the top of each iteration and one where it
// is left. The group-loop rewrite then runs each iteration as a region, a loop over the
// work-items: the loop over work-items becomes the innermost, over contiguous local memory and
// per-work-item values (the tile loop of a tiled matmul, `acc += As(ty, k) * Bs(k, tx)`, walks
// `tx` with unit stride instead of `k` with the tile's), and its counter is kept once per group.
//
// The barriers change nothing a work-item computes: every work-item reaches each of them, as a
// barrier in uniform control flow must, and each iteration's work needs no other work-item's.
#pragma once

#include <vector>

namespace llvm {
class CallInst;
class Function;
}  // namespace llvm

namespace spvjit::detail {

/// Cuts the qualifying loops of `kernel` (one group_loops_refusal accepts) with barriers of no
/// fence; returns the barriers it added (two a loop), for undo_cuts.
std::vector<llvm::CallInst*> cut_uniform_loops(llvm::Function& kernel);

/// Takes the barriers `cuts` back out, where the rewrite is refused after all: the kernel the
/// device gets has no barrier it did not have (the blocks they were split into stay).
void undo_cuts(const std::vector<llvm::CallInst*>& cuts);

}  // namespace spvjit::detail
