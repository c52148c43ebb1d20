// spvjit's one channel to stderr, every line "[spvjit <kind>] <message>" in one write:
// - warnings, always printed, each topic at most once per process: a broken cache directory or a
//   corrupt entry should be reported, not repeated on every compile;
// - diagnostics behind SPVJIT_LOG=info|debug: compiles, cache hits and misses, the device
//   choice. Off by default; when off, a log statement costs one load and one branch, and its
//   message is never formatted (SPVJIT_LOG_AT evaluates the message only when the level is on).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spvjit::detail {

enum class LogLevel : int { Off = 0, Info = 1, Debug = 2 };

/// SPVJIT_LOG's level: off, info or debug (any case; unset or empty: off). Anything else throws
/// UserError; Runtime's constructor calls this, so a bad value stops the first Runtime.
LogLevel log_level_from_env();

/// The level from SPVJIT_LOG, read once per process (a bad value reads as off here).
LogLevel log_level() noexcept;

inline bool log_enabled(LogLevel level) noexcept {
  return static_cast<int>(level) <= static_cast<int>(log_level());
}

/// Writes "[spvjit <level>] <message>" to stderr as one write.
void log_line(LogLevel level, const std::string& message);

/// Writes "[spvjit warning] <message>" unless a warning with the same `topic` was written before
/// in this process. Thread-safe; never throws.
void warn_once(std::string_view topic, const std::string& message) noexcept;
/// Warnings written so far, and the last one (for tests).
std::uint64_t warning_count() noexcept;
std::string last_warning();

}  // namespace spvjit::detail

#define SPVJIT_LOG_AT(level, message)             \
  do {                                            \
    if (::spvjit::detail::log_enabled(level)) {   \
      ::spvjit::detail::log_line(level, message); \
    }                                             \
  } while (0)
#define SPVJIT_LOG_INFO(message) SPVJIT_LOG_AT(::spvjit::detail::LogLevel::Info, message)
#define SPVJIT_LOG_DEBUG(message) SPVJIT_LOG_AT(::spvjit::detail::LogLevel::Debug, message)
