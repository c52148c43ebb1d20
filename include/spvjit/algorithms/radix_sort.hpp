// The radix sort's kernels and passes (sort.hpp is its front): an LSD radix sort of integer
// and float keys, with values moving along, chunk per work-item. See sort.hpp for the order.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

#include "spvjit/algorithms/chunked.hpp"
#include "spvjit/algorithms/context.hpp"
#include "spvjit/algorithms/sort_support.hpp"
#include "spvjit/builder.hpp"
#include "spvjit/memory.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {

/// How a key's bits become an unsigned integer whose order is the key's.
enum class RadixMap : std::uint8_t { Unsigned, Signed, Float };

/// Key T as the radix sort sees it: stored as K in the buffers it sorts (the bits, for floats),
/// ordered as U after the map.
template <class T>
struct RadixKey {
  static_assert(!std::is_same_v<T, half>,
                "sort: half keys are not supported; convert them to float first");
  static_assert(std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
                    std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t> ||
                    std::is_same_v<T, float> || std::is_same_v<T, double>,
                "sort: keys must be int32_t, uint32_t, int64_t, uint64_t, float or double (a "
                "comparator sort takes the other scalar types)");
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  using K = std::conditional_t<std::is_floating_point_v<T>, U, T>;
  static constexpr RadixMap map = std::is_floating_point_v<T> ? RadixMap::Float
                                  : std::is_signed_v<T>       ? RadixMap::Signed
                                                              : RadixMap::Unsigned;
  static constexpr unsigned bits = 8 * sizeof(T);
  /// Bits per pass: 11 (3 passes for 32-bit keys, 6 for 64-bit ones) measured faster than 8
  /// (4 and 8 passes) at 2^24 keys on 2 cores, with the scatter's line-at-a-time writes.
  static constexpr unsigned digit_bits = 11;
  static constexpr std::int64_t digits = std::int64_t{1} << digit_bits;
};

/// The map on the host: equal results exactly when the keys are bit for bit equal.
template <class T>
typename RadixKey<T>::U total_order_bits(T key) {
  using U = typename RadixKey<T>::U;
  constexpr U sign = U(1) << (RadixKey<T>::bits - 1);
  const U bits = std::bit_cast<U>(key);
  if constexpr (RadixKey<T>::map == RadixMap::Float) {
    return bits ^ ((U(0) - (bits >> (RadixKey<T>::bits - 1))) | sign);
  } else if constexpr (RadixKey<T>::map == RadixMap::Signed) {
    return bits ^ sign;
  } else {
    return bits;
  }
}

/// The map in a kernel, on the stored key K.
template <class T>
Val<typename RadixKey<T>::U> radix_order(Val<typename RadixKey<T>::K> key) {
  using U = typename RadixKey<T>::U;
  constexpr U sign = U(1) << (RadixKey<T>::bits - 1);
  if constexpr (RadixKey<T>::map == RadixMap::Float) {
    return key ^ ((U(0) - (key >> U(RadixKey<T>::bits - 1))) | sign);
  } else if constexpr (RadixKey<T>::map == RadixMap::Signed) {
    return cast<U>(key) ^ sign;
  } else {
    return key;
  }
}

template <class T>
Val<std::int64_t> radix_digit(Val<typename RadixKey<T>::K> key,
                              Val<typename RadixKey<T>::U> shift) {
  using U = typename RadixKey<T>::U;
  return cast<std::int64_t>((radix_order<T>(key) >> shift) & U(RadixKey<T>::digits - 1));
}

