// KernelTable: the in-memory kernel cache. A warm lookup is lock-free and allocates nothing: a
// fixed array of bucket heads points to nodes that are immutable once linked in and live as
// long as the table. Linking a node in takes a mutex held for a few instructions, never during a
// compile; each node's own mutex makes the threads that want one new kernel compile it once.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

#include "ir/kernel_module.hpp"
#include "spvjit/kernel.hpp"
#include "spvjit/kernel_def.hpp"

namespace spvjit::detail {

/// A kernel's in-memory identity: its content plus the static sizes compiled in. Build options
/// and the device are fixed per Jit, so they are not part of it.
struct MemoryKey {
  std::uint64_t hash = 0;  ///< the content hash mixed with the sizes
  const KernelDef* def = nullptr;
  std::array<std::size_t, 4> workgroup{};  ///< {dims, x, y, z}; all 0 when dynamic
  std::array<std::size_t, 4> ndrange{};
};

/// The MemoryKey of `def` specialized for `spec` (already normalized).
MemoryKey memory_key(const KernelDef& def, const Specialization& spec) noexcept;

class KernelTable {
 public:
  struct Node {
    // Immutable once linked in.
    std::uint64_t hash = 0;
    KernelDef def;  ///< keeps the content alive for comparisons
    std::array<std::size_t, 4> workgroup{};
    std::array<std::size_t, 4> ndrange{};
    Node* next = nullptr;
    // Written once, under compile_mutex, before `ready` is released.
    std::mutex compile_mutex;
    Kernel kernel;
    std::atomic<bool> ready{false};
  };

  KernelTable() = default;
  KernelTable(const KernelTable&) = delete;
  KernelTable& operator=(const KernelTable&) = delete;
  ~KernelTable();

  /// The node for `key`, or null. Lock-free, allocation-free.
  Node* find(const MemoryKey& key) const noexcept;
  /// The node for `key`, linked in (not yet compiled) if it was missing.
  Node& find_or_insert(const MemoryKey& key);

 private:
  // 1024 heads (8 KiB): chains stay short for any program's worth of kernel variants, and the
  // table never resizes, which is what lets readers go without a lock.
  static constexpr std::size_t bucket_count = 1024;
  std::array<std::atomic<Node*>, bucket_count> buckets_{};
  std::mutex insert_mutex_;
};

}  // namespace spvjit::detail
