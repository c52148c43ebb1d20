// The grid-stride move (issue #66, step 1): a loop each work-item starts at its own id and steps
// by a value the whole group shares, the way CUDA and OpenCL authors write reductions and maps,
//
//   for (i = get_global_id(0) + X; i < n; i += s) body(i)    // or get_local_id(0) + X
//
// becomes a loop the whole group runs alike, so that the group loops cut it (uniform_loops.hpp)
// and run its rounds outside the loop over work-items, which then walks memory with unit stride:
//
//   for (u = U; u < n; u += s)             // U = i - get_local_id(0), the same for the group
//     if (get_local_id(0) < n - u) body(u + get_local_id(0))
//
// Each work-item runs the same iterations of `body`, in the same order, as before: with s > 0,
// work-item w is in round u exactly when u + w < n, and once out it stays out; work-item 0 has the
// smallest counter, so `u < n` says whether any work-item is in. Values the loop carries from one
// round to the next (accumulators) live in a private slot per work-item, written only where the
// work-item's body ran, so every side effect of a round sits under `lid0 < n - u` and the round's
// loop over work-items stops at n - u (region_loops.hpp).
//
// The move needs, for the counter never to wrap and the original's tests to say what `u < n`
// says: s > 0, U >= 0, n <= MAX - s (the moved counter stays below MAX), n <= B for each test
// `i > B` that leaves the loop before `i + s` would overflow (the builder's `for_` adds one), and
// n >= 0 for an unsigned `i < n`. They are known only at run time, so the loop is versioned: the
// group takes the moved loop where they hold and the original where they do not, a branch on
// values the whole group shares.
//
// U is `get_group_id(0) * G0 + X` for a counter from the global id: the group-loop rewrite's
// global id is exactly its group's first id plus the local id (group_codegen.cpp). So the move
// is made only inside the rewrite's plan, and taken back out (undo_grid_stride_moves) when the
// plan is refused.
#pragma once

#include <string>
#include <vector>

#include "spvjit/kernel.hpp"

namespace llvm {
class AllocaInst;
class BranchInst;
class Function;
}  // namespace llvm

namespace spvjit::detail {

/// What the move did to one kernel.
struct GridStrideMoves {
  /// Each moved loop's version branch (taken to the moved loop where its conditions hold).
  std::vector<llvm::BranchInst*> versions;
  /// The private slots of the values the moved loops carry from round to round.
  std::vector<llvm::AllocaInst*> slots;
  /// Loops whose counter starts at a work-item's id but were left as they were, each with why,
  /// for the log: "loop 'loop.header': <why>".
  std::vector<std::string> refusals;
};

/// Moves the grid-stride loops of `kernel` (one group_loops_refusal accepts, to be rewritten
/// for `group`): innermost loops without a barrier, reached by the whole group, whose counter
/// starts at get_global_id(0) or get_local_id(0) plus a shared value, steps by a shared value,
/// and leaves on `i < n` (n shared) or before `i + s` would overflow.
GridStrideMoves move_grid_stride_loops(llvm::Function& kernel, const WorkGroup& group);

/// Takes the moves back out where the rewrite is refused after all: each version branch goes to
/// the original loop, and the moved loops, no longer reached, are deleted.
void undo_grid_stride_moves(llvm::Function& kernel, const GridStrideMoves& moves);

}  // namespace spvjit::detail
