// The subcommands of the `spvjit` tool. Each returns the process exit code (see spvjit_cli.cpp).
#pragma once

#include <span>
#include <string>

namespace spvjit::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;  ///< the command ran and failed (no device, bad kernel)
inline constexpr int exit_usage = 2;    ///< the command line was wrong

int devices(std::span<const std::string> args);
int dump(std::span<const std::string> args);
int cache(std::span<const std::string> args);
int bench(std::span<const std::string> args, const char* argv0);

/// Names accepted by `spvjit dump`, one per line, for help text and errors.
std::string example_kernel_names();

}  // namespace spvjit::cli
