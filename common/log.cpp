#include "common/log.hpp"

#include <unistd.h>

#include <mutex>
#include <set>

#include "common/env.hpp"

namespace spvjit::detail {

LogLevel log_level_from_env() {
  const auto choice = env_choice("SPVJIT_LOG", {"off", "info", "debug"});
  return choice ? static_cast<LogLevel>(*choice) : LogLevel::Off;
}

LogLevel log_level() noexcept {
  // A bad value reads as off here; Runtime's constructor reports it (log_level_from_env).
  static const LogLevel level = [] {
    try {
      return log_level_from_env();
    } catch (...) {
      return LogLevel::Off;
    }
  }();
  return level;
}

namespace {

// One write(2) per line, so lines from several threads do not interleave mid-line.
void write_line(const char* prefix, const std::string& message) {
  std::string line = prefix;
  line += message;
  line += '\n';
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
}

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

void log_line(LogLevel level, const std::string& message) {
  write_line(level == LogLevel::Debug ? "[spvjit debug] " : "[spvjit info] ", message);
}

void warn_once(std::string_view topic, const std::string& message) noexcept {
  try {
    auto& w = warnings();
    std::lock_guard<std::mutex> lock(w.mutex);
    if (!w.topics.emplace(topic).second) return;
    ++w.count;
    w.last = message;
    write_line("[spvjit warning] ", message);
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
