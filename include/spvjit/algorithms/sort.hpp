// Sorts (AcceleratedKernels.jl's sort!, sortperm; std::sort, std::stable_sort): a least
// significant digit radix sort for integer and float keys, and a merge sort for a user
// comparator.
//
//   sort(algs, keys);                       // ascending; floats in IEEE total order
//   sort_by_key(algs, keys, values);        // values follow their keys; stable
//   sortperm(algs, keys, perm);             // perm[i]: int64 index of the i-th smallest key
//   sort(algs, keys, [](auto a, auto b) { return a > b; });  // a comparator: merge sort
//
// Radix sort, 11 bits a pass for 32-bit keys and 8 for 64-bit ones: a kernel counts each chunk's digits, and a second moves every
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
#include <bit>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

#include "spvjit/algorithms/context.hpp"
#include "spvjit/algorithms/functors.hpp"
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
  /// Bits per pass: 3 passes of 11 bits for 32-bit keys measured faster than 4 of 8 (2^24 keys,
  /// 2 cores); 64-bit keys stay at 8 bits, as 6 passes of 11 bits measured slower than 8 of 8
  /// (2048 destinations per chunk cost more than the passes they save with 8-byte keys).
  static constexpr unsigned digit_bits = sizeof(T) == 4 ? 11 : 8;
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
Val<std::int64_t> radix_digit(Val<typename RadixKey<T>::K> key, Val<typename RadixKey<T>::U> shift) {
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
  kb.inbounds().allow_padding().work_per_item(std::size_t{1} << 16);
  auto g = kb.global_index();
  auto begin = g * chunk;
  kb.if_(begin < n, [&] {
    auto end = min(begin + chunk, n);
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
  kb.inbounds().allow_padding().work_per_item(std::size_t{1} << 16);
  auto g = kb.global_index();
  auto begin = g * chunk;
  kb.if_(begin < n, [&] {
    auto end = min(begin + chunk, n);
    auto hist = private_array<std::int64_t>(kb, {RadixKey<T>::digits});
    kb.for_(0, RadixKey<T>::digits, [&](Val<std::int64_t> d) { hist[d] = std::int64_t{0}; });
    kb.for_(begin, end, [&](Val<std::int64_t> j) {
      hist[radix_digit<T>(Val<K>(keys[j]), shift)] += std::int64_t{1};
    });
    kb.for_(0, RadixKey<T>::digits, [&](Val<std::int64_t> d) { counts[d * chunks + g] = hist[d].get(); });
  });
  return kb.finish();
}

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
  kb.inbounds().allow_padding().work_per_item(std::size_t{1} << 16);
  auto g = kb.global_index();
  auto begin = g * chunk;
  kb.if_(begin < n, [&] {
    auto end = min(begin + chunk, n);
    auto next = private_array<std::int64_t>(kb, {RadixKey<T>::digits});
    auto run = kb.var(std::int64_t{0});
    kb.for_(0, RadixKey<T>::digits, [&](Val<std::int64_t> d) {
      kb.for_(0, chunks, [&](Val<std::int64_t> h) {
        kb.if_(h == g, [&] { next[d] = run.get(); });
        run += counts[d * chunks + h].get();
      });
    });
    kb.for_(begin, end, [&](Val<std::int64_t> j) {
      Val<K> k = src[j];
      auto slot = next[radix_digit<T>(k, shift)];
      Val<std::int64_t> to = slot;
      slot = to + std::int64_t{1};
      dst[to] = k;
      if constexpr (with_values) vdst[to] = vsrc[j].get();
    });
  });
  return kb.finish();
}

/// dst[i] = src[i], a chunk per work-item.
template <class T>
KernelDef build_copy() {
  KernelBuilder kb("spvjit_copy");
  auto src = kb.param<Const<T>>("src");
  auto dst = kb.param<Global<T>>("dst");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  kb.inbounds().allow_padding().work_per_item(std::size_t{1} << 16);
  auto begin = kb.global_index() * chunk;
  kb.for_(begin, min(begin + chunk, n), [&](Val<std::int64_t> j) { dst[j] = src[j].get(); });
  return kb.finish();
}

/// out[i] = i, a chunk per work-item.
inline KernelDef build_iota() {
  KernelBuilder kb("spvjit_iota");
  auto out = kb.param<Global<std::int64_t>>("out");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  kb.inbounds().allow_padding().work_per_item(std::size_t{1} << 16);
  auto begin = kb.global_index() * chunk;
  kb.for_(begin, min(begin + chunk, n), [&](Val<std::int64_t> j) { out[j] = j; });
  return kb.finish();
}

template <class T>
const KernelDef& radix_bounds_kernel() {
  static const KernelDef def = build_radix_bounds<T>();
  return def;
}
template <class T>
const KernelDef& radix_histogram_kernel() {
  static const KernelDef def = build_radix_histogram<T>();
  return def;
}
template <class T, class V, bool with_values>
const KernelDef& radix_scatter_kernel() {
  static const KernelDef def = build_radix_scatter<T, V, with_values>();
  return def;
}
template <class T>
const KernelDef& copy_kernel() {
  static const KernelDef def = build_copy<T>();
  return def;
}
inline const KernelDef& iota_kernel() {
  static const KernelDef def = build_iota();
  return def;
}

/// Scratch slots of the sorts (10..19; other families use others).
enum SortSlot : unsigned {
  sort_keys_b = 10,
  sort_keys_a = 11,
  sort_counts = 12,
  sort_values_b = 13,
  sort_bounds = 14,
  sort_merge = 15,
};

template <class S>
void copy_elements(Algorithms& algs, const auto& src, const S& dst, std::size_t n) {
  using T = typename S::value_type;
  const ChunkPlan plan = algs.chunks(n);
  algs.kernel(copy_kernel<T>())
      .launch(NDRange{plan.count}, WorkGroup{1}, src, dst, static_cast<std::int64_t>(n),
              static_cast<std::int64_t>(plan.size));
}

/// Copies the bytes of n elements of `from` (any memory kind) into the start of `to`, or back
/// (`into_memory`): the float keys' bits, which kernels cannot reinterpret.
template <class S, class K>
void copy_bits(Algorithms& algs, const S& memory, Buffer<K>& bits, std::size_t n,
               bool into_memory) {
  static_assert(sizeof(typename S::value_type) == sizeof(K));
  const std::size_t bytes = n * sizeof(K);
  RuntimeCore& core = algs.runtime().core();
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
  algs.kernel(radix_bounds_kernel<T>())
      .launch(NDRange{plan.count}, WorkGroup{1}, keys_a, bounds, size, chunk);
  std::vector<U> host(2 * plan.count);
  buffer_read(algs.runtime().core(), bounds.handle(), 0, host.size() * sizeof(U), host.data());
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
  Kernel& histogram = algs.kernel(radix_histogram_kernel<T>());
  Kernel& scatter = algs.kernel(radix_scatter_kernel<T, Vs, with_values>());
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

/// Work-item g insertion-sorts the blocks of `block` elements inside its chunk (chunks hold
/// whole blocks), stably: an element moves left only past larger ones.
template <class T, class Comp>
KernelDef build_block_sort() {
  const Comp comp{};
  KernelBuilder kb("spvjit_block_sort");
  auto x = kb.param<Global<T>>("x");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  auto block = kb.param<std::int64_t>("block");
  kb.inbounds().allow_padding().work_per_item(std::size_t{1} << 16);
  auto begin = kb.global_index() * chunk;
  kb.for_(begin, min(begin + chunk, n), block, [&](Val<std::int64_t> b) {
    auto block_end = min(b + block, n);
    kb.for_(b + 1, block_end, [&](Val<std::int64_t> i) {
      Val<T> v = x[i];
      auto j = kb.var(i);
      kb.while_([&] { return j > b; }, [&] {
        Val<T> left = x[j - std::int64_t{1}];
        kb.if_(!Val<bool>(comp(v, left)), [&] { kb.break_(); });
        x[j] = left;
        j -= std::int64_t{1};
      });
      x[j] = v;
    });
  });
  return kb.finish();
}

/// One merge pass: sorted runs of `width` pair up (run 2p with run 2p + 1) into runs of
/// 2 * width in `dst`. Work-item g writes dst[g * seg, (g + 1) * seg): for each pair its
/// segment touches, a binary search on the merge path finds how many of the segment's first
/// outputs come from each run (co-rank), then it merges sequentially. Ties take the left run
/// first: stable.
template <class T, class Comp>
KernelDef build_merge_pass() {
  const Comp comp{};
  KernelBuilder kb("spvjit_merge_pass");
  auto src = kb.param<Const<T>>("src");
  auto dst = kb.param<Global<T>>("dst");
  auto n = kb.param<std::int64_t>("n");
  auto width = kb.param<std::int64_t>("width");
  auto seg = kb.param<std::int64_t>("seg");
  kb.inbounds().allow_padding().work_per_item(std::size_t{1} << 16);
  auto out_begin = kb.global_index() * seg;
  auto out_end = min(out_begin + seg, n);
  auto o = kb.var(out_begin);
  kb.while_([&] { return o < out_end; }, [&] {
    Val<std::int64_t> pair = o.get() / (width * std::int64_t{2}) * (width * std::int64_t{2});
    auto a_end = min(pair + width, n);
    auto b_end = min(pair + width * std::int64_t{2}, n);
    auto a_len = a_end - pair;
    auto b_len = b_end - a_end;
    auto t_begin = o.get() - pair;
    auto t_end = min(out_end, b_end) - pair;
    // Smallest i (outputs from run a among the first t_begin) where a[i] no longer precedes
    // b[t_begin - i - 1].
    auto lo = kb.var(max(kb.lit(std::int64_t{0}), t_begin - b_len));
    auto hi = kb.var(min(t_begin, a_len));
    kb.while_([&] { return lo < hi; }, [&] {
      Val<std::int64_t> mid = (lo.get() + hi.get()) / std::int64_t{2};
      Val<T> b_before = src[a_end + t_begin - mid - std::int64_t{1}];
      Val<T> a_mid = src[pair + mid];
      kb.if_else(!Val<bool>(comp(b_before, a_mid)), [&] { lo = mid + std::int64_t{1}; },
                 [&] { hi = mid; });
    });
    auto i = kb.var(lo.get());
    auto j = kb.var(t_begin - lo.get());
    kb.for_(t_begin, t_end, [&](Val<std::int64_t> t) {
      auto take_a = kb.var(false);
      kb.if_else(j >= b_len, [&] { take_a = kb.lit(true); }, [&] {
        kb.if_(i < a_len, [&] {
          take_a = !Val<bool>(comp(Val<T>(src[a_end + j.get()]), Val<T>(src[pair + i.get()])));
        });
      });
      kb.if_else(take_a.get(), [&] {
        dst[pair + t] = src[pair + i.get()].get();
        i += std::int64_t{1};
      }, [&] {
        dst[pair + t] = src[a_end + j.get()].get();
        j += std::int64_t{1};
      });
    });
    o = pair + t_end;
  });
  return kb.finish();
}

template <class T, class Comp>
const KernelDef& block_sort_kernel() {
  static const KernelDef def = build_block_sort<T, Comp>();
  return def;
}
template <class T, class Comp>
const KernelDef& merge_pass_kernel() {
  static const KernelDef def = build_merge_pass<T, Comp>();
  return def;
}

/// Elements per block that insertion sort orders before the merge passes.
inline constexpr std::size_t merge_block = 16;

template <class S>
void check_sort_memory(const char* algorithm, Algorithms& algs, const S& memory) {
  if (memory.size() != 0) check_runtime(algorithm, algs, owner_of(memory));
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
      std::sort(keys.data(), keys.data() + n, [](T a, T b) {
        return detail::total_order_bits(a) < detail::total_order_bits(b);
      });
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
  algs.kernel(detail::iota_kernel())
      .launch(NDRange{plan.count}, WorkGroup{1}, perm, static_cast<std::int64_t>(n),
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

/// Sorts `keys` in place by `comp` (a stateless functor on two Val<T> returning Val<bool>: a
/// strict weak order, as std::stable_sort's) with a merge sort; stable. A comparator that
/// declares `host_callable` also sorts small host-memory inputs on the calling thread.
template <AlgorithmMemory S, class Comp>
void sort(Algorithms& algs, const S& keys, Comp) {
  using T = typename S::value_type;
  static_assert(!std::is_same_v<T, half>, "sort: half keys are not supported; convert them to float first");
  static_assert(KernelScalar<T>, "sort: keys must be a kernel scalar type");
  detail::require_stateless<Comp>("comparator");
  const std::size_t n = keys.size();
  if (n <= 1) return;
  detail::check_sort_memory("sort", algs, keys);
  if constexpr (HostAddressable<S> && detail::declares_host_callable<Comp>()) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();
      std::stable_sort(keys.data(), keys.data() + n, Comp{});
      return;
    }
  }
  auto lock = algs.lock();
  const ChunkPlan plan = algs.chunks(n);
  constexpr std::size_t block = detail::merge_block;
  const std::size_t chunk = (plan.size + block - 1) / block * block;
  const std::size_t count = (n + chunk - 1) / chunk;
  const auto size = static_cast<std::int64_t>(n);
  algs.kernel(detail::block_sort_kernel<T, Comp>())
      .launch(NDRange{count}, WorkGroup{1}, keys, size, static_cast<std::int64_t>(chunk),
              static_cast<std::int64_t>(block));
  auto& other = algs.scratch<T>(detail::sort_merge, n);
  Kernel& merge = algs.kernel(detail::merge_pass_kernel<T, Comp>());
  bool in_other = false;
  for (std::size_t width = block; width < n; width *= 2) {
    if (in_other) {
      merge.launch(NDRange{plan.count}, WorkGroup{1}, other, keys, size,
                   static_cast<std::int64_t>(width), static_cast<std::int64_t>(plan.size));
    } else {
      merge.launch(NDRange{plan.count}, WorkGroup{1}, keys, other, size,
                   static_cast<std::int64_t>(width), static_cast<std::int64_t>(plan.size));
    }
    in_other = !in_other;
  }
  if (in_other) detail::copy_elements(algs, other, keys, n);
}

}  // namespace spvjit

SPVJIT_API_END
