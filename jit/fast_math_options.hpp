// OpenCL C's fast-math build options (OpenCL 1.2, 5.6.4.2 and 5.6.4.3) for SPIR-V programs.
// PoCL applies them only when it compiles OpenCL C: a program from IL gets exact arithmetic
// whatever JitOptions::build_options says. spvjit reads them instead and puts the same LLVM
// fast-math flags on the kernel's floating-point operations before translating it, so
// `-cl-fast-relaxed-math` means for a spvjit kernel what it means for OpenCL C.
#pragma once

#include <string_view>

#include "spvjit/fast_math.hpp"

namespace spvjit::detail {

/// The flags `build_options` asks for, as clang maps them:
///   -cl-mad-enable                 contract
///   -cl-no-signed-zeros            no_signed_zeros
///   -cl-finite-math-only           no_nans | no_infs
///   -cl-unsafe-math-optimizations  reassociate | contract | no_signed_zeros | reciprocal |
///                                  approximate_functions
///   -cl-fast-relaxed-math          all of them
/// Other options are left to the device.
FastMath fast_math_of_build_options(std::string_view build_options);

}  // namespace spvjit::detail
