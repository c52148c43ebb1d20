// FastMath: which of IEEE 754's rules a kernel's floating-point code may bend (KernelAbstractions'
// `@fastmath`, OpenCL C's -cl-fast-relaxed-math). KernelBuilder::fastmath() applies a set to the
// whole kernel or to a block of it; docs/language.md, "Fast math", says what each flag allows.
#pragma once

#include <cstdint>
#include <string>

#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// A set of fast-math permissions; combine with `|`. Each names one of LLVM's fast-math flags,
/// which the SPIR-V carries (FPFastMathMode) to the device compiler.
enum class FastMath : std::uint8_t {
  none = 0,
  /// Reassociate and distribute: (a + b) + c may become a + (b + c), so a loop's sum may be
  /// vectorized into partial sums (LLVM `reassoc`).
  reassociate = 1 << 0,
  /// Fuse a multiply and an add into one fused multiply-add (LLVM `contract`).
  contract = 1 << 1,
  /// Assume no operand or result is NaN; one that is gives an unspecified value (`nnan`).
  no_nans = 1 << 2,
  /// Assume no operand or result is ±infinity; one that is gives an unspecified value (`ninf`).
  no_infs = 1 << 3,
  /// Treat -0.0 and +0.0 as the same (`nsz`).
  no_signed_zeros = 1 << 4,
  /// Replace x / y by x * (1 / y) (`arcp`).
  reciprocal = 1 << 5,
  /// Math functions may be replaced by approximations (`afn`).
  approximate_functions = 1 << 6,
  /// Everything above: LLVM's `fast`, Julia's `@fastmath`, OpenCL C's -cl-fast-relaxed-math.
  all = 0x7f,
};

constexpr FastMath operator|(FastMath a, FastMath b) noexcept {
  return static_cast<FastMath>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}
constexpr FastMath operator&(FastMath a, FastMath b) noexcept {
  return static_cast<FastMath>(static_cast<std::uint8_t>(a) & static_cast<std::uint8_t>(b));
}
/// True when `set` holds every flag of `flags`.
constexpr bool has(FastMath set, FastMath flags) noexcept { return (set & flags) == flags; }
/// The flags' names, as docs/language.md spells them: "reassociate | contract", "all", "none".
std::string to_string(FastMath flags);

}  // namespace spvjit

SPVJIT_API_END
