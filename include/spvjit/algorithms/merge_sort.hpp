// The merge sort for a user comparator (sort(algs, keys, comp) in sort.hpp): blocks of 16
// insertion-sorted in place, then merge passes of doubling width, each work-item writing one
// segment of the output located by a merge-path binary search.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "spvjit/algorithms/chunked.hpp"
#include "spvjit/algorithms/context.hpp"
#include "spvjit/algorithms/functors.hpp"
#include "spvjit/algorithms/reduce.hpp"  // require_stateless
#include "spvjit/algorithms/sort_support.hpp"
#include "spvjit/builder.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {

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
  for_own_chunk(kb, n, chunk,
                [&](Val<std::int64_t>, Val<std::int64_t> begin, Val<std::int64_t> end) {
                  kb.for_(begin, end, block, [&](Val<std::int64_t> b) {
                    auto block_end = min(b + block, n);
                    kb.for_(b + 1, block_end, [&](Val<std::int64_t> i) {
                      Val<T> v = x[i];
                      auto j = kb.var(i);
                      kb.while_([&] { return j > b; },
                                [&] {
                                  Val<T> left = x[j - std::int64_t{1}];
                                  kb.if_(!Val<bool>(comp(v, left)), [&] { kb.break_(); });
                                  x[j] = left;
                                  j -= std::int64_t{1};
                                });
                      x[j] = v;
                    });
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
  kb.inbounds().allow_padding().work_per_item(chunk_weight);
  auto out_begin = kb.global_index() * seg;
  auto out_end = min(out_begin + seg, n);
  auto o = kb.var(out_begin);
  kb.while_(
      [&] { return o < out_end; },
      [&] {
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
        kb.while_([&] { return lo < hi; },
                  [&] {
                    Val<std::int64_t> mid = (lo.get() + hi.get()) / std::int64_t{2};
                    Val<T> b_before = src[a_end + t_begin - mid - std::int64_t{1}];
                    Val<T> a_mid = src[pair + mid];
                    kb.if_else(
                        !Val<bool>(comp(b_before, a_mid)), [&] { lo = mid + std::int64_t{1}; },
                        [&] { hi = mid; });
                  });
        auto i = kb.var(lo.get());
        auto j = kb.var(t_begin - lo.get());
        kb.for_(t_begin, t_end, [&](Val<std::int64_t> t) {
          auto take_a = kb.var(false);
          kb.if_else(
              j >= b_len, [&] { take_a = kb.lit(true); },
              [&] {
                kb.if_(i < a_len, [&] {
                  take_a =
                      !Val<bool>(comp(Val<T>(src[a_end + j.get()]), Val<T>(src[pair + i.get()])));
                });
              });
          kb.if_else(
              take_a.get(),
              [&] {
                dst[pair + t] = src[pair + i.get()].get();
                i += std::int64_t{1};
              },
              [&] {
                dst[pair + t] = src[a_end + j.get()].get();
                j += std::int64_t{1};
              });
        });
        o = pair + t_end;
      });
  return kb.finish();
}

/// Elements per block that insertion sort orders before the merge passes.
inline constexpr std::size_t merge_block = 16;

}  // namespace detail

/// Sorts `keys` in place by `comp` (a stateless functor on two Val<T> returning Val<bool>: a
/// strict weak order, as std::stable_sort's) with a merge sort; stable. A comparator that
/// declares `host_callable` also sorts small host-memory inputs on the calling thread.
template <AlgorithmMemory S, class Comp>
void sort(Algorithms& algs, const S& keys, Comp) {
  using T = typename S::value_type;
  static_assert(!std::is_same_v<T, half>,
                "sort: half keys are not supported; convert them to float first");
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
  algs.kernel<detail::build_block_sort<T, Comp>>().launch(NDRange{count}, WorkGroup{1}, keys, size,
                                                          static_cast<std::int64_t>(chunk),
                                                          static_cast<std::int64_t>(block));
  auto& other = algs.scratch<T>(detail::sort_merge, n);
  Kernel& merge = algs.kernel<detail::build_merge_pass<T, Comp>>();
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
