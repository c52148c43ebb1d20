// The index space in KernelAbstractions' vocabulary: global, local and group indices, each as a
// Cartesian N-tuple (`@index(Global, Cartesian)`) or linear (`@index(Global, Linear)`), plus the
// number of groups. Dimension 0 varies fastest in every linear index, as in OpenCL and KA.
//
//   auto [col, row] = global_indices<2>(kb);   // col = dimension 0
//   Val<int64_t> i = global_linear(kb);        // col + ndrange(0) * row
#pragma once

#include <array>
#include <cstdint>

#include "spvjit/builder.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// The number of work-groups in dimension `dim`: ceil(ndrange / group size).
Val<std::int64_t> num_groups(KernelBuilder& kb, unsigned dim = 0);

/// Linear indices; dimension 0 fastest. The global one is over the user's ndrange, so it is
/// dense even when the last group is padded (check `kb.in_ndrange()` first).
Val<std::int64_t> global_linear(KernelBuilder& kb);
Val<std::int64_t> local_linear(KernelBuilder& kb);
Val<std::int64_t> group_linear(KernelBuilder& kb);

namespace detail {
template <unsigned N>
std::array<Val<std::int64_t>, N> indices(KernelBuilder& kb,
                                         Val<std::int64_t> (KernelBuilder::*index)(unsigned)) {
  static_assert(N >= 1 && N <= 3, "global/local/group_indices<N>: N must be 1, 2 or 3");
  std::array<Val<std::int64_t>, N> out;
  for (unsigned d = 0; d < N; ++d) out[d] = (kb.*index)(d);
  return out;
}
}  // namespace detail

/// The first N dimensions of the index, dimension 0 first (N = 1, 2 or 3).
template <unsigned N>
std::array<Val<std::int64_t>, N> global_indices(KernelBuilder& kb) {
  return detail::indices<N>(kb, &KernelBuilder::global_index);
}
template <unsigned N>
std::array<Val<std::int64_t>, N> local_indices(KernelBuilder& kb) {
  return detail::indices<N>(kb, &KernelBuilder::local_index);
}
template <unsigned N>
std::array<Val<std::int64_t>, N> group_indices(KernelBuilder& kb) {
  return detail::indices<N>(kb, &KernelBuilder::group_index);
}

}  // namespace spvjit

SPVJIT_API_END
