// Why PoCL shows no device, for DeviceNotFoundError: the known causes that make its platform
// vanish without a word to the application (PoCL 6.0 prints nothing unless POCL_DEBUG is set).
#pragma once

#include <string>
#include <vector>

#include "runtime/core.hpp"

namespace spvjit::detail {

/// The sentences naming each known cause that holds now, or empty when none does or a PoCL
/// device was seen (then PoCL started, and its causes are not the problem):
/// - POCL_DEVICES names no CPU driver (its value, and the names PoCL accepts for the CPU);
/// - PoCL's kernel cache folder cannot be created (which folder, why, and POCL_CACHE_DIR).
std::string pocl_startup_problems(const std::vector<SeenDevice>& seen);

}  // namespace spvjit::detail
