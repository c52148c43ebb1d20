// Whole-process heap allocation counts, for tests and benchmarks: linking this object into an
// executable interposes malloc, calloc, realloc and the aligned allocators (operator new ends
// in malloc), so allocations made by OpenCL, PoCL and spvjit are all counted.
#pragma once

#include <cstdint>

namespace spvjit::support {

struct AllocCounts {
  std::uint64_t allocations = 0;  ///< malloc/calloc/realloc/aligned calls that returned memory
  std::uint64_t bytes = 0;        ///< bytes requested by them
};

/// Totals since the process started (all threads).
AllocCounts alloc_counts() noexcept;

/// Allocations and bytes made while `fn` ran (all threads).
template <class F>
AllocCounts count_allocations(F&& fn) {
  const AllocCounts before = alloc_counts();
  fn();
  const AllocCounts after = alloc_counts();
  return {after.allocations - before.allocations, after.bytes - before.bytes};
}

}  // namespace spvjit::support
