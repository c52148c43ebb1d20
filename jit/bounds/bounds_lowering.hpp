// The last step for bounds checks (ir/bounds.hpp), after coarsening has rewritten the ones it
// vectorized: each check marker becomes unsigned comparisons, each report inline code that
// writes the first failure of a launch into the kernel's record (common/bounds.hpp).
#pragma once

namespace llvm {
class Module;
}

namespace spvjit::detail {

void lower_bounds_checks(llvm::Module& m);

}  // namespace spvjit::detail
