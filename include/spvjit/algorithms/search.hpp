// Binary search of many needles in one sorted array (AcceleratedKernels.jl's searchsortedfirst
// and searchsortedlast, as 0-based indices; std::lower_bound and std::upper_bound).
//
//   searchsorted(algs, sorted, needles, out, SearchSide::First);  // out[i]: lower_bound index
//
// Each work-item searches a chunk of the needles. The probes are std::lower_bound's (halving
// the remaining length, comparing with <), so the answers are std::'s even where `sorted` is not
// sorted by < (NaNs among floats).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "spvjit/algorithms/chunked.hpp"
#include "spvjit/algorithms/context.hpp"
#include "spvjit/builder.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// Which end of a run of equal elements the search reports.
enum class SearchSide : std::uint8_t {
  /// The first index whose element is not less than the needle (std::lower_bound,
  /// Julia's searchsortedfirst minus 1).
  First,
  /// The first index whose element is greater than the needle (std::upper_bound,
  /// Julia's searchsortedlast).
  Last,
};

namespace detail {

/// Work-item g: out[i] for needles i of chunk g, by std::lower_bound's (upper_bound's) probes.
template <class T, SearchSide side>
KernelDef build_searchsorted() {
  using C = arithmetic_t<T>;
  KernelBuilder kb("spvjit_searchsorted");
  auto sorted = kb.param<Const<T>>("sorted");
  auto needles = kb.param<Const<T>>("needles");
  auto out = kb.param<Global<std::int64_t>>("out");
  auto n = kb.param<std::int64_t>("n");
  auto m = kb.param<std::int64_t>("m");
  auto chunk = kb.param<std::int64_t>("chunk");
  for_own_chunk(kb, m, chunk,
                [&](Val<std::int64_t>, Val<std::int64_t> begin, Val<std::int64_t> end) {
                  kb.for_(begin, end, [&](Val<std::int64_t> i) {
                    Val<C> needle = needles[i];
                    auto first = kb.var(std::int64_t{0});
                    auto len = kb.var(n);
                    kb.while_([&] { return len > std::int64_t{0}; },
                              [&] {
                                Val<std::int64_t> half_len = len.get() >> std::int64_t{1};
                                Val<std::int64_t> mid = first.get() + half_len;
                                Val<C> probe = sorted[mid];
                                Val<bool> right;
                                if constexpr (side == SearchSide::First) {
                                  right = probe < needle;
                                } else {
                                  right = !(needle < probe);
                                }
                                kb.if_else(
                                    right,
                                    [&] {
                                      first = mid + std::int64_t{1};
                                      len = len.get() - half_len - std::int64_t{1};
                                    },
                                    [&] { len = half_len; });
                              });
                    out[i] = first.get();
                  });
                });
  return kb.finish();
}

}  // namespace detail

/// out[i] = the index in `sorted` (ascending by <) where needles[i] would go: before the
/// elements equal to it (SearchSide::First) or after them (SearchSide::Last). `out` holds at
/// least needles.size() int64 elements.
template <AlgorithmMemory S, AlgorithmMemory N, AlgorithmMemory O>
void searchsorted(Algorithms& algs, const S& sorted, const N& needles, const O& out,
                  SearchSide side = SearchSide::First) {
  using T = typename S::value_type;
  static_assert(std::is_same_v<T, typename N::value_type>,
                "searchsorted: the needles must have the sorted array's element type");
  static_assert(KernelScalar<T> && !std::is_same_v<T, bool>,
                "searchsorted: elements must be a numeric kernel scalar type");
  static_assert(std::is_same_v<typename O::value_type, std::int64_t>,
                "searchsorted: out must hold int64_t indices");
  const std::size_t m = needles.size();
  detail::check_output_size("searchsorted", "out", out.size(), m);
  if (m == 0) return;
  detail::check_runtime("searchsorted", algs, detail::owner_of(needles));
  detail::check_runtime("searchsorted", algs, detail::owner_of(out));
  if (sorted.size() != 0) detail::check_runtime("searchsorted", algs, detail::owner_of(sorted));
  if constexpr (HostAddressable<S> && HostAddressable<N> && HostAddressable<O> &&
                std::is_arithmetic_v<T>) {
    if (m <= algs.options().host_threshold) {
      algs.runtime().synchronize();  // kernels queued before may still write the inputs
      const T* first = sorted.data();
      const T* last = first + sorted.size();
      for (std::size_t i = 0; i < m; ++i) {
        const T* at = side == SearchSide::First ? std::lower_bound(first, last, needles.data()[i])
                                                : std::upper_bound(first, last, needles.data()[i]);
        out.data()[i] = at - first;
      }
      return;
    }
  }
  auto lock = algs.lock();
  const ChunkPlan plan = algs.chunks(m);
  const KernelDef& def =
      side == SearchSide::First
          ? detail::built_once<detail::build_searchsorted<T, SearchSide::First>>()
          : detail::built_once<detail::build_searchsorted<T, SearchSide::Last>>();
  // An empty `sorted` passes no memory to a kernel: search the needles in the needles, zero long.
  const auto n = static_cast<std::int64_t>(sorted.size());
  if (n == 0) {
    algs.kernel(def).launch(NDRange{plan.count}, WorkGroup{1}, needles, needles, out, n,
                            static_cast<std::int64_t>(m), static_cast<std::int64_t>(plan.size));
  } else {
    algs.kernel(def).launch(NDRange{plan.count}, WorkGroup{1}, sorted, needles, out, n,
                            static_cast<std::int64_t>(m), static_cast<std::int64_t>(plan.size));
  }
}

}  // namespace spvjit

SPVJIT_API_END
