// How many buffers, views and shared arrays spvjit has released in this process. A kernel object
// remembers the handles it was last given so a launch can skip setting them again; but a released
// handle's address can come back as another object's, and PoCL's clSetKernelArg keeps a view as
// its parent and offset, retaining neither. So a launch that finds this count changed since its
// kernel's last launch sets every argument anew (runtime/launch.cpp).
#pragma once

#include <atomic>
#include <cstdint>

namespace spvjit::detail {

inline std::atomic<std::uint64_t> released_memory{0};

/// Counts a release; called before the handle is given back, so no launch that reads the old
/// count can meet the address reused.
inline void note_memory_released() noexcept {
  released_memory.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace spvjit::detail
