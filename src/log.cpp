#include "src/log.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace spvjit::detail {

namespace {
LogLevel read_level() noexcept {
  const char* env = std::getenv("SPVJIT_LOG");
  if (!env || !*env || std::strcmp(env, "off") == 0 || std::strcmp(env, "0") == 0) return LogLevel::Off;
  if (std::strcmp(env, "info") == 0) return LogLevel::Info;
  if (std::strcmp(env, "debug") == 0) return LogLevel::Debug;
  static const char warning[] = "[spvjit warning] SPVJIT_LOG must be off, info or debug; logging stays off\n";
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, warning, sizeof warning - 1);
  return LogLevel::Off;
}
}  // namespace

LogLevel log_level() noexcept {
  static const LogLevel level = read_level();
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
