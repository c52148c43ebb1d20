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

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Cuts the qualifying loops of `kernel` (one group_loops_refusal accepts) with barriers of no
/// fence; returns how many.
unsigned cut_uniform_loops(llvm::Function& kernel);

}  // namespace spvjit::detail
