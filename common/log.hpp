// Diagnostics behind SPVJIT_LOG=info|debug: compiles, cache hits and misses, the device choice.
// Off by default; when off, a log statement costs one load and one branch, and its message is
// never formatted (SPVJIT_LOG_AT evaluates the message only when the level is on).
#pragma once

#include <string>

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

}  // namespace spvjit::detail

#define SPVJIT_LOG_AT(level, message)                                  \
  do {                                                                 \
    if (::spvjit::detail::log_enabled(level)) {                        \
      ::spvjit::detail::log_line(level, message);                      \
    }                                                                  \
  } while (0)
#define SPVJIT_LOG_INFO(message) SPVJIT_LOG_AT(::spvjit::detail::LogLevel::Info, message)
#define SPVJIT_LOG_DEBUG(message) SPVJIT_LOG_AT(::spvjit::detail::LogLevel::Debug, message)
