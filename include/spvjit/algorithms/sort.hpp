// Sorts (AcceleratedKernels.jl's sort!, sortperm; std::sort, std::stable_sort): a least
// significant digit radix sort for integer and float keys, and a merge sort for a user
// comparator.
//
//   sort(algs, keys);                       // ascending; floats in IEEE total order
//   sort_by_key(algs, keys, values);        // values follow their keys; stable
//   sortperm(algs, keys, perm);             // perm[i]: int64 index of the i-th smallest key
//   sort(algs, keys, [](auto a, auto b) { return a > b; });  // a comparator: merge sort
//
// Radix sort, 11 bits a pass: a kernel counts each chunk's digits, and a second moves every
// chunk's keys to where the counts of smaller digits and earlier chunks put them (stable), from
// one buffer into the other; passes where every key has the same digit are skipped (one OR/AND
// fold of the keys finds them). Float keys sort in IEEE 754 totalOrder: -NaN (sign bit set, by
// payload, larger payloads first), -inf, negative numbers, -0.0, +0.0, positive numbers, +inf,
// +NaN (smaller payloads first) — bit for bit what std::sort gives with a comparator on that
// order (compare the bits with those of negatives flipped and the sign bit of the others
// flipped, as unsigned integers). The keys of a float sort are copied bitwise into scratch
// memory first and back at the end: kernels have no bit cast, integer kernels work on the bits.
//
// Small inputs in host memory (SharedArray, SharedSpan of at most options().host_threshold
// elements) sort on the calling thread with std::sort / std::stable_sort. Half keys are refused
// at compile time.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "spvjit/algorithms/context.hpp"
#include "spvjit/algorithms/merge_sort.hpp"
#include "spvjit/algorithms/radix_sort.hpp"
#include "spvjit/algorithms/sort_support.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
/// std::sort in IEEE total order. Without NaNs, operator< orders floats as total order does
/// except among zeros, which it leaves in a run: rewrite the run as its -0.0s then its +0.0s.
/// That costs a scan, against a comparator on mapped bits in every comparison (~35% slower
/// at 1024 doubles).
template <class T>
void host_sort(T* first, std::size_t n) {
  T* last = first + n;
  if constexpr (std::is_floating_point_v<T>) {
    if (std::any_of(first, last, [](T v) { return v != v; })) {
      std::sort(first, last, [](T a, T b) { return total_order_bits(a) < total_order_bits(b); });
      return;
    }
    std::sort(first, last);
    auto [zeros, zeros_end] = std::equal_range(first, last, T(0));
    const auto negative = std::count_if(zeros, zeros_end, [](T v) { return std::signbit(v); });
    std::fill(zeros, zeros + negative, -T(0));
    std::fill(zeros + negative, zeros_end, T(0));
  } else {
    std::sort(first, last);
  }
}
}  // namespace detail

/// Sorts `keys` ascending, in place (std::sort; floats in IEEE total order, see above). The
/// memory's elements are rewritten, so a const Buffer& or a temporary view works too.
template <AlgorithmMemory S>
void sort(Algorithms& algs, const S& keys) {
  using T = typename S::value_type;
  static_assert(sizeof(detail::RadixKey<T>) > 0);  // names unsupported key types up front
  const std::size_t n = keys.size();
  if (n <= 1) return;
  detail::check_sort_memory("sort", algs, keys);
  if constexpr (HostAddressable<S>) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();  // kernels queued before may still write the keys
      detail::host_sort(keys.data(), n);
      return;
    }
  }
  auto lock = algs.lock();
  detail::radix_sort<S, void>(algs, keys, 0);
}

/// Sorts `keys` ascending and moves `values[i]` along with `keys[i]` (values of any kernel
/// scalar type; at least keys.size() of them; equal keys keep their order).
template <AlgorithmMemory S, AlgorithmMemory VS>
void sort_by_key(Algorithms& algs, const S& keys, const VS& values) {
  using T = typename S::value_type;
  using V = typename VS::value_type;
  static_assert(KernelScalar<V>, "sort_by_key: values must be a kernel scalar type");
  const std::size_t n = keys.size();
  detail::check_output_size("sort_by_key", "values", values.size(), n);
  if (n <= 1) return;
  detail::check_sort_memory("sort_by_key", algs, keys);
  detail::check_sort_memory("sort_by_key", algs, values);
  if constexpr (HostAddressable<S> && HostAddressable<VS>) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();
      std::vector<std::int64_t> perm(n);
      detail::host_sortperm(keys.data(), perm.data(), n);
      std::vector<T> k(keys.data(), keys.data() + n);
      std::vector<V> v(values.data(), values.data() + n);
      for (std::size_t i = 0; i < n; ++i) {
        keys.data()[i] = k[static_cast<std::size_t>(perm[i])];
        values.data()[i] = v[static_cast<std::size_t>(perm[i])];
      }
      return;
    }
  }
  auto lock = algs.lock();
  detail::radix_sort<S, V>(algs, keys, values);
}

/// perm[i] = the index of the i-th smallest key (int64, stable: equal keys by index), keys
/// untouched (AcceleratedKernels' sortperm). `perm` holds at least keys.size() elements.
template <AlgorithmMemory S, AlgorithmMemory P>
void sortperm(Algorithms& algs, const S& keys, const P& perm) {
  using T = typename S::value_type;
  using K = typename detail::RadixKey<T>::K;
  static_assert(std::is_same_v<typename P::value_type, std::int64_t>,
                "sortperm: perm must hold int64_t indices");
  const std::size_t n = keys.size();
  detail::check_output_size("sortperm", "perm", perm.size(), n);
  if (n == 0) return;
  detail::check_sort_memory("sortperm", algs, keys);
  detail::check_sort_memory("sortperm", algs, perm);
  if constexpr (HostAddressable<S> && HostAddressable<P>) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();
      detail::host_sortperm(keys.data(), perm.data(), n);
      return;
    }
  }
  auto lock = algs.lock();
  const ChunkPlan plan = algs.chunks(n);
  algs.kernel<detail::build_iota>().launch(NDRange{plan.count}, WorkGroup{1}, perm,
                                           static_cast<std::int64_t>(n),
                                           static_cast<std::int64_t>(plan.size));
  auto& keys_a = algs.scratch<K>(detail::sort_keys_a, n);
  if constexpr (detail::RadixKey<T>::map == detail::RadixMap::Float) {
    detail::copy_bits(algs, keys, keys_a, n, false);
  } else {
    detail::copy_elements(algs, keys, keys_a, n);
  }
  if (detail::radix_passes<T, std::int64_t>(algs, keys_a, perm, n)) {
    detail::copy_elements(algs, algs.scratch<std::int64_t>(detail::sort_values_b, n), perm, n);
  }
}

}  // namespace spvjit

SPVJIT_API_END