/// Work-item g: bounds[2g] = OR, bounds[2g + 1] = AND of the mapped keys of chunk g. A digit
/// where OR and AND agree is the same in every key: its pass moves nothing.
template <class T>
KernelDef build_radix_bounds() {
  using K = typename RadixKey<T>::K;
  using U = typename RadixKey<T>::U;
  KernelBuilder kb("spvjit_radix_bounds");
  auto keys = kb.param<Const<K>>("keys");
  auto bounds = kb.param<Global<U>>("bounds");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  for_own_chunk(kb, n, chunk,
                [&](Val<std::int64_t> g, Val<std::int64_t> begin, Val<std::int64_t> end) {
                  auto any = kb.var(U(0));
                  auto all = kb.var(U(~U(0)));
                  kb.for_(begin, end, [&](Val<std::int64_t> j) {
                    auto k = radix_order<T>(Val<K>(keys[j]));
                    any = any.get() | k;
                    all = all.get() & k;
                  });
                  bounds[2 * g] = any.get();
                  bounds[2 * g + 1] = all.get();
                });
  return kb.finish();
}

/// Work-item g: counts[d * chunks + g] = how many keys of chunk g have digit d (at `shift`).
template <class T>
KernelDef build_radix_histogram() {
  using K = typename RadixKey<T>::K;
  using U = typename RadixKey<T>::U;
  KernelBuilder kb("spvjit_radix_histogram");
  auto keys = kb.param<Const<K>>("keys");
  auto counts = kb.param<Global<std::int64_t>>("counts");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  auto shift = kb.param<U>("shift");
  auto chunks = kb.param<std::int64_t>("chunks");
  for_own_chunk(
      kb, n, chunk, [&](Val<std::int64_t> g, Val<std::int64_t> begin, Val<std::int64_t> end) {
        auto hist = private_array<std::int64_t>(kb, {RadixKey<T>::digits});
        kb.for_(0, RadixKey<T>::digits, [&](Val<std::int64_t> d) { hist[d] = std::int64_t{0}; });
        kb.for_(begin, end, [&](Val<std::int64_t> j) {
          hist[radix_digit<T>(Val<K>(keys[j]), shift)] += std::int64_t{1};
        });
        kb.for_(0, RadixKey<T>::digits,
                [&](Val<std::int64_t> d) { counts[d * chunks + g] = hist[d].get(); });
      });
  return kb.finish();
}

/// Whether the scatter gathers a cache line per digit before writing (8-byte keys, 8-bit
/// digits: 16 KiB of private slots; 32-bit keys' 2048 digits would need 128 KiB).
template <class T>
inline constexpr bool radix_combines_writes = true;
template <class T>
inline constexpr std::int64_t radix_line = 64 / static_cast<std::int64_t>(sizeof(T));

