// Reductions (AcceleratedKernels.jl's reduce, mapreduce, any, all, count; std::reduce,
// std::transform_reduce, std::min_element): each chunk of the input is folded by one
// work-item, with vector accumulators where the functors take vectors, then the chunks' results
// are folded in order by one more work-item.
//
//   float sum = reduce(algs, x, 0.0f, [](auto a, auto b) { return a + b; });
//   double sq = mapreduce(algs, x, 0.0, [](auto v) { return v * v; },
//                         [](auto a, auto b) { return a + b; });
//   std::size_t big = count_if(algs, x, [](auto v) { return v > 1.0f; });
//   auto [where, value] = min_element(algs, x);
//
// The combine must be associative: chunks and vector lanes are folded in another order than a
// sequential loop, so a floating-point sum differs from std::accumulate's by rounding (at most
// about n * eps * sum|x| for a sum).
#pragma once

#include <cstdint>
#include <numeric>
#include <type_traits>

#include "spvjit/algorithms/chunked.hpp"
#include "spvjit/algorithms/context.hpp"
#include "spvjit/algorithms/functors.hpp"
#include "spvjit/builder.hpp"
#include "spvjit/vector.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {

template <class V>
using kernel_value_t = typename KernelValueType<std::remove_cvref_t<V>>::type;

/// Lanes of the vector accumulators: 32 bytes (one AVX2 register) of R.
template <class R>
constexpr unsigned accumulator_lanes = sizeof(R) >= 8   ? 4
                                       : sizeof(R) == 4 ? 8
                                                        : 16;

/// Whether `map` and `combine` both accept vectors of the input's lanes, so the fold can run
/// vector accumulators.
template <class In, class R, class Map, class Combine>
constexpr bool folds_vectors() {
  constexpr unsigned n = accumulator_lanes<R>;
  if constexpr (!std::is_invocable_v<const Map&, Vec<In, n>>) {
    return false;
  } else if constexpr (!std::is_same_v<std::invoke_result_t<const Map&, Vec<In, n>>, Vec<R, n>>) {
    return false;
  } else if constexpr (!std::is_invocable_v<const Combine&, Vec<R, n>, Vec<R, n>>) {
    return false;
  } else {
    return std::is_same_v<std::invoke_result_t<const Combine&, Vec<R, n>, Vec<R, n>>, Vec<R, n>>;
  }
}

/// The identity map, on scalars and vectors alike.
struct Identity {
  static constexpr bool host_callable = true;
  template <class V>
  V operator()(V v) const {
    return v;
  }
};

/// 1 where the predicate holds, else 0, as an int64 (count_if) — on scalars and vectors.
template <class Pred>
struct CountOf {
  static constexpr bool host_callable = declares_host_callable<Pred>();
  template <KernelScalar T>
  Val<std::int64_t> operator()(Val<T> v) const {
    return cast<std::int64_t>(Val<bool>(Pred{}(v)));
  }
  template <KernelScalar T, unsigned N>
  requires std::is_same_v<std::invoke_result_t<const Pred&, Vec<T, N>>, Vec<bool, N>>
      Vec<std::int64_t, N>
  operator()(Vec<T, N> v) const { return cast<std::int64_t>(Pred{}(v)); }
  template <class T>
  requires std::is_arithmetic_v<T> std::int64_t operator()(T v) const { return Pred{}(v) ? 1 : 0; }
};

/// The element type kernels compute with: half is stored, read as float.
template <class T>
using compute_t = arithmetic_t<T>;

/// The result type of `map` on one element of T.
template <class T, class Map>
using mapped_t = kernel_value_t<std::invoke_result_t<const Map&, Val<compute_t<T>>>>;

/// Kernel 1: work-item g folds elements [g * chunk, min(n, (g + 1) * chunk)) into partial[g].
template <class T, class Map, class Combine>
KernelDef build_fold_chunks() {
  using In = compute_t<T>;
  using R = mapped_t<T, Map>;
  constexpr unsigned lanes = accumulator_lanes<R>;
  constexpr std::int64_t step = 4 * lanes;
  const Map map{};
  const Combine combine{};
  KernelBuilder kb("spvjit_fold_chunks");
  auto x = kb.param<Const<T>>("x");
  auto partial = kb.param<Global<R>>("partial");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  for_own_chunk(
      kb, n, chunk, [&](Val<std::int64_t> g, Val<std::int64_t> begin, Val<std::int64_t> end) {
        auto acc = kb.var(Val<R>(map(Val<In>(x[begin]))));
        auto next = kb.var(begin + 1);
        if constexpr (folds_vectors<In, R, Map, Combine>()) {
          kb.if_(end - begin >= step, [&] {
            auto first = [&](std::int64_t k) {
              return vec_var(kb, Vec<R, lanes>(map(vload<lanes>(x, begin + k * lanes))));
            };
            const VecVar<R, lanes> a[4] = {first(0), first(1), first(2), first(3)};
            auto vector_end = begin + (end - begin) / step * step;
            kb.for_(begin + step, vector_end, step, [&](Val<std::int64_t> j) {
              for (int k = 0; k < 4; ++k) {
                a[k] = Vec<R, lanes>(
                    combine(a[k].get(), Vec<R, lanes>(map(vload<lanes>(x, j + k * lanes)))));
              }
            });
            const Vec<R, lanes> both(combine(Vec<R, lanes>(combine(a[0].get(), a[1].get())),
                                             Vec<R, lanes>(combine(a[2].get(), a[3].get()))));
            acc = both[0];
            for (unsigned l = 1; l < lanes; ++l) acc = Val<R>(combine(acc.get(), both[l]));
            next = vector_end;
          });
        }
        kb.for_(next.get(), end, [&](Val<std::int64_t> j) {
          acc = Val<R>(combine(acc.get(), Val<R>(map(Val<In>(x[j])))));
        });
        partial[g] = acc.get();
      });
  return kb.finish();
}

