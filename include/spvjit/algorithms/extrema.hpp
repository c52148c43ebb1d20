// The smallest or largest element with its index (std::min_element / std::max_element, Julia's
// findmin / findmax): chunks find theirs, one work-item picks among the chunks in order.
//
//   auto [index, value] = min_element(algs, x);
//
// The answer is std::min_element's with operator< (std::max_element's), NaNs included: the first
// of the smallest (largest) elements; a NaN is never smaller or larger than anything, so it is
// the answer only where it comes first (x[0]), as in the sequential loop.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "spvjit/algorithms/reduce.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// An element and where it is; index = the input's size for an empty input.
template <class T>
struct Extremum {
  std::size_t index = 0;
  T value{};
};

namespace detail {

/// Whether `v` replaces the best so far (`found`: whether there is one): v < best for the
/// minimum (best < v for the maximum); the first non-NaN element when there is none yet.
template <bool Largest, class R>
Val<bool> replaces(Val<R> v, Val<R> best, Val<bool> found) {
  if constexpr (Largest) {
    return select(found, best < v, v == v);
  } else {
    return select(found, v < best, v == v);
  }
}

/// Work-item g: index and value of its chunk's extremum among non-NaN elements (index -1 when
/// the chunk holds only NaNs).
template <class T, bool Largest>
KernelDef build_extremum_chunks() {
  using R = compute_t<T>;
  KernelBuilder kb(Largest ? "spvjit_max_element_chunks" : "spvjit_min_element_chunks");
  auto x = kb.param<Const<T>>("x");
  auto where = kb.param<Global<std::int64_t>>("where");
  auto best = kb.param<Global<R>>("best");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  for_own_chunk(
      kb, n, chunk, [&](Val<std::int64_t> g, Val<std::int64_t> begin, Val<std::int64_t> end) {
        auto at = kb.var(std::int64_t{-1});
        auto value = kb.var(Val<R>(x[begin]));
        auto next = kb.var(begin);
        // Each lane of two vector accumulators keeps the extremum of its own indices (-1: none yet,
        // only NaNs seen), two so that their compare-select chains overlap; the lanes are then
        // merged with the tie rule (the smaller index wins), and the tail runs scalar.
        constexpr unsigned lanes = accumulator_lanes<R>;
        constexpr std::int64_t step = 2 * lanes;
        kb.if_(end - begin >= step, [&] {
          std::array<std::int64_t, lanes> offsets{};
          for (unsigned l = 0; l < lanes; ++l) offsets[l] = l;
          const auto iota = vec_literal<std::int64_t, lanes>(kb, offsets);
          const auto none = Vec<std::int64_t, lanes>::splat(kb.lit(std::int64_t{-1}));
          auto first = [&](unsigned a) { return vload<lanes>(x, begin + std::int64_t{a * lanes}); };
          auto first_where = [&](unsigned a) {
            return vec_var(
                kb, select(first(a) == first(a), iota + (begin + std::int64_t{a * lanes}), none));
          };
          const std::array<VecVar<R, lanes>, 2> best = {vec_var(kb, first(0)),
                                                        vec_var(kb, first(1))};
          const std::array<VecVar<std::int64_t, lanes>, 2> where = {first_where(0), first_where(1)};
          auto vector_end = begin + (end - begin) / step * step;
          kb.for_(begin + step, vector_end, step, [&](Val<std::int64_t> j) {
            for (unsigned a = 0; a < 2; ++a) {
              auto at_j = j + std::int64_t{a * lanes};
              auto v = vload<lanes>(x, at_j);
              auto better = Largest ? best[a].get() < v : v < best[a].get();
              auto take = better | ((where[a].get() < std::int64_t{0}) & (v == v));
              best[a] = select(take, v, best[a].get());
              where[a] = select(take, iota + at_j, where[a].get());
            }
          });
          for (unsigned a = 0; a < 2; ++a) {
            for (unsigned l = 0; l < lanes; ++l) {
              auto v = best[a].get()[l];
              auto w = where[a].get()[l];
              auto better = Largest ? value.get() < v : v < value.get();
              auto take = w >= 0 && (at < 0 || better || (v == value.get() && w < at));
              at = select(take, w, at.get());
              value = select(take, v, value.get());
            }
          }
          next = vector_end;
        });
        kb.for_(next.get(), end, [&](Val<std::int64_t> j) {
          auto v = Val<R>(x[j]);
          auto take = replaces<Largest>(v, value.get(), at >= 0);
          at = select(take, j, at.get());
          value = select(take, v, value.get());
        });
        where[g] = at.get();
        best[g] = value.get();
      });
  return kb.finish();
}

/// One work-item: the chunks' answers in order, then x[0]'s NaN rule; result: index, value.
template <class T, bool Largest>
KernelDef build_extremum_pick() {
  using R = compute_t<T>;
  KernelBuilder kb(Largest ? "spvjit_max_element_pick" : "spvjit_min_element_pick");
  auto x = kb.param<Const<T>>("x");
  auto where = kb.param<Const<std::int64_t>>("where");
  auto best = kb.param<Const<R>>("best");
  auto count = kb.param<std::int64_t>("count");
  auto result_where = kb.param<Global<std::int64_t>>("result_where");
  auto result_value = kb.param<Global<R>>("result_value");
  kb.inbounds();
  auto at = kb.var(std::int64_t{-1});
  auto value = kb.var(Val<R>(best[0]));
  kb.for_(0, count, [&](Val<std::int64_t> g) {
    auto v = Val<R>(best[g]);
    auto take = Val<std::int64_t>(where[g]) >= 0 && replaces<Largest>(v, value.get(), at >= 0);
    at = select(take, Val<std::int64_t>(where[g]), at.get());
    value = select(take, v, value.get());
  });
  auto first = Val<R>(x[0]);
  kb.if_(first != first || at < 0, [&] { at = kb.lit(std::int64_t{0}); });
  result_where[0] = at.get();
  result_value[0] = Val<R>(x[at.get()]);
  return kb.finish();
}

template <bool Largest, AlgorithmMemory S>
Extremum<compute_t<typename S::value_type>> extremum(Algorithms& algs, const S& x) {
  using T = typename S::value_type;
  using R = compute_t<T>;
  const std::size_t n = x.size();
  if (n == 0) return {0, R{}};
  if constexpr (HostAddressable<S> && !std::is_same_v<T, half>) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();  // kernels queued before may still write x
      const T* found = Largest ? std::max_element(x.data(), x.data() + n)
                               : std::min_element(x.data(), x.data() + n);
      return {static_cast<std::size_t>(found - x.data()), *found};
    }
  }
  auto lock = algs.lock();
  const ChunkPlan plan = algs.chunks(n);
  auto& where = algs.scratch<std::int64_t>(3, plan.count);
  auto& best = algs.scratch<R>(5, plan.count);
  auto& result_where = algs.scratch<std::int64_t>(4, 1);
  auto& result_value = algs.scratch<R>(6, 1);
  algs.kernel<build_extremum_chunks<T, Largest>>().launch(NDRange{plan.count}, WorkGroup{1}, x,
                                                          where, best, static_cast<std::int64_t>(n),
                                                          static_cast<std::int64_t>(plan.size));
  algs.kernel<build_extremum_pick<T, Largest>>().launch(NDRange{1}, WorkGroup{1}, x, where, best,
                                                        static_cast<std::int64_t>(plan.count),
                                                        result_where, result_value);
  const auto index = read_result(algs, result_where);
  return {static_cast<std::size_t>(index), read_result(algs, result_value)};
}

}  // namespace detail

/// The first smallest element and its index (std::min_element with operator<).
template <AlgorithmMemory S>
auto min_element(Algorithms& algs, const S& x) {
  return detail::extremum<false>(algs, x);
}
/// The first largest element and its index (std::max_element with operator<).
template <AlgorithmMemory S>
auto max_element(Algorithms& algs, const S& x) {
  return detail::extremum<true>(algs, x);
}

}  // namespace spvjit

SPVJIT_API_END
