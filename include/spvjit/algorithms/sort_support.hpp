// What the sorts share: their scratch slots, a chunked copy and iota, and the checks of their
// memory arguments.
#pragma once

#include <cstdint>

#include "spvjit/algorithms/chunked.hpp"
#include "spvjit/algorithms/context.hpp"
#include "spvjit/builder.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {

/// Scratch slots of the sorts (10..19; other families use others).
enum SortSlot : unsigned {
  sort_keys_b = 10,
  sort_keys_a = 11,
  sort_counts = 12,
  sort_values_b = 13,
  sort_bounds = 14,
  sort_merge = 15,
};

/// dst[i] = src[i], a chunk per work-item.
template <class T>
KernelDef build_copy() {
  KernelBuilder kb("spvjit_copy");
  auto src = kb.param<Const<T>>("src");
  auto dst = kb.param<Global<T>>("dst");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  for_own_chunk(kb, n, chunk,
                [&](Val<std::int64_t>, Val<std::int64_t> begin, Val<std::int64_t> end) {
                  kb.for_(begin, end, [&](Val<std::int64_t> j) { dst[j] = src[j].get(); });
                });
  return kb.finish();
}

/// out[i] = i, a chunk per work-item.
inline KernelDef build_iota() {
  KernelBuilder kb("spvjit_iota");
  auto out = kb.param<Global<std::int64_t>>("out");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  for_own_chunk(kb, n, chunk,
                [&](Val<std::int64_t>, Val<std::int64_t> begin, Val<std::int64_t> end) {
                  kb.for_(begin, end, [&](Val<std::int64_t> j) { out[j] = j; });
                });
  return kb.finish();
}

template <class S>
void copy_elements(Algorithms& algs, const auto& src, const S& dst, std::size_t n) {
  using T = typename S::value_type;
  const ChunkPlan plan = algs.chunks(n);
  algs.kernel<build_copy<T>>().launch(NDRange{plan.count}, WorkGroup{1}, src, dst,
                                      static_cast<std::int64_t>(n),
                                      static_cast<std::int64_t>(plan.size));
}

template <class S>
void check_sort_memory(const char* algorithm, Algorithms& algs, const S& memory) {
  if (memory.size() != 0) check_runtime(algorithm, algs, owner_of(memory));
}

}  // namespace detail

}  // namespace spvjit

SPVJIT_API_END
