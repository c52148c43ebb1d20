// The vector body of a coarsened kernel: varying instructions (jit/coarsen_analysis.hpp) are
// replaced, in place, by W-wide vector instructions; uniform ones stay scalar.
#pragma once

#include <llvm/Transforms/Utils/ValueMapper.h>

#include "jit/coarsen_analysis.hpp"

namespace spvjit::detail {

/// `body` is a clone of the analysed kernel (`map`: kernel value -> clone value) whose last
/// argument is the coarsened work-item index g; lanes are W*g .. W*g+W-1, all in bounds.
void vectorize_body(llvm::Function& body, const CoarsenPlan& plan,
                    llvm::ValueToValueMapTy& map, unsigned width);

}  // namespace spvjit::detail
