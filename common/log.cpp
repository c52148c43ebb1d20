#include "common/log.hpp"

#include <unistd.h>

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

void log_line(LogLevel level, const std::string& message) {
  std::string line = level == LogLevel::Debug ? "[spvjit debug] " : "[spvjit info] ";
  line += message;
  line += '\n';
  // One write(2) per line, so lines from several threads do not interleave mid-line.
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace spvjit::detail
