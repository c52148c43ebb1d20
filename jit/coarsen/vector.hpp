// The vector body of a coarsened kernel: varying instructions (jit/coarsen/analysis.hpp) are
// replaced, in place, by W-wide vector instructions; uniform ones stay scalar. In parts, on the
// values known so far (lane_values.hpp): the instruction rewriting (vector.cpp), the lane-mask
// algebra (mask_algebra.hpp), memory under masks (masked_memory.hpp) and bounds checks
// (vector_checks.hpp), each with its FileCheck test (test/passes/coarsen_*.ll).
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "jit/bounds/proven_bounds.hpp"
#include "jit/coarsen/analysis.hpp"
#include "jit/coarsen/masks.hpp"

namespace spvjit::detail {

/// The kernel arguments [first, end) that a launch's `fast_end` is the least of (with the
/// ndrange): the hidden extents of the pointer parameters (common/bounds.hpp).
struct FastEndArgs {
  unsigned first = 0;
  unsigned end = 0;
};

/// What a fast body may leave out: checks of get_global_id(0) itself against `covered` (which
/// the launch's fast_end already bounds) or against any other argument, checks of another
/// dimension's global id against an argument, and an array parameter's offset check whose view
/// pairs (`shaped`) are all left out (jit/bounds/proven_bounds.hpp, linear_pair_follows).
/// Without `work_item_checks`, only the first kind.
struct FastChecks {
  FastEndArgs covered;
  std::span<const ShapedParam> shaped;
  bool work_item_checks = false;
};

/// The tests the dispatcher makes once per work-item before it runs the fast body, beyond
/// `end <= fast_end` (end: one past the work-item's last coarsened index): `end <= argument`
/// for each of `index_below`, and `get_global_id(d) < argument` for each (d, argument) of
/// `id_below` (d >= 1). Argument numbers are the kernel's.
struct FastEntry {
  bool leaves_checks_out = false;  ///< some check of the body would be left out
  std::vector<unsigned> index_below;
  std::vector<std::pair<unsigned, unsigned>> id_below;
};

/// `body` is a clone of the kernel, if-converted (`masks`, jit/coarsen/masks.hpp) and analysed
/// (`plan`), whose last argument is the coarsened work-item index g; lanes are W*g .. W*g+W-1,
/// all in bounds.
/// Returns what a fast body could leave out (`fast`) and what the dispatcher must then test.
/// With `index_fits`, those checks are left out: the caller runs this body only where the
/// returned tests pass. Checks against any other extent (a local array's, a computed one) stay.
/// `param_extents[a]` is the argument holding the elements pointer argument `a` reaches
/// (its bounds checks' hidden extent; HiddenArgs::none where it has none): a load under a
/// partial mask whose check was proven away (jit/bounds/proven_bounds.hpp) still loads the
/// whole vector when all W lanes lie inside that.
FastEntry vectorize_body(llvm::Function& body, const CoarsenPlan& plan, const LaneMasks& masks,
                         unsigned width, VectorMath math, const FastChecks& fast = {},
                         bool index_fits = false, std::span<const unsigned> param_extents = {});

}  // namespace spvjit::detail
