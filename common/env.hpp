// The environment variables spvjit reads, under one rule: unset or empty means "not given" (the
// option or the default applies); any other value must be one the variable accepts, else the
// reader throws UserError "NAME='value': expected <what it accepts>" — never a silent default,
// never an exit. Each variable is read where its object is built: SPVJIT_LOG, SPVJIT_DEVICE and
// the adaptive-dispatch numbers by Runtime's constructor, SPVJIT_CACHE, SPVJIT_CACHE_DIR and
// SPVJIT_COARSEN by Jit's (and the cache functions disk_cache_info, clear_disk_cache).
//
// The parse_* functions take the value as an argument, so tests check every spelling without
// changing their own environment; the env_* ones read the variable and apply them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace spvjit::detail {

/// The value of the variable `name`; nothing when it is unset or empty.
std::optional<std::string> env_value(const char* name);

/// on/off, true/false, yes/no or 1/0, in any case.
bool parse_flag(const char* name, std::string_view value);
std::optional<bool> env_flag(const char* name);

/// The index of `value` among `choices` (compared in any case).
std::size_t parse_choice(const char* name, std::string_view value,
                         std::initializer_list<std::string_view> choices);
std::optional<std::size_t> env_choice(const char* name,
                                      std::initializer_list<std::string_view> choices);

/// A decimal number from `min` to `max`: digits only, no sign, space or suffix. `what` names
/// the quantity for the error ("a number of threads").
std::uint64_t parse_number(const char* name, std::string_view value, std::uint64_t min,
                           std::uint64_t max, const char* what);
std::optional<std::uint64_t> env_number(const char* name, std::uint64_t min, std::uint64_t max,
                                        const char* what);

/// The UserError every parser throws: "NAME='value': expected <expected>".
[[noreturn]] void throw_bad_env(const char* name, std::string_view value,
                                const std::string& expected);

}  // namespace spvjit::detail
