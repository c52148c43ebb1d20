// Warnings to stderr, each at most once per process: a broken cache directory or a corrupt entry
// should be reported, not repeated on every compile. Tests read the count and the last message.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spvjit::detail {

/// Prints "spvjit: warning: <message>" to stderr unless a warning with the same `topic` was
/// printed before in this process. Thread-safe; never throws.
void warn_once(std::string_view topic, const std::string& message) noexcept;

/// Warnings printed so far, and the last one (for tests).
std::uint64_t warning_count() noexcept;
std::string last_warning();

}  // namespace spvjit::detail