/// Kernel 2, one work-item: result[0] = init ⊕ partial[0] ⊕ ... ⊕ partial[count - 1], in order.
template <class R, class Combine>
KernelDef build_fold_partials() {
  const Combine combine{};
  KernelBuilder kb("spvjit_fold_partials");
  auto partial = kb.param<Const<R>>("partial");
  auto result = kb.param<Global<R>>("result");
  auto count = kb.param<std::int64_t>("count");
  auto init = kb.param<R>("init");
  kb.inbounds();
  auto acc = kb.var(init);
  kb.for_(0, count,
          [&](Val<std::int64_t> j) { acc = Val<R>(combine(acc.get(), Val<R>(partial[j]))); });
  result[0] = acc.get();
  return kb.finish();
}

/// Whether the host may run map and combine itself on elements of T: only functors that say
/// so, since asking a generic lambda whether it takes a float compiles its body.
template <class T, class Map, class Combine>
constexpr bool host_callable() {
  return !std::is_same_v<T, half> && declares_host_callable<Map>() &&
         declares_host_callable<Combine>();
}

template <class F>
void require_stateless(const char*) {
  static_assert(stateless_functor_v<F>,
                "spvjit algorithms: functors must be stateless (a lambda without captures, or an "
                "empty struct): the kernel is built once per functor type and cached");
}

/// Reads one element of a buffer: the algorithms' results.
template <class R>
R read_result(Algorithms& algs, const Buffer<R>& buffer) {
  R value{};
  buffer_read(detail::core_of(algs.runtime()), buffer.handle(), 0, sizeof(R), &value);
  return value;
}

}  // namespace detail

/// init ⊕ map(x[0]) ⊕ map(x[1]) ⊕ ... for an associative `combine` (std::transform_reduce,
/// AcceleratedKernels' mapreduce). `init` is combined once, first; an empty input gives init.
/// The result's type is what `map` returns (half input is mapped as float).
template <AlgorithmMemory S, class Map, class Combine>
auto mapreduce(Algorithms& algs, const S& x, detail::mapped_t<typename S::value_type, Map> init,
               Map, Combine) {
  using T = typename S::value_type;
  using R = detail::mapped_t<T, Map>;
  detail::require_stateless<Map>("map");
  detail::require_stateless<Combine>("combine");
  const std::size_t n = x.size();
  if (n == 0) return init;
  if constexpr (HostAddressable<S> && detail::host_callable<T, Map, Combine>()) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();  // kernels queued before may still write x
      if constexpr (std::is_same_v<Map, detail::Identity>) {
        return std::reduce(x.data(), x.data() + n, init, Combine{});
      } else {
        return std::transform_reduce(x.data(), x.data() + n, init, Combine{},
                                     [](const T& v) { return static_cast<R>(Map{}(v)); });
      }
    }
  }
  auto lock = algs.lock();
  const ChunkPlan plan = algs.chunks(n);
  auto& partial = algs.scratch<R>(0, plan.count);
  auto& result = algs.scratch<R>(1, 1);
  algs.kernel<detail::build_fold_chunks<T, Map, Combine>>().launch(
      NDRange{plan.count}, WorkGroup{1}, x, partial, static_cast<std::int64_t>(n),
      static_cast<std::int64_t>(plan.size));
  algs.kernel<detail::build_fold_partials<R, Combine>>().launch(
      NDRange{1}, WorkGroup{1}, partial, result, static_cast<std::int64_t>(plan.count), init);
  return detail::read_result(algs, result);
}

/// init ⊕ x[0] ⊕ x[1] ⊕ ... (std::reduce).
template <AlgorithmMemory S, class Combine>
auto reduce(Algorithms& algs, const S& x, detail::compute_t<typename S::value_type> init,
            Combine combine) {
  return mapreduce(algs, x, init, detail::Identity{}, combine);
}

/// The sum of the elements (0 for none).
template <AlgorithmMemory S>
auto sum(Algorithms& algs, const S& x) {
  return reduce(algs, x, detail::compute_t<typename S::value_type>{}, plus{});
}

/// How many elements satisfy `pred` (std::count_if).
template <AlgorithmMemory S, class Pred>
std::size_t count_if(Algorithms& algs, const S& x, Pred) {
  detail::require_stateless<Pred>("predicate");
  return static_cast<std::size_t>(
      mapreduce(algs, x, std::int64_t{0}, detail::CountOf<Pred>{}, plus{}));
}

/// Whether any (every) element satisfies `pred`; false (true) for an empty input.
template <AlgorithmMemory S, class Pred>
bool any_of(Algorithms& algs, const S& x, Pred pred) {
  return count_if(algs, x, pred) != 0;
}
template <AlgorithmMemory S, class Pred>
bool all_of(Algorithms& algs, const S& x, Pred pred) {
  return count_if(algs, x, pred) == x.size();
}

}  // namespace spvjit

SPVJIT_API_END
