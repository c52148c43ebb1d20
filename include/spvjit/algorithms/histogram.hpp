// Histograms (KernelAbstractions' examples/histogram.jl, generalised): counts of the input's
// values in B equal bins of [lo, hi), or, for integer inputs, with each value its own bin index.
// Each chunk of the input counts into its own private histogram in scratch memory, without
// atomics; then one work-item per block of bins adds the chunks' counts up into `bins`.
//
//   histogram(algs, x, bins, -1.0f, 1.0f);  // bins: Buffer<std::uint32_t> of B counts
//   histogram(algs, labels, bins);          // int labels: bins[v] counts the v's in [0, B)
//
// `bins` is overwritten (not added to). Values outside the range and NaNs are not counted.
// A float value v in [lo, hi) falls in bin min(B - 1, trunc((v - lo) * (B / (hi - lo)))),
// computed in the input's arithmetic type (float for half and float, double for double), as the
// host does for small inputs; an integer v in bin (v - lo) * B / (hi - lo), exactly, in int64
// arithmetic. Counts are of the bins' element type: uint32, int32, uint64 or int64 (a count
// past the type's range wraps).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "spvjit/algorithms/chunked.hpp"
#include "spvjit/algorithms/context.hpp"
#include "spvjit/algorithms/reduce.hpp"
#include "spvjit/builder.hpp"
#include "spvjit/math.hpp"
#include "spvjit/vector.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {

inline constexpr unsigned histogram_private_slot = 22;
/// Bins one combine work-item adds up.
inline constexpr std::size_t histogram_bins_per_item = 4096;

/// How a value finds its bin: the [lo, hi) range for floats and integers, or the value itself.
enum class BinRule { FloatRange, IntegerRange, Index };

template <class T>
constexpr BinRule range_rule() {
  return std::is_floating_point_v<compute_t<T>> ? BinRule::FloatRange : BinRule::IntegerRange;
}

/// The range's parameters as the kernel takes them: lo and, for floats, B / (hi - lo); for
/// integers hi - lo.
template <class T>
using range_param_t =
    std::conditional_t<std::is_floating_point_v<compute_t<T>>, compute_t<T>, std::int64_t>;

template <class T, class H, BinRule Rule>
KernelDef build_count_bins() {
  using C = compute_t<T>;
  using P = std::conditional_t<Rule == BinRule::FloatRange, C, std::int64_t>;
  KernelBuilder kb("spvjit_count_bins");
  auto x = kb.param<Const<T>>("x");
  auto priv = kb.param<Global<H>>("priv");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  auto bins = kb.param<std::int64_t>("bins");
  auto lo = kb.param<P>("lo");
  auto hi = kb.param<P>("hi");
  auto scale = kb.param<P>("scale");  // floats: B / (hi - lo); integers: hi - lo
  kb.inbounds().allow_padding().work_per_item(chunk_weight);
  auto g = kb.global_index();
  auto begin = g * chunk;
  // Bins past the last hold what fell outside; every chunk clears its own, even an empty one.
  auto base = g * (bins + 1);
  kb.for_(base, base + bins + 1, [&](Val<std::int64_t> b) { priv[b] = H{0}; });
  kb.if_(begin < n, [&] {
    auto end = min(begin + chunk, n);
    auto next = kb.var(begin);
    if constexpr (Rule != BinRule::IntegerRange) {
      // Eight (four for 8-byte values) bins at once in vector lanes, then one increment per
      // lane: the bin arithmetic costs a fraction of the scalar loop's.
      constexpr unsigned lanes = sizeof(C) >= 8 ? 4 : 8;
      auto vector_end = begin + (end - begin) / std::int64_t{lanes} * std::int64_t{lanes};
      kb.for_(begin, vector_end, std::int64_t{lanes}, [&](Val<std::int64_t> j) {
        const Vec<C, lanes> v = vload<lanes>(x, j);
        if constexpr (Rule == BinRule::FloatRange) {
          // Bins fit int32 (checked on the host), and AVX2 converts floats to int32 lanes only.
          const Vec<std::int32_t, lanes> outside =
              Vec<std::int32_t, lanes>::splat(cast<std::int32_t>(bins));
          const Vec<bool, lanes> inside = (v >= lo) & (v < hi);
          const Vec<std::int32_t, lanes> scaled =
              min(cast<std::int32_t>((v - lo) * scale), outside - std::int32_t{1});
          const Vec<std::int32_t, lanes> bin = select(inside, scaled, outside);
          for (unsigned l = 0; l < lanes; ++l) priv[base + cast<std::int64_t>(bin[l])] += H{1};
        } else {
          const Vec<std::int64_t, lanes> w = cast<std::int64_t>(v);
          const Vec<bool, lanes> inside = (w >= std::int64_t{0}) & (w < bins);
          const Vec<std::int64_t, lanes> bin =
              select(inside, w, Vec<std::int64_t, lanes>::splat(bins));
          for (unsigned l = 0; l < lanes; ++l) priv[base + bin[l]] += H{1};
        }
      });
      next = vector_end;
    }
    kb.for_(next.get(), end, [&](Val<std::int64_t> j) {
      const Val<C> v = x[j];
      Val<std::int64_t> bin;
      if constexpr (Rule == BinRule::FloatRange) {
        const Val<bool> inside = v >= lo && v < hi;
        // Outside values may give any integer here: select() drops them.
        const Val<std::int64_t> scaled = min(cast<std::int64_t>((v - lo) * scale), bins - 1);
        bin = select(inside, scaled, bins);
      } else if constexpr (Rule == BinRule::IntegerRange) {
        const Val<std::int64_t> w = cast<std::int64_t>(v);
        const Val<bool> inside = w >= lo && w < hi;
        const Val<std::int64_t> offset =
            select(inside, w - lo, Val<std::int64_t>(kb.lit(std::int64_t{0})));
        bin = select(inside, offset * bins / scale, bins);
      } else {
        const Val<std::int64_t> w = cast<std::int64_t>(v);
        const Val<bool> inside = w >= std::int64_t{0} && w < bins;
        // uint64 values past int64's range read as negative: outside.
        bin = select(inside, w, bins);
      }
      priv[base + bin] += H{1};
    });
  });
  return kb.finish();
}

