#include "jit/cache/read_sections.hpp"

#include <thread>

namespace spvjit::detail {

namespace {

// Threads take slots round robin on their first section: a slot is mostly one thread's, so a
// section's two atomic operations rarely move a cache line between cores.
unsigned this_thread_slot() noexcept {
  static std::atomic<unsigned> next{0};
  thread_local const unsigned slot =
      next.fetch_add(1, std::memory_order_relaxed) % ReadSections::slot_count;
  return slot;
}

}  // namespace

ReadSections::Section ReadSections::enter() noexcept {
  Slot& slot = slots_[this_thread_slot()];
  // Either parity is safe (wait_for_readers checks both); the current one lets a writer's
  // check of the other finish.
  auto& count = slot.open[epoch_.load(std::memory_order_relaxed) & 1];
  count.fetch_add(1, std::memory_order_seq_cst);
  return Section(&count, &slot.hits);
}

void ReadSections::wait_for_readers() {
  std::lock_guard<std::mutex> lock(writer_mutex_);
  for (int flip = 0; flip < 2; ++flip) {
    const unsigned old = epoch_.fetch_add(1, std::memory_order_seq_cst) & 1;
    for (Slot& slot : slots_) {
      // A section is a lookup of tens of nanoseconds: waiting is for a reader that was
      // descheduled inside one.
      while (slot.open[old].load(std::memory_order_seq_cst) != 0) std::this_thread::yield();
    }
  }
}

std::uint64_t ReadSections::hits() const noexcept {
  std::uint64_t sum = 0;
  for (const Slot& slot : slots_) sum += slot.hits.load(std::memory_order_relaxed);
  return sum;
}

}  // namespace spvjit::detail
