#include "jit/warn.hpp"

#include <cstdio>
#include <mutex>
#include <set>

namespace spvjit::detail {

namespace {
struct Warnings {
  std::mutex mutex;
  std::set<std::string, std::less<>> topics;
  std::uint64_t count = 0;
  std::string last;
};
Warnings& warnings() {
  static Warnings w;  // built on first use, so a Jit in another static can warn safely
  return w;
}
}  // namespace

void warn_once(std::string_view topic, const std::string& message) noexcept {
  try {
    auto& w = warnings();
    std::lock_guard<std::mutex> lock(w.mutex);
    if (!w.topics.emplace(topic).second) return;
    ++w.count;
    w.last = message;
    std::fprintf(stderr, "spvjit: warning: %s\n", message.c_str());
  } catch (...) {
    // Out of memory while warning: dropping the warning beats ending the process.
  }
}

std::uint64_t warning_count() noexcept {
  auto& w = warnings();
  std::lock_guard<std::mutex> lock(w.mutex);
  return w.count;
}

std::string last_warning() {
  auto& w = warnings();
  std::lock_guard<std::mutex> lock(w.mutex);
  return w.last;
}

}  // namespace spvjit::detail
