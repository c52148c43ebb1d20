// The last step for bounds checks (ir/bounds.hpp), after coarsening has rewritten the ones it
// vectorized: each check marker becomes unsigned comparisons, each report a call to a function
// that writes the first failure of a launch into the kernel's record (src/bounds.hpp).
#pragma once

namespace llvm {
class Module;
}

namespace spvjit::detail {

void lower_bounds_checks(llvm::Module& m);

/// The report functions' names start so (followed by the pair count).
inline constexpr const char* bounds_report_function = "__spvjit_report_";

}  // namespace spvjit::detail
