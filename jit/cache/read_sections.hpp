// ReadSections: lets lock-free readers walk linked nodes that a writer may unlink and free. A
// reader brackets its walk in a Section; a writer unlinks nodes, then calls wait_for_readers(),
// after which no reader can still hold an unlinked node, and frees them. One registry serves
// the whole process (every Jit's table).
//
// How: a thread with a slot of its own (common/thread_slots.hpp) stores "inside, in this
// epoch's parity" into its slot's state and 0 when the section ends: two plain stores on a line
// no other thread writes, no fence. The writer supplies the fence: after unlinking it calls
// fence_all_threads(), so a reader either stored "inside" before the barrier ran on its core
// (and the writer sees it) or loads the chain after it (and sees the unlink). A thread without
// a slot counts its sections in shared counters with two atomic read-modify-writes instead.
// The writer then flips the epoch and waits for the old parity's sections to end, twice, so
// both parities were seen empty after the unlink; flipping first is what lets a check finish
// while new sections keep opening: they are in the other parity.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

#include "common/thread_slots.hpp"

namespace spvjit::detail {

class ReadSections {
 public:
  static constexpr unsigned shared_slots = 16;

  class Section {
   public:
    Section(const Section&) = delete;
    Section& operator=(const Section&) = delete;
    ~Section() {
      if (state_) {
        state_->store(0, std::memory_order_release);
      } else {
        count_->fetch_sub(1, std::memory_order_release);
      }
    }
    /// This thread's slot, or max_thread_slots when it has none (SlotCounters).
    unsigned slot() const noexcept { return slot_; }

   private:
    friend class ReadSections;
    Section(std::atomic<std::uint32_t>* state, std::atomic<std::uint32_t>* count,
            unsigned slot) noexcept
        : state_(state), count_(count), slot_(slot) {}
    std::atomic<std::uint32_t>* state_;
    std::atomic<std::uint32_t>* count_;
    unsigned slot_;
  };

  /// The process's registry (never destroyed: threads may read while the process exits).
  static ReadSections& process();

  /// Opens a section on this thread. Loads of linked pointers inside it must be seq_cst.
  Section enter() noexcept {
    const int slot = thread_slot();
    const std::uint32_t parity = epoch_.load(std::memory_order_relaxed) & 1;
    if (slot >= 0) {
      auto& state = own_[static_cast<unsigned>(slot)].state;
      state.store(1 + parity, std::memory_order_relaxed);
      // No hardware fence: the writer's fence_all_threads orders this store before the loads.
      std::atomic_signal_fence(std::memory_order_seq_cst);
      return Section(&state, nullptr, static_cast<unsigned>(slot));
    }
    return enter_shared(parity);
  }
  /// Returns once every section opened before the call has closed. Writers are serialized.
  void wait_for_readers();

 private:
  ReadSections() = default;
  Section enter_shared(std::uint32_t parity) noexcept;

  struct alignas(64) Own {
    std::atomic<std::uint32_t> state{0};  ///< 0 outside, 1 + epoch parity inside
  };
  struct alignas(64) Shared {
    std::array<std::atomic<std::uint32_t>, 2> open{};
  };
  std::array<Own, max_thread_slots> own_{};
  std::array<Shared, shared_slots> shared_{};
  std::atomic<std::uint32_t> epoch_{0};
  std::mutex writer_mutex_;
};

/// A counter per thread slot (ReadSections::Section::slot), each on its own cache line: a
/// thread with a slot counts with a plain load and store, the others with an atomic add on the
/// last one.
class SlotCounters {
 public:
  void add(unsigned slot) noexcept {
    auto& c = counts_[slot].value;
    if (slot < max_thread_slots) {
      c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    } else {
      c.fetch_add(1, std::memory_order_relaxed);
    }
  }
  std::uint64_t sum() const noexcept {
    std::uint64_t s = 0;
    for (const auto& c : counts_) s += c.value.load(std::memory_order_relaxed);
    return s;
  }

 private:
  struct alignas(64) Padded {
    std::atomic<std::uint64_t> value{0};
  };
  std::array<Padded, max_thread_slots + 1> counts_{};
};

}  // namespace spvjit::detail
