// The bounds check a raw module gets (it cannot be instrumented blindly): the pointer parameters
// that every work-item of a launch reads or writes at exactly get_global_id(0). A launch over an
// ndrange larger than such a buffer would certainly go past its end, so it is refused with a
// BoundsError before anything runs (runtime/launch.cpp). Accesses under a condition, at other
// indices, or through other pointers are not checked.
#pragma once

#include <vector>

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Indices of `kernel`'s pointer parameters accessed as p[get_global_id(0)] (the id itself, or
/// the id narrowed to 32 bits and widened back, as clang emits `int i = get_global_id(0)`) by a
/// load or store that every work-item reaches: its block post-dominates the entry.
std::vector<unsigned> params_indexed_by_every_work_item(llvm::Function& kernel);

}  // namespace spvjit::detail
