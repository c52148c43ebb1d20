#include "common/thread_slots.hpp"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>

namespace spvjit::detail {

namespace thread_slots_detail {

__thread int slot __attribute__((tls_model("initial-exec"))) = -2;

namespace {

int membarrier(int command) noexcept {
  return static_cast<int>(::syscall(__NR_membarrier, command, 0, 0));
}

struct Registry {
  // Registered once, at the first claim: MEMBARRIER_CMD_PRIVATE_EXPEDITED fails until it is.
  std::atomic<bool> fenced{membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0};
  std::array<std::atomic<bool>, max_thread_slots> taken{};
};

// Never destroyed: threads claim and fence while exit() runs.
Registry& registry() {
  static Registry* const r = new Registry;
  return *r;
}

}  // namespace

// No thread-exit hook gives a slot back (registering one allocates): a host whose threads come
// and go uses up the slots, and its later threads count themselves the atomic way.
int claim() noexcept {
  Registry& r = registry();
  int claimed = -1;
  if (r.fenced.load(std::memory_order_acquire)) {
    for (int i = 0; i < max_thread_slots; ++i) {
      bool expected = false;
      if (!r.taken[i].load(std::memory_order_relaxed) &&
          r.taken[i].compare_exchange_strong(expected, true, std::memory_order_relaxed)) {
        claimed = i;
        break;
      }
    }
  }
  slot = claimed;
  return claimed;
}

}  // namespace thread_slots_detail

bool fence_all_threads() noexcept {
  using namespace thread_slots_detail;
  Registry& r = registry();
  if (!r.fenced.load(std::memory_order_acquire)) return false;
  if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return true;
  // A child of fork() may have lost the registration: register again once.
  if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0 &&
      membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) {
    return true;
  }
  r.fenced.store(false, std::memory_order_release);
  return false;
}

}  // namespace spvjit::detail
