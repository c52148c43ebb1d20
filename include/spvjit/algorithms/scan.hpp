// Prefix sums (std::inclusive_scan, std::exclusive_scan; AcceleratedKernels' accumulate) with a
// user combine, in three launches and no barrier: each chunk is folded (reduce's kernel), one
// work-item turns the chunks' folds into each chunk's carry-in, and each chunk is scanned from
// its carry. KernelAbstractions' decoupled look-back scan waits on other work-groups in a loop,
// which PoCL's CPU devices, running one group after another on a thread, may never finish; this
// one never waits on another work-item.
//
//   inclusive_scan(algs, x, out, plus{});            // out[i] = x[0] + ... + x[i]
//   exclusive_scan(algs, x, out, 0, plus{});         // out[i] = 0 + x[0] + ... + x[i-1]
//
// `out` may be `x` itself. Float sums are associated differently from a sequential loop (by
// chunk), so they differ from std::inclusive_scan's by rounding.
#pragma once

#include <cstdint>
#include <type_traits>

#include "spvjit/algorithms/reduce.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {

/// One work-item: carry[g] = init ⊕ partial[0] ⊕ ... ⊕ partial[g - 1] (with_init), else
/// partial[0] ⊕ ... ⊕ partial[g - 1] for g >= 1 (carry[0] is then unused).
template <class R, class Combine>
KernelDef build_scan_carries() {
  const Combine combine{};
  KernelBuilder kb("spvjit_scan_carries");
  auto partial = kb.param<Const<R>>("partial");
  auto carry = kb.param<Global<R>>("carry");
  auto count = kb.param<std::int64_t>("count");
  auto init = kb.param<R>("init");
  auto with_init = kb.param<std::int32_t>("with_init");
  kb.inbounds();
  auto acc = kb.var(init);
  auto first = kb.var(std::int64_t{0});
  kb.if_(with_init == 0, [&] {
    acc = Val<R>(partial[0]);
    first = kb.lit(std::int64_t{1});
  });
  kb.for_(first.get(), count, [&](Val<std::int64_t> g) {
    carry[g] = acc.get();
    acc = Val<R>(combine(acc.get(), Val<R>(partial[g])));
  });
  return kb.finish();
}

/// The inclusive scan of one vector's lanes, in log2(N) steps: lane i combines lane i - k into
/// itself for k = 1, 2, 4, ... (earlier elements on the left, so the combine need not commute).
/// Lanes below k keep their value: the combine also runs on them, and its result is dropped.
template <class R, unsigned N, class Combine>
Vec<R, N> scan_lanes(Vec<R, N> v, const Combine& combine) {
  for (unsigned k = 1; k < N; k *= 2) {
    int from_earlier[N];
    int keep_low[N];
    for (unsigned i = 0; i < N; ++i) {
      from_earlier[i] = static_cast<int>(i >= k ? i - k : i);
      keep_low[i] = static_cast<int>(i >= k ? i : N + i);
    }
    const Vec<R, N> combined(combine(shuffle(v, from_earlier), v));
    v = shuffle(combined, v, keep_low);
  }
  return v;
}

/// Work-item g scans its chunk from carry[g]: inclusive (out[j] includes x[j]) or exclusive.
/// Chunk 0 of an inclusive scan without init starts from x[begin] instead. Where the combine
/// takes vectors, whole vectors are scanned in registers and only the carry runs lane to lane.
template <class T, class Combine, bool Inclusive>
KernelDef build_scan_chunks() {
  using R = compute_t<T>;
  constexpr unsigned lanes = accumulator_lanes<R>;
  const Combine combine{};
  KernelBuilder kb(Inclusive ? "spvjit_inclusive_scan_chunks" : "spvjit_exclusive_scan_chunks");
  auto x = kb.param<Const<T>>("x");
  auto out = kb.param<Global<T>>("out");
  auto carry = kb.param<Const<R>>("carry");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  auto with_init = kb.param<std::int32_t>("with_init");
  for_own_chunk(
      kb, n, chunk, [&](Val<std::int64_t> g, Val<std::int64_t> begin, Val<std::int64_t> end) {
        // acc: the fold of everything before `next` (inclusive: written up to next - 1).
        auto acc = kb.var(Val<R>(carry[g]));
        auto next = kb.var(begin);
        if constexpr (Inclusive) {
          acc = Val<R>(x[begin]);
          kb.if_(g > 0 || with_init != 0,
                 [&] { acc = Val<R>(combine(Val<R>(carry[g]), acc.get())); });
          out[begin] = acc.get();
          next = begin + std::int64_t{1};
        }
        if constexpr (folds_vectors<R, R, Identity, Combine>()) {
          // Four vectors an iteration, scanned independently; their totals are folded off the
          // loop's chain, which carries only acc = acc ⊕ (t0 ⊕ t1 ⊕ t2 ⊕ t3): one combine per
          // 4N elements instead of a combine, an extract and a splat per vector.
          constexpr unsigned unroll = 4;
          constexpr std::int64_t step = unroll * lanes;
          auto vector_end = next.get() + (end - next.get()) / step * step;
          kb.for_(next.get(), vector_end, step, [&](Val<std::int64_t> j) {
            Vec<R, lanes> prefix[unroll];
            for (unsigned k = 0; k < unroll; ++k) {
              prefix[k] =
                  scan_lanes<R, lanes>(vload<lanes>(x, j + std::int64_t{k * lanes}), combine);
            }
            // carry[k]: acc ⊕ the totals of vectors 0 .. k-1; totals[k]: vectors 0 .. k's total.
            Val<R> totals[unroll];
            totals[0] = prefix[0][lanes - 1];
            for (unsigned k = 1; k < unroll; ++k) {
              totals[k] = Val<R>(combine(totals[k - 1], prefix[k][lanes - 1]));
            }
            const Val<R> carry_in = acc.get();
            for (unsigned k = 0; k < unroll; ++k) {
              const Val<R> carry = k == 0 ? carry_in : Val<R>(combine(carry_in, totals[k - 1]));
              const auto before = Vec<R, lanes>::splat(carry);
              const Vec<R, lanes> through(combine(before, prefix[k]));
              const auto at = j + std::int64_t{k * lanes};
              if constexpr (Inclusive) {
                vstore(out, at, through);
              } else {
                int shifted[lanes];
                for (unsigned i = 0; i < lanes; ++i)
                  shifted[i] = static_cast<int>(i == 0 ? 0 : lanes + i - 1);
                vstore(out, at, shuffle(before, through, shifted));
              }
            }
            acc = Val<R>(combine(carry_in, totals[unroll - 1]));
          });
          next = vector_end;
        }
        kb.for_(next.get(), end, [&](Val<std::int64_t> j) {
          auto through =
              Val<R>(combine(acc.get(), Val<R>(x[j])));  // read before out[j] may overwrite it
          out[j] = Inclusive ? through : acc.get();
          acc = through;
        });
      });
  return kb.finish();
}

