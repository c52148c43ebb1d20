// The index space in KernelAbstractions' vocabulary: global, local and group indices, each as a
// Cartesian N-tuple (`@index(Global, Cartesian)`) or linear (`@index(Global, Linear)`), plus the
// number of groups. Dimension 0 varies fastest in every linear index, as in OpenCL and KA.
//
//   auto [col, row] = global_indices<2>(kb);   // col = dimension 0
//   Val<int64_t> i = global_linear(kb);        // col + ndrange(0) * row
//
// A Cartesian index is also a value of its own, as in KA (WaterLily's stencils):
//
//   CartesianIndex<2> I = global_indices<2>(kb);                // I = @index(Global, Cartesian)
//   z(I) = x(I - delta<2>(0)) + x(I + delta<2>(0)) + x(I + delta<2>(1));   // δ(1, I), δ(2, I)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "spvjit/builder.hpp"
#include "spvjit/error.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// KernelAbstractions' CartesianIndex: N indices (N = 1, 2 or 3), dimension 0 first. Arrays take
/// it whole (`A(I)`), constant offsets step it (`I + delta<2>(0)`), and it unpacks like a tuple
/// (`auto [i, j] = I;`).
template <unsigned N>
class CartesianIndex {
  static_assert(N >= 1 && N <= 3, "CartesianIndex<N>: N must be 1, 2 or 3");

 public:
  CartesianIndex() = default;
  CartesianIndex(const std::array<Val<std::int64_t>, N>& indices) : indices_(indices) {}
  /// CartesianIndex<2>(i, j): one index per dimension.
  template <class... I>
  requires(sizeof...(I) == N && (std::is_convertible_v<const I&, Val<std::int64_t>> &&
                                 ...)) explicit CartesianIndex(const I&... indices)
      : indices_{Val<std::int64_t>(indices)...} {}

  static constexpr unsigned size() { return N; }
  /// Index `d` (0-based); a UserError past N, when the kernel is built.
  const Val<std::int64_t>& operator[](std::size_t d) const { return indices_[checked(d)]; }
  Val<std::int64_t>& operator[](std::size_t d) { return indices_[checked(d)]; }
  auto begin() const { return indices_.begin(); }
  auto end() const { return indices_.end(); }
  auto begin() { return indices_.begin(); }
  auto end() { return indices_.end(); }
  const std::array<Val<std::int64_t>, N>& indices() const { return indices_; }
  operator const std::array<Val<std::int64_t>, N>&() const { return indices_; }
  template <std::size_t D>
  const Val<std::int64_t>& get() const {
    static_assert(D < N, "CartesianIndex: no such dimension");
    return indices_[D];
  }
  template <std::size_t D>
  Val<std::int64_t>& get() {
    static_assert(D < N, "CartesianIndex: no such dimension");
    return indices_[D];
  }

  /// Steps by a constant offset per dimension (KA's `I + CartesianIndex(1, 0)`).
  friend CartesianIndex operator+(const CartesianIndex& I, const std::array<std::int64_t, N>& by) {
    return I.map([&](const Val<std::int64_t>& i, std::size_t d) { return by[d] ? i + by[d] : i; });
  }
  friend CartesianIndex operator-(const CartesianIndex& I, const std::array<std::int64_t, N>& by) {
    return I.map([&](const Val<std::int64_t>& i, std::size_t d) { return by[d] ? i - by[d] : i; });
  }
  /// Element-wise sum and difference (`I + I0`: an index plus a run-time origin).
  friend CartesianIndex operator+(const CartesianIndex& I, const CartesianIndex& J) {
    return I.map([&](const Val<std::int64_t>& i, std::size_t d) { return i + J[d]; });
  }
  friend CartesianIndex operator-(const CartesianIndex& I, const CartesianIndex& J) {
    return I.map([&](const Val<std::int64_t>& i, std::size_t d) { return i - J[d]; });
  }

 private:
  static std::size_t checked(std::size_t d) {
    if (d >= N) {
      detail::throw_user_error(
          "CartesianIndex<" + std::to_string(N) + ">",
          "dimension " + std::to_string(d) + "; expected 0 to " + std::to_string(N - 1));
    }
    return d;
  }

  template <class F>
  CartesianIndex map(F f) const {
    std::array<Val<std::int64_t>, N> out;
    for (std::size_t d = 0; d < N; ++d) out[d] = f(indices_[d], d);
    return CartesianIndex(out);
  }

  std::array<Val<std::int64_t>, N> indices_;
};

template <class... I>
requires((std::is_convertible_v<const I&, Val<std::int64_t>> && ...)) CartesianIndex(const I&...)
->CartesianIndex<sizeof...(I)>;

/// The unit step along dimension `d` (0-based) in N dimensions, times `step`: WaterLily's
/// δ(d + 1, I), as in `x(I - delta<2>(0))`.
template <unsigned N>
constexpr std::array<std::int64_t, N> delta(unsigned d, std::int64_t step = 1) {
  if (d >= N) {
    detail::throw_user_error("delta<" + std::to_string(N) + ">(" + std::to_string(d) + ")",
                             "no such dimension; expected 0 to " + std::to_string(N - 1));
  }
  std::array<std::int64_t, N> out{};
  out[d] = step;
  return out;
}

namespace detail {
template <class I>
inline constexpr bool is_cartesian_index = false;
template <unsigned N>
inline constexpr bool is_cartesian_index<CartesianIndex<N>> = true;
}  // namespace detail

/// The number of work-groups in dimension `dim`: ceil(ndrange / group size).
Val<std::int64_t> num_groups(KernelBuilder& kb, unsigned dim = 0);

/// Linear indices; dimension 0 fastest. The global one is over the user's ndrange, so it is
/// dense even when the last group is padded (check `kb.in_ndrange()` first).
Val<std::int64_t> global_linear(KernelBuilder& kb);
Val<std::int64_t> local_linear(KernelBuilder& kb);
Val<std::int64_t> group_linear(KernelBuilder& kb);

namespace detail {
template <unsigned N>
CartesianIndex<N> indices(KernelBuilder& kb, Val<std::int64_t> (KernelBuilder::*index)(unsigned)) {
  static_assert(N >= 1 && N <= 3, "global/local/group_indices<N>: N must be 1, 2 or 3");
  std::array<Val<std::int64_t>, N> out;
  for (unsigned d = 0; d < N; ++d) out[d] = (kb.*index)(d);
  return CartesianIndex<N>(out);
}
}  // namespace detail

/// The first N dimensions of the index, dimension 0 first (N = 1, 2 or 3).
template <unsigned N>
CartesianIndex<N> global_indices(KernelBuilder& kb) {
  return detail::indices<N>(kb, &KernelBuilder::global_index);
}
template <unsigned N>
CartesianIndex<N> local_indices(KernelBuilder& kb) {
  return detail::indices<N>(kb, &KernelBuilder::local_index);
}
template <unsigned N>
CartesianIndex<N> group_indices(KernelBuilder& kb) {
  return detail::indices<N>(kb, &KernelBuilder::group_index);
}

}  // namespace spvjit

// `auto [i, j] = I;`
template <unsigned N>
struct std::tuple_size<spvjit::CartesianIndex<N>> : std::integral_constant<std::size_t, N> {};
template <std::size_t D, unsigned N>
struct std::tuple_element<D, spvjit::CartesianIndex<N>> {
  using type = spvjit::Val<std::int64_t>;
};

SPVJIT_API_END
