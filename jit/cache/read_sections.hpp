// ReadSections: lets lock-free readers walk linked nodes that a writer may unlink and free. A
// reader brackets its walk in a Section (two atomic operations on a cache line its thread
// mostly has to itself, no lock, no allocation); a writer unlinks nodes, then calls
// wait_for_readers(), after which no reader can still hold an unlinked node, and frees them.
//
// How: each thread counts its open sections in one of `slot_count` padded slots, split by the
// parity of an epoch. wait_for_readers() flips the epoch and waits for the old parity's counts
// to drain, twice, so both parities were seen empty after the unlink: a section counted
// before a check is waited for, and one counted after it began its walk after the unlink
// (every operation involved is seq_cst, so the walk's loads see the unlinked chain). Flipping
// first is what lets a check finish while new sections keep opening: they count in the
// other parity.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

namespace spvjit::detail {

class ReadSections {
 public:
  static constexpr unsigned slot_count = 16;

  class Section {
   public:
    Section(const Section&) = delete;
    Section& operator=(const Section&) = delete;
    ~Section() { count_->fetch_sub(1, std::memory_order_release); }
    /// Counted per thread slot, summed by ReadSections::hits().
    void count_hit() const noexcept { hits_->fetch_add(1, std::memory_order_relaxed); }

   private:
    friend class ReadSections;
    Section(std::atomic<std::uint32_t>* count, std::atomic<std::uint64_t>* hits) noexcept
        : count_(count), hits_(hits) {}
    std::atomic<std::uint32_t>* count_;
    std::atomic<std::uint64_t>* hits_;
  };

  ReadSections() = default;
  ReadSections(const ReadSections&) = delete;
  ReadSections& operator=(const ReadSections&) = delete;

  /// Opens a section on this thread's slot. Loads of linked pointers inside it must be seq_cst.
  Section enter() noexcept;
  /// Returns once every section opened before the call has closed. Writers are serialized.
  void wait_for_readers();
  /// count_hit() calls so far, all threads.
  std::uint64_t hits() const noexcept;

 private:
  struct alignas(64) Slot {
    std::array<std::atomic<std::uint32_t>, 2> open{};
    std::atomic<std::uint64_t> hits{0};
  };
  std::array<Slot, slot_count> slots_{};
  std::atomic<std::uint32_t> epoch_{0};
  std::mutex writer_mutex_;
};

}  // namespace spvjit::detail
