#include "common/group_stack.hpp"

#include <pthread.h>

#include <algorithm>

namespace spvjit::detail {

std::uint64_t default_thread_stack_bytes() {
  // glibc's own fallback (ARCH_STACK_DEFAULT_SIZE on x86-64) should the query fail.
  std::size_t bytes = std::size_t{2} << 20;
  pthread_attr_t attr;
  if (pthread_getattr_default_np(&attr) == 0) {
    std::size_t size = 0;
    if (pthread_attr_getstacksize(&attr, &size) == 0 && size != 0) bytes = size;
    pthread_attr_destroy(&attr);
  }
  return bytes;
}

std::string GroupStack::refusal(const std::string& group, std::size_t items) const {
  const std::string where =
      " bytes on the stack of the thread that runs the group (PoCL keeps each work-item's "
      "private arrays and values held across barrier() there); a group may use half of that "
      "thread's " +
      std::to_string(thread_stack) + "-byte stack, " + std::to_string(budget()) + " bytes";
  if (per_item > budget()) {
    return "one work-item alone would keep " + std::to_string(per_item) + where +
           ": use smaller private arrays or hold fewer values across barrier()";
  }
  std::uint64_t total = 0;
  const bool overflows =
      __builtin_mul_overflow(static_cast<std::uint64_t>(items), per_item, &total);
  return group + " would keep " + std::to_string(items) + " x " + std::to_string(per_item) +
         (overflows ? std::string(" (over 2^64)") : " = " + std::to_string(total)) + where +
         ": use a workgroup of at most " + std::to_string(max_items()) +
         " work-items (or let spvjit choose one), or hold fewer values across barrier()";
}

}  // namespace spvjit::detail