template <bool Inclusive, AlgorithmMemory S, AlgorithmMemory O, class Combine>
void scan(Algorithms& algs, const S& x, const O& out, compute_t<typename S::value_type> init,
          bool with_init, const char* name) {
  using T = typename S::value_type;
  using R = compute_t<T>;
  static_assert(std::is_same_v<typename O::value_type, T>,
                "scan: the output's element type must be the input's");
  require_stateless<Combine>("combine");
  const std::size_t n = x.size();
  check_output_size(name, "the output", out.size(), n);
  if (n == 0) return;
  if constexpr (HostAddressable<S> && HostAddressable<O> && host_callable<T, Identity, Combine>()) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();  // kernels queued before may still use x or out
      if constexpr (Inclusive) {
        if (with_init) {
          std::inclusive_scan(x.data(), x.data() + n, out.data(), Combine{}, init);
        } else {
          std::inclusive_scan(x.data(), x.data() + n, out.data(), Combine{});
        }
      } else {
        std::exclusive_scan(x.data(), x.data() + n, out.data(), init, Combine{});
      }
      return;
    }
  }
  auto lock = algs.lock();
  const ChunkPlan plan = algs.chunks(n);
  auto& partial = algs.scratch<R>(0, plan.count);
  auto& carry = algs.scratch<R>(2, plan.count);
  const auto count = static_cast<std::int64_t>(plan.count);
  const auto size = static_cast<std::int64_t>(plan.size);
  const std::int32_t init_flag = with_init ? 1 : 0;
  if (plan.count > 1) {
    algs.kernel<build_fold_chunks<T, Identity, Combine>>().launch(
        NDRange{plan.count}, WorkGroup{1}, x, partial, static_cast<std::int64_t>(n), size);
    algs.kernel<build_scan_carries<R, Combine>>().launch(NDRange{1}, WorkGroup{1}, partial, carry,
                                                         count, init, init_flag);
  } else if (with_init) {
    // One chunk: its carry is init, written by the carries kernel from no partials.
    algs.kernel<build_scan_carries<R, Combine>>().launch(NDRange{1}, WorkGroup{1}, partial, carry,
                                                         std::int64_t{1}, init, init_flag);
  }
  algs.kernel<build_scan_chunks<T, Combine, Inclusive>>().launch(
      NDRange{plan.count}, WorkGroup{1}, x, out, carry, static_cast<std::int64_t>(n), size,
      init_flag);
  algs.runtime().synchronize();
}

}  // namespace detail

/// out[i] = x[0] ⊕ ... ⊕ x[i] (std::inclusive_scan).
template <AlgorithmMemory S, AlgorithmMemory O, class Combine>
void inclusive_scan(Algorithms& algs, const S& x, const O& out, Combine) {
  detail::scan<true, S, O, Combine>(algs, x, out, {}, false, "inclusive_scan");
}
/// out[i] = init ⊕ x[0] ⊕ ... ⊕ x[i].
template <AlgorithmMemory S, AlgorithmMemory O, class Combine>
void inclusive_scan(Algorithms& algs, const S& x, const O& out, Combine,
                    detail::compute_t<typename S::value_type> init) {
  detail::scan<true, S, O, Combine>(algs, x, out, init, true, "inclusive_scan");
}
/// out[i] = init ⊕ x[0] ⊕ ... ⊕ x[i - 1]; out[0] = init (std::exclusive_scan).
template <AlgorithmMemory S, AlgorithmMemory O, class Combine>
void exclusive_scan(Algorithms& algs, const S& x, const O& out,
                    detail::compute_t<typename S::value_type> init, Combine) {
  detail::scan<false, S, O, Combine>(algs, x, out, init, true, "exclusive_scan");
}

}  // namespace spvjit

SPVJIT_API_END
