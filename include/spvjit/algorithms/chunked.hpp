// What the chunked kernels share: work-item g owns the elements [g * chunk, min(n, (g + 1) *
// chunk)) of the input (Algorithms::chunks), runs them from first to last, and never waits on
// another work-item.
#pragma once

#include <cstddef>
#include <cstdint>

#include "spvjit/builder.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit::detail {

/// The indices a chunk's work-item declares (KernelBuilder::work_per_item): enough that an
/// adaptive Runtime splits a launch of even a few chunks over its threads.
inline constexpr std::size_t chunk_weight = std::size_t{1} << 16;

/// Declares the kernel chunked — no bounds checks (a chunk's indices stay inside [0, n) by
/// construction), padding allowed, chunk_weight — and builds body(g, begin, end) for the
/// work-items whose chunk is not empty.
template <class Body>
void for_own_chunk(KernelBuilder& kb, Val<std::int64_t> n, Val<std::int64_t> chunk, Body&& body) {
  kb.inbounds().allow_padding().work_per_item(chunk_weight);
  auto g = kb.global_index();
  auto begin = g * chunk;
  kb.if_(begin < n, [&] { body(g, begin, min(begin + chunk, n)); });
}

}  // namespace spvjit::detail

SPVJIT_API_END
