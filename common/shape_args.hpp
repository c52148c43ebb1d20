// Shape arguments, as every layer sees them (no LLVM, no OpenCL): the hidden i64 arguments that
// tell a kernel the extents of its array parameters (GlobalArray<T, N>) and the element count
// of a plain pointer parameter whose length() it reads.
//
// They come last, after the user's parameters, the hidden ndrange and the bounds checks'
// hidden arguments (common/bounds.hpp), in the order KernelModule::shape_args lists them. Where
// the kernel is bounds-checked, length(p) of a plain pointer reads the bounds checks' own
// extent of p instead, so the count travels once.
#pragma once

#include <cstdint>
#include <span>

#include "common/bounds.hpp"
#include "spvjit/signature.hpp"

namespace spvjit::detail {

/// One hidden shape argument: extent `dim` of parameter `param`'s shape, or, for `dim` ==
/// count_dim, the elements the launch passed for it.
struct ShapeArg {
  static constexpr std::int32_t count_dim = -1;
  std::uint32_t param = 0;
  std::int32_t dim = count_dim;
};

/// The index of the first shape argument.
inline unsigned first_shape_arg(std::span<const Param> params, bool hidden_ndrange,
                                bool bounds_checked) {
  return bounds_checked ? fast_end_arg(params, hidden_ndrange) + 1
                        : first_extent_arg(params, hidden_ndrange);
}

}  // namespace spvjit::detail
