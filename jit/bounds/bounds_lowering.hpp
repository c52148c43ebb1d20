// The last step for bounds checks (ir/bounds.hpp), after coarsening has rewritten the ones it
// vectorized: each check marker becomes unsigned comparisons, each report inline code that
// writes the first failure of a launch into the kernel's record (common/bounds.hpp).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/IRBuilder.h>

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// The metadata kind that tags each lowered check's result (an `i1`, the `and` of its pairs'
/// `icmp ult index, extent`), so that a later pass can still find the checks of a loop
/// (hoist_bounds.hpp, CheckForm::Lowered). The translator to SPIR-V ignores it.
inline constexpr const char* lowered_check_tag = "spvjit.bounds.check";

/// What a lowered check computes: `icmp ult index, extent` for each (index, extent) pair of
/// `pairs`, and-ed (true for none). Untagged.
llvm::Value* all_pairs_inside(llvm::IRBuilder<>& b, llvm::ArrayRef<llvm::Value*> pairs);

/// Lowers every check and report of `m`. A report's global-id operand is the failing
/// work-item's id in dimension `reported_dimension` (1 for a kernel coarsened in dimension 1,
/// jit/coarsen/swap_dimensions.hpp); the record's other ids are the work-item's own.
void lower_bounds_checks(llvm::Module& m, unsigned reported_dimension = 0);

}  // namespace spvjit::detail