/// Work-item g moves chunk g's keys (and values) from `src` to `dst`: a key of digit d goes
/// after every key of a smaller digit and every key of digit d in an earlier chunk or earlier
/// in this one, which keeps equal digits in order (stable).
template <class T, class V, bool with_values>
KernelDef build_radix_scatter() {
  using K = typename RadixKey<T>::K;
  using U = typename RadixKey<T>::U;
  KernelBuilder kb("spvjit_radix_scatter");
  auto src = kb.param<Const<K>>("src");
  auto dst = kb.param<Global<K>>("dst");
  auto vsrc = kb.param<Const<V>>("vsrc");
  auto vdst = kb.param<Global<V>>("vdst");
  auto counts = kb.param<Const<std::int64_t>>("counts");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  auto shift = kb.param<U>("shift");
  auto chunks = kb.param<std::int64_t>("chunks");
  for_own_chunk(
      kb, n, chunk, [&](Val<std::int64_t> g, Val<std::int64_t> begin, Val<std::int64_t> end) {
        auto next = private_array<std::int64_t>(kb, {RadixKey<T>::digits});
        auto run = kb.var(std::int64_t{0});
        kb.for_(0, RadixKey<T>::digits, [&](Val<std::int64_t> d) {
          kb.for_(0, chunks, [&](Val<std::int64_t> h) {
            kb.if_(h == g, [&] { next[d] = run.get(); });
            run += counts[d * chunks + h].get();
          });
        });
        // Keys (and values) gather per digit in a cache line's worth of private slots and go out
        // a line at a time, where the destination crosses a line boundary: fewer partial lines
        // in flight than one store per key to 2048 places.
        constexpr std::int64_t line = radix_line<T>;
        auto start = private_array<std::int64_t>(kb, {RadixKey<T>::digits});
        auto held = private_array<K>(kb, {RadixKey<T>::digits * line});
        auto vheld =
            private_array<arithmetic_t<V>>(kb, {with_values ? RadixKey<T>::digits * line : 1});
        kb.for_(0, RadixKey<T>::digits, [&](Val<std::int64_t> d) { start[d] = next[d].get(); });
        auto flush = [&](Val<std::int64_t> d, Val<std::int64_t> from, Val<std::int64_t> to) {
          kb.for_(from, to, [&](Val<std::int64_t> q) {
            Val<std::int64_t> at = d * line + (q & (line - 1));
            dst[q] = held[at].get();
            if constexpr (with_values) vdst[q] = vheld[at].get();
          });
        };
        kb.for_(begin, end, [&](Val<std::int64_t> j) {
          Val<K> k = src[j];
          Val<std::int64_t> d = radix_digit<T>(k, shift);
          Val<std::int64_t> to = next[d];
          Val<std::int64_t> at = d * line + (to & (line - 1));
          held[at] = k;
          if constexpr (with_values) vheld[at] = vsrc[j].get();
          Val<std::int64_t> after = to + std::int64_t{1};
          next[d] = after;
          kb.if_((after & (line - 1)) == std::int64_t{0},
                 [&] { flush(d, max(after - line, start[d].get()), after); });
        });
        kb.for_(0, RadixKey<T>::digits, [&](Val<std::int64_t> d) {
          Val<std::int64_t> last = next[d];
          flush(d, max(last & ~(line - 1), start[d].get()), last);
        });
      });
  return kb.finish();
}

/// Copies the bytes of n elements of `from` (any memory kind) into the start of `to`, or back
/// (`into_memory`): the float keys' bits, which kernels cannot reinterpret.
template <class S, class K>
void copy_bits(Algorithms& algs, const S& memory, Buffer<K>& bits, std::size_t n,
               bool into_memory) {
  static_assert(sizeof(typename S::value_type) == sizeof(K));
  const std::size_t bytes = n * sizeof(K);
  RuntimeCore& core = detail::core_of(algs.runtime());
  algs.runtime().synchronize();
  if constexpr (HostAddressable<S>) {
    if (into_memory) {
      buffer_read(core, bits.handle(), 0, bytes, memory.data());
    } else {
      buffer_write(core, bits.handle(), 0, bytes, memory.data());
    }
  } else {
    _cl_mem* mem = memory.handle();
    std::size_t offset = 0;
    if constexpr (requires { memory.parent(); }) {
      mem = memory.parent();
      offset = memory.byte_offset();
    }
    if (into_memory) {
      buffer_copy_region(core, bits.handle(), 0, mem, offset, bytes);
    } else {
      buffer_copy_region(core, mem, offset, bits.handle(), 0, bytes);
    }
  }
}

