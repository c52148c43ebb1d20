// Shape arguments, as every layer sees them (no LLVM, no OpenCL): the hidden i64 arguments that
// tell a kernel the extents of its array parameters (GlobalArray<T, N>) and the element count
// of a plain pointer parameter whose length() it reads.
//
// They come last, after the user's parameters, the hidden ndrange and the bounds checks'
// hidden arguments, in the order KernelInterface::shape_args lists them (HiddenArgs,
// common/kernel_interface.hpp). Where
// the kernel is bounds-checked, length(p) of a plain pointer reads the bounds checks' own
// extent of p instead, so the count travels once.
#pragma once

#include <cstdint>
#include <span>

#include "spvjit/signature.hpp"

namespace spvjit::detail {

/// One hidden shape argument: extent `dim` of parameter `param`'s shape, or, for `dim` ==
/// count_dim, the elements the launch passed for it.
struct ShapeArg {
  static constexpr std::int32_t count_dim = -1;
  std::uint32_t param = 0;
  std::int32_t dim = count_dim;
};

}  // namespace spvjit::detail
