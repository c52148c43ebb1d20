// The vector body of a coarsened kernel: varying instructions (jit/coarsen/analysis.hpp) are
// replaced, in place, by W-wide vector instructions; uniform ones stay scalar.
#pragma once

#include <span>

#include "jit/coarsen/analysis.hpp"
#include "jit/coarsen/masks.hpp"

namespace spvjit::detail {

/// The kernel arguments [first, end) that a launch's `fast_end` is the least of (with the
/// ndrange): the hidden extents of the pointer parameters (common/bounds.hpp).
struct FastEndArgs {
  unsigned first = 0;
  unsigned end = 0;
};

/// `body` is a clone of the kernel, if-converted (`masks`, jit/coarsen/masks.hpp) and analysed
/// (`plan`), whose last argument is the coarsened work-item index g; lanes are W*g .. W*g+W-1,
/// all in bounds.
/// Returns whether the body checks get_global_id(0) itself against one of `covered`. With
/// `index_fits`, those checks are left out: the caller runs this body only for full vectors
/// below fast_end, where they pass. Checks against any other extent (a view's, a local array's)
/// stay. `param_extents[a]` is the argument holding the elements pointer argument `a` reaches
/// (its bounds checks' hidden extent; HiddenArgs::none where it has none): a load under a
/// partial mask whose check was proven away (jit/bounds/proven_bounds.hpp) still loads the
/// whole vector when all W lanes lie inside that.
bool vectorize_body(llvm::Function& body, const CoarsenPlan& plan, const LaneMasks& masks,
                    unsigned width, VectorMath math, FastEndArgs covered = {},
                    bool index_fits = false, std::span<const unsigned> param_extents = {});

}  // namespace spvjit::detail
