// Bounds checks out of loops, by loop versioning. A check inside a loop costs a compare and a
// branch per iteration, which doubled the inner loop of a coarsened matmul. When a loop's
// checks index by values the loop does not change, or by an affine function of its counter
// ({start, +, step}), one test before the loop covers every index the loop can reach; the loop
// then runs in two versions: without those checks when the test passes, and as it was (each
// access checked and reported precisely) otherwise.
//
// Only loops that run without synchronizing are versioned: innermost, no barrier inside
// (work-items may take different versions), a single exit at the header (the builder's for_ and
// while_) or at the latch (a work-group's loops over its local ids, jit/workgroup/group_loops),
// a trip count ScalarEvolution computes.
//
// The checks come in two forms. Before coarsening they are the builder's markers, and the test
// is itself a check marker, so that coarsening (jit/coarsen/coarsen.hpp) turns it into one test
// for W lanes. After lower_bounds_checks they are unsigned comparisons, the result of each check
// tagged (bounds_lowering.hpp); the region loops of a work-group exist only then, and there the
// fast version is what lets the device's loop vectorizer widen them: a loop whose failure path
// writes the one record (a store to an address every iteration shares) is never vectorized.
#pragma once

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Where a kernel's checks are in the pipeline.
enum class CheckForm {
  Markers,  ///< the builder's check markers (ir/bounds.hpp), before coarsening
  Lowered,  ///< comparisons tagged by lower_bounds_checks
};

/// Versions the loops of `kernel` whose bounds checks can be tested once before them; returns
/// how many. Markers: run after the canonicalize step and before coarsening, and takes the
/// kernel in its form (ir/canonical_form.hpp: loop counters as SSA values, which ScalarEvolution
/// reads; checked in debug builds). Lowered: after lower_bounds_checks and the work-group's
/// loops, whose values kept across barriers are back in slots: it promotes what it can first.
unsigned hoist_loop_bounds_checks(llvm::Function& kernel, CheckForm form = CheckForm::Markers);

}  // namespace spvjit::detail
