// Bounds checks out of loops, by loop versioning. A check inside a loop costs a compare and a
// branch per iteration, which doubled the inner loop of a coarsened matmul. When a loop's
// checks index by values the loop does not change, or by an affine function of its counter
// ({start, +, step}), one test before the loop covers every index the loop can reach; the loop
// then runs in two versions: without those checks when the test passes, and as it was (each
// access checked and reported precisely) otherwise.
//
// Only loops PoCL runs per work-item without synchronizing are versioned: innermost, no barrier
// inside (work-items may take different versions), a single exit at the header (the builder's
// for_ and while_), a trip count ScalarEvolution computes. The test is itself a check marker, so
// that coarsening (jit/coarsen/coarsen.hpp) turns it into one test for W lanes.
#pragma once

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Versions the loops of `kernel` whose bounds checks can be tested once before them; returns
/// how many. Run after specialize() and before coarsening.
unsigned hoist_loop_bounds_checks(llvm::Function& kernel);

}  // namespace spvjit::detail
