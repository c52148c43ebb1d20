// KernelTable: the in-memory kernel cache. A warm lookup is lock-free and allocates nothing: a
// fixed array of bucket heads points to chains of nodes, walked inside a read section
// (read_sections.hpp).
// Linking a node in or out takes a mutex held for a few instructions, never during a compile;
// each node's own mutex makes the threads that want one new kernel compile it once.
//
// Past a budget of bytes the least recently used compiled kernels that no Kernel handle holds
// are unlinked and freed once no lookup can still see them (ReadSections::wait_for_readers),
// which releases their OpenCL program; asking for one again compiles it again (the disk cache
// makes that a load).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

#include "ir/kernel_module.hpp"
#include "jit/cache/read_sections.hpp"
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

/// What the table did so far and holds now.
struct TableCounts {
  std::uint64_t hits = 0;       ///< lookups that found a compiled kernel
  std::uint64_t misses = 0;     ///< lookups that did not, so a compile (or wait) followed
  std::uint64_t evictions = 0;  ///< compiled kernels unlinked past the budget
  std::uint64_t entries = 0;    ///< compiled kernels held
  std::uint64_t bytes = 0;      ///< their estimated bytes (Node::bytes)
};

class KernelTable {
 public:
  struct Node {
    // Immutable once linked in.
    std::uint64_t hash = 0;
    KernelDef def;  ///< keeps the content alive for comparisons
    std::array<std::size_t, 4> workgroup{};
    std::array<std::size_t, 4> ndrange{};
    std::atomic<Node*> next{nullptr};  ///< seq_cst, as ReadSections asks
    // Written once, under compile_mutex, before `ready` is released.
    std::mutex compile_mutex;
    Kernel kernel;
    std::uint64_t bytes = 0;  ///< what holding `kernel` costs, estimated by the compiler
    std::atomic<bool> ready{false};
    // Eviction's bookkeeping.
    std::atomic<std::uint64_t> last_used{0};  ///< the table's clock at the latest use
    std::atomic<std::uint32_t> pins{0};       ///< Pins alive: never evicted while nonzero
  };

  /// Keeps a node linked and alive while its compile (or the wait for another thread's) runs.
  class Pin {
   public:
    explicit Pin(Node& node) noexcept : node_(&node) {}
    Pin(const Pin&) = delete;
    Pin& operator=(const Pin&) = delete;
    ~Pin() { node_->pins.fetch_sub(1, std::memory_order_release); }
    Node& operator*() const noexcept { return *node_; }
    Node* operator->() const noexcept { return node_; }

   private:
    Node* node_;
  };

  /// 0 bytes: no compiled kernel is kept once no handle holds it.
  explicit KernelTable(std::uint64_t budget_bytes) : budget_(budget_bytes) {}
  KernelTable(const KernelTable&) = delete;
  KernelTable& operator=(const KernelTable&) = delete;
  ~KernelTable();

  /// The compiled kernel for `key` into `out`; false (a miss) when there is none yet. Lock-free,
  /// allocation-free.
  bool lookup(const MemoryKey& key, Kernel& out) noexcept;
  /// The node for `key`, linked in (not yet compiled) if it was missing, pinned.
  Pin pin(const MemoryKey& key);
  /// `kernel` compiled for the pinned node (under its compile_mutex), costing `bytes`; then
  /// evicts past the budget.
  void publish(Node& node, Kernel kernel, std::uint64_t bytes);
  TableCounts counts() const noexcept;
  std::uint64_t budget() const noexcept { return budget_; }

 private:
  Node* find(const MemoryKey& key) const noexcept;
  void touch(Node& node) const noexcept;
  /// Unlinks the least recently used unheld kernels until the bytes held fit the budget, and
  /// nodes whose compile failed; frees them once no lookup can see them.
  void evict();

  // 1024 heads (8 KiB): chains stay short for any program's worth of kernel variants, and the
  // table never resizes, which is what lets readers go without a lock.
  static constexpr std::size_t bucket_count = 1024;
  std::array<std::atomic<Node*>, bucket_count> buckets_{};
  std::mutex links_mutex_;  ///< held to link or unlink a node
  SlotCounters hits_;
  const std::uint64_t budget_;
  std::atomic<std::uint64_t> clock_{0};  ///< advanced by every miss: LRU's time
  std::atomic<std::uint64_t> misses_{0};
  std::atomic<std::uint64_t> evictions_{0};
  std::atomic<std::uint64_t> entries_{0};
  std::atomic<std::uint64_t> bytes_{0};
};

}  // namespace spvjit::detail
