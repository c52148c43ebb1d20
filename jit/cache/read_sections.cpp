#include "jit/cache/read_sections.hpp"

#include <thread>

namespace spvjit::detail {

namespace {

// A thread's shared counter from its thread pointer: threads' control blocks lie pages apart.
unsigned shared_slot() noexcept {
  const auto tp = reinterpret_cast<std::uintptr_t>(__builtin_thread_pointer());
  return static_cast<unsigned>((tp >> 12) ^ (tp >> 20)) % ReadSections::shared_slots;
}

}  // namespace

ReadSections& ReadSections::process() {
  static ReadSections* const sections = new ReadSections;
  return *sections;
}

ReadSections::Section ReadSections::enter_shared(std::uint32_t parity) noexcept {
  auto& count = shared_[shared_slot()].open[parity];
  count.fetch_add(1, std::memory_order_seq_cst);
  return Section(nullptr, &count, max_thread_slots);
}

void ReadSections::wait_for_readers() {
  std::lock_guard<std::mutex> lock(writer_mutex_);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  // Refused only by a kernel that took the registration: then the slots' sections are waited
  // for as seen, without the ordering (never observed; see common/thread_slots.hpp).
  fence_all_threads();
  for (int flip = 0; flip < 2; ++flip) {
    const std::uint32_t old = epoch_.fetch_add(1, std::memory_order_seq_cst) & 1;
    // A section is a lookup of tens of nanoseconds: waiting is for a reader that was
    // descheduled inside one.
    for (Own& slot : own_) {
      while (slot.state.load(std::memory_order_acquire) == 1 + old) std::this_thread::yield();
    }
    for (Shared& slot : shared_) {
      while (slot.open[old].load(std::memory_order_seq_cst) != 0) std::this_thread::yield();
    }
  }
}

}  // namespace spvjit::detail
