#include "common/env.hpp"

#include <cstdlib>

#include "common/error_report.hpp"
#include "spvjit/error.hpp"

namespace spvjit::detail {

namespace {

bool same_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) {
      return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace

void throw_bad_env(const char* name, std::string_view value, const std::string& expected) {
  // The setting is where the error arose: whichever call read the variable, it is the one to fix.
  const std::string setting = std::string(name) + "='" + std::string(value) + "'";
  user_error({setting}) << "expected " << expected;
  std::abort();  // not reached: the report throws at the end of its statement
}

std::optional<std::string> env_value(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

bool parse_flag(const char* name, std::string_view value) {
  // Pairs of (true, false) spellings.
  static constexpr std::string_view spellings[][2] = {
      {"on", "off"}, {"true", "false"}, {"yes", "no"}, {"1", "0"}};
  for (const auto& pair : spellings) {
    if (same_ignoring_case(value, pair[0])) return true;
    if (same_ignoring_case(value, pair[1])) return false;
  }
  throw_bad_env(name, value, "on or off (or true/false, yes/no, 1/0; any case)");
}

std::optional<bool> env_flag(const char* name) {
  const auto v = env_value(name);
  if (!v) return std::nullopt;
  return parse_flag(name, *v);
}

std::size_t parse_choice(const char* name, std::string_view value,
                         std::initializer_list<std::string_view> choices) {
  std::size_t index = 0;
  std::string listed;
  for (std::string_view choice : choices) {
    if (same_ignoring_case(value, choice)) return index;
    listed += (index++ ? ", " : "") + std::string(choice);
  }
  throw_bad_env(name, value, "one of " + listed + " (any case)");
}

std::optional<std::size_t> env_choice(const char* name,
                                      std::initializer_list<std::string_view> choices) {
  const auto v = env_value(name);
  if (!v) return std::nullopt;
  return parse_choice(name, *v, choices);
}

std::uint64_t parse_number(const char* name, std::string_view value, std::uint64_t min,
                           std::uint64_t max, const char* what) {
  // By hand rather than strtoull, which skips leading space and accepts a sign ("-4" wraps to
  // 2^64-4).
  std::uint64_t v = 0;
  bool ok = !value.empty();
  for (char c : value) {
    if (c < '0' || c > '9' || __builtin_mul_overflow(v, 10u, &v) ||
        __builtin_add_overflow(v, static_cast<unsigned>(c - '0'), &v)) {
      ok = false;
      break;
    }
  }
  if (!ok || v < min || v > max) {
    throw_bad_env(
        name, value,
        std::string(what) + " from " + std::to_string(min) + " to " + std::to_string(max));
  }
  return v;
}

std::optional<std::uint64_t> env_number(const char* name, std::uint64_t min, std::uint64_t max,
                                        const char* what) {
  const auto v = env_value(name);
  if (!v) return std::nullopt;
  return parse_number(name, *v, min, max, what);
}

}  // namespace spvjit::detail