/// The radix passes over n keys, ping-ponging between `keys_a` (where they are) and `keys_b`,
/// values along between `values_a` and `values_b` when V is not void. Returns whether the
/// sorted keys ended in the b side (an odd number of passes ran).
template <class T, class V, class KA, class VA>
bool radix_passes(Algorithms& algs, const KA& keys_a, const VA& values_a, std::size_t n) {
  using K = typename RadixKey<T>::K;
  using U = typename RadixKey<T>::U;
  constexpr bool with_values = !std::is_same_v<V, void>;
  using Vs = std::conditional_t<with_values, V, std::uint8_t>;
  const ChunkPlan plan = algs.chunks(n);
  const auto count = static_cast<std::int64_t>(plan.count);
  const auto chunk = static_cast<std::int64_t>(plan.size);
  const auto size = static_cast<std::int64_t>(n);

  auto& bounds = algs.scratch<U>(sort_bounds, 2 * plan.count);
  algs.kernel<build_radix_bounds<T>>().launch(NDRange{plan.count}, WorkGroup{1}, keys_a, bounds,
                                              size, chunk);
  std::vector<U> host(2 * plan.count);
  buffer_read(detail::core_of(algs.runtime()), bounds.handle(), 0, host.size() * sizeof(U),
              host.data());
  U any = 0;
  U all = ~U(0);
  for (std::size_t g = 0; g < plan.count; ++g) {
    any |= host[2 * g];
    all &= host[2 * g + 1];
  }
  const U varying = any ^ all;

  auto& keys_b = algs.scratch<K>(sort_keys_b, n);
  auto& values_b = algs.scratch<Vs>(sort_values_b, with_values ? n : 1);
  auto& counts = algs.scratch<std::int64_t>(sort_counts, RadixKey<T>::digits * plan.count);
  Kernel& histogram = algs.kernel<build_radix_histogram<T>>();
  Kernel& scatter = algs.kernel<build_radix_scatter<T, Vs, with_values>>();
  auto pass = [&](const auto& src, const auto& dst, const auto& vsrc, const auto& vdst, U shift) {
    histogram.launch(NDRange{plan.count}, WorkGroup{1}, src, counts, size, chunk, shift, count);
    scatter.launch(NDRange{plan.count}, WorkGroup{1}, src, dst, vsrc, vdst, counts, size, chunk,
                   shift, count);
  };
  bool in_b = false;
  for (unsigned shift = 0; shift < RadixKey<T>::bits; shift += RadixKey<T>::digit_bits) {
    if (((varying >> shift) & U(RadixKey<T>::digits - 1)) == 0) continue;
    if constexpr (with_values) {
      if (in_b) {
        pass(keys_b, keys_a, values_b, values_a, U(shift));
      } else {
        pass(keys_a, keys_b, values_a, values_b, U(shift));
      }
    } else {
      if (in_b) {
        pass(keys_b, keys_a, values_b, values_b, U(shift));
      } else {
        pass(keys_a, keys_b, values_b, values_b, U(shift));
      }
    }
    in_b = !in_b;
  }
  return in_b;
}

/// Radix-sorts keys (and values when V is not void) in place.
template <class S, class V, class VS>
void radix_sort(Algorithms& algs, const S& keys, const VS& values) {
  using T = typename S::value_type;
  using K = typename RadixKey<T>::K;
  const std::size_t n = keys.size();
  if constexpr (RadixKey<T>::map == RadixMap::Float) {
    auto& bits = algs.scratch<K>(sort_keys_a, n);
    copy_bits(algs, keys, bits, n, false);
    const bool in_b = radix_passes<T, V>(algs, bits, values, n);
    copy_bits(algs, keys, in_b ? algs.scratch<K>(sort_keys_b, n) : bits, n, true);
    if constexpr (!std::is_same_v<V, void>) {
      if (in_b) copy_elements(algs, algs.scratch<V>(sort_values_b, n), values, n);
    }
  } else {
    const bool in_b = radix_passes<T, V>(algs, keys, values, n);
    if (in_b) {
      copy_elements(algs, algs.scratch<K>(sort_keys_b, n), keys, n);
      if constexpr (!std::is_same_v<V, void>) {
        copy_elements(algs, algs.scratch<V>(sort_values_b, n), values, n);
      }
    }
  }
}

/// The host's stable order of `keys` by total_order_bits: perm[i] = index of the i-th key.
template <class T>
void host_sortperm(const T* keys, std::int64_t* perm, std::size_t n) {
  std::iota(perm, perm + n, std::int64_t{0});
  std::stable_sort(perm, perm + n, [keys](std::int64_t a, std::int64_t b) {
    return total_order_bits(keys[a]) < total_order_bits(keys[b]);
  });
}

}  // namespace detail

}  // namespace spvjit

SPVJIT_API_END