/// bins[b] = the sum over chunks of their count of bin b; work-item w adds up a block of bins.
template <class H>
KernelDef build_combine_bins() {
  KernelBuilder kb("spvjit_combine_bins");
  auto priv = kb.param<Const<H>>("priv");
  auto out = kb.param<Global<H>>("out");
  auto bins = kb.param<std::int64_t>("bins");
  auto chunks = kb.param<std::int64_t>("chunks");
  kb.inbounds().allow_padding().work_per_item(histogram_bins_per_item);
  auto first = kb.global_index() * static_cast<std::int64_t>(histogram_bins_per_item);
  kb.if_(first < bins, [&] {
    auto last = min(first + static_cast<std::int64_t>(histogram_bins_per_item), bins);
    kb.for_(first, last, [&](Val<std::int64_t> b) { out[b] = H{0}; });
    kb.for_(std::int64_t{0}, chunks, [&](Val<std::int64_t> c) {
      auto base = c * (bins + 1);
      kb.for_(first, last, [&](Val<std::int64_t> b) { out[b] += Val<H>(priv[base + b]); });
    });
  });
  return kb.finish();
}

template <class H>
constexpr bool count_type_v = std::is_same_v<H, std::uint32_t> || std::is_same_v<H, std::int32_t> ||
                              std::is_same_v<H, std::uint64_t> || std::is_same_v<H, std::int64_t>;

/// The host's bin of v, the kernel's rule on the calling thread; `bins` when v is outside.
template <BinRule Rule, class T, class P>
std::int64_t host_bin_of(T value, std::int64_t bins, P lo, P hi, P scale) {
  using C = compute_t<T>;
  const C v = static_cast<C>(value);
  if constexpr (Rule == BinRule::FloatRange) {
    if (!(v >= lo && v < hi)) return bins;
    return std::min(static_cast<std::int64_t>(static_cast<C>((v - lo) * scale)), bins - 1);
  } else if constexpr (Rule == BinRule::IntegerRange) {
    const auto w = static_cast<std::int64_t>(v);
    if (!(w >= lo && w < hi)) return bins;
    return (w - lo) * bins / scale;
  } else {
    const auto w = static_cast<std::int64_t>(v);
    return w >= 0 && w < bins ? w : bins;
  }
}

