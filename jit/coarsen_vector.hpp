// The vector body of a coarsened kernel: varying instructions (jit/coarsen_analysis.hpp) are
// replaced, in place, by W-wide vector instructions; uniform ones stay scalar.
#pragma once

#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstdint>
#include <vector>

#include "jit/coarsen_analysis.hpp"

namespace spvjit::detail {

/// A bounds-check extent that indices equal to get_global_id(0) are checked against: the
/// kernel's argument `argument`, or `constant` (argument < 0).
struct IndexExtent {
  int argument = -1;
  std::uint64_t constant = 0;
};

/// `body` is a clone of the analysed kernel (`map`: kernel value -> clone value) whose last
/// argument is the coarsened work-item index g; lanes are W*g .. W*g+W-1, all in bounds.
/// Returns the extents of the bounds checks whose index is get_global_id(0) itself. With
/// `index_fits`, those checks are left out: the caller runs this body only when each of those
/// extents holds the ndrange (every lane of a full vector is below it).
std::vector<IndexExtent> vectorize_body(llvm::Function& body, const CoarsenPlan& plan,
                                        llvm::ValueToValueMapTy& map, unsigned width,
                                        bool index_fits = false);

}  // namespace spvjit::detail