template <BinRule Rule, class S, class O, class P>
void histogram_with(const char* algorithm, Algorithms& algs, const S& x, const O& out, P lo, P hi,
                    P scale) {
  using T = typename S::value_type;
  using H = typename O::value_type;
  static_assert(count_type_v<H>,
                "spvjit histogram: the bins' element type must be uint32, int32, uint64 or int64");
  check_runtime(algorithm, algs, owner_of(x));
  check_runtime(algorithm, algs, owner_of(out));
  const std::size_t n = x.size();
  const std::size_t bins = out.size();
  if (bins == 0 || bins >= std::size_t{std::numeric_limits<std::int32_t>::max()}) {
    detail::throw_user_error(
        algorithm, "the bins hold " + std::to_string(bins) + " elements; expected 1 to 2^31 - 2");
  }
  const auto b64 = static_cast<std::int64_t>(bins);
  if constexpr (HostAddressable<S> && HostAddressable<O> && !std::is_same_v<T, half>) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();  // kernels queued before may still use x or out
      H* counts = out.data();
      std::fill(counts, counts + bins, H{0});
      for (std::size_t j = 0; j < n; ++j) {
        const std::int64_t b = host_bin_of<Rule>(x.data()[j], b64, lo, hi, scale);
        if (b < b64) counts[b] += 1;
      }
      return;
    }
  }
  auto lock = algs.lock();
  const ChunkPlan plan = algs.chunks(n);  // none for an empty input: the combine clears the bins
  auto& priv = algs.scratch<H>(histogram_private_slot, plan.count * (bins + 1));
  if (plan.count != 0) {
    algs.kernel<build_count_bins<T, H, Rule>>().launch(
        NDRange{plan.count}, WorkGroup{1}, x, priv, static_cast<std::int64_t>(n),
        static_cast<std::int64_t>(plan.size), b64, lo, hi, scale);
  }
  const std::size_t items = (bins + histogram_bins_per_item - 1) / histogram_bins_per_item;
  algs.kernel<build_combine_bins<H>>().launch(NDRange{items}, WorkGroup{1}, priv, out, b64,
                                              static_cast<std::int64_t>(plan.count));
}

}  // namespace detail

/// Counts the values of `x` in out.size() equal bins of [lo, hi) into `out` (see above).
template <AlgorithmMemory S, AlgorithmMemory O>
void histogram(Algorithms& algs, const S& x, const O& out,
               detail::range_param_t<typename S::value_type> lo,
               detail::range_param_t<typename S::value_type> hi) {
  using T = typename S::value_type;
  static_assert(!std::is_same_v<T, std::uint64_t>,
                "spvjit histogram: uint64 values with a range are not supported (the bins are "
                "computed in int64); use the index overload");
  static_assert(!std::is_same_v<T, bool>, "spvjit histogram: bool values have no range");
  if (!(lo < hi)) {
    detail::throw_user_error("histogram",
                             "the range [lo, hi) is empty or not a number; expected lo < hi");
  }
  const auto bins = static_cast<std::int64_t>(out.size());
  if constexpr (std::is_floating_point_v<detail::compute_t<T>>) {
    using C = detail::compute_t<T>;
    const C scale = static_cast<C>(bins) / (hi - lo);
    if (!std::isfinite(scale) || !std::isfinite(lo) || !std::isfinite(hi)) {
      detail::throw_user_error("histogram", "lo, hi and the bin width must be finite numbers");
    }
    detail::histogram_with<detail::BinRule::FloatRange>("histogram", algs, x, out, lo, hi, scale);
  } else {
    const std::int64_t width = hi - lo;
    if (hi > 0 && lo < 0 && hi > std::numeric_limits<std::int64_t>::max() + lo) {
      detail::throw_user_error("histogram", "hi - lo exceeds int64's range");
    }
    if (bins > 0 && width > std::numeric_limits<std::int64_t>::max() / bins) {
      detail::throw_user_error("histogram", "(hi - lo) * bins = " + std::to_string(width) + " * " +
                                                std::to_string(bins) +
                                                " exceeds int64's range; expected fewer bins or a "
                                                "narrower range");
    }
    detail::histogram_with<detail::BinRule::IntegerRange>("histogram", algs, x, out, lo, hi, width);
  }
}

/// Integer values: out[v] counts the elements equal to v, for v in [0, out.size()); other
/// values are not counted.
template <AlgorithmMemory S, AlgorithmMemory O>
requires std::is_integral_v<typename S::value_type>
void histogram(Algorithms& algs, const S& x, const O& out) {
  detail::histogram_with<detail::BinRule::Index>("histogram", algs, x, out, std::int64_t{0},
                                                 std::int64_t{0}, std::int64_t{1});
}

}  // namespace spvjit

SPVJIT_API_END
