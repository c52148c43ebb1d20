// Conversions beyond cast<T>(): the same bits as another type, and integer conversions that
// saturate instead of wrapping (KernelAbstractions' `reinterpret` and `trunc(T, x)` with
// clamping; OpenCL's as_<T> and convert_<T>_sat).
//
//   Val<std::uint32_t> bits = bit_cast<std::uint32_t>(x);   // x: Val<float>, a[i], a Var
//   Val<std::int8_t> q = cast_sat<std::int8_t>(200.0f * y);  // 127, never -56
//
// cast<T>() itself: float to integer rounds toward zero and is defined only in range (OpenCL's
// convert_<T>: out of range gives whatever the device gives); integer to integer wraps.
#pragma once

#include <type_traits>

#include "spvjit/operand.hpp"
#include "spvjit/value.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// The operand's bits as type `to` of the same size (no bool, no f16). Throws UserError
/// naming both types otherwise.
Value bit_cast(Value v, Scalar to);
/// The operand converted to integer type `to`, clamped to its range; NaN gives 0. Floats round
/// toward zero first, like cast(). Throws UserError for a non-integer target.
Value cast_sat(Value v, Scalar to);

template <KernelScalar To, class X>
requires KernelOperand<X> Val<To> bit_cast(const X& x) {
  using From = detail::operand_t<X>;
  static_assert(
      sizeof(To) == sizeof(From) && !std::is_same_v<To, bool> && !std::is_same_v<From, bool>,
      "spvjit: bit_cast needs two types of one size (float and int32_t or uint32_t, "
      "double and int64_t or uint64_t)");
  return Val<To>(bit_cast(Value(detail::read(x)), scalar_of<To>));
}

template <KernelScalar To, class X>
requires KernelOperand<X> Val<To> cast_sat(const X& x) {
  static_assert(std::is_integral_v<To> && !std::is_same_v<To, bool>,
                "spvjit: cast_sat converts to integer types; use cast<T>() for floats");
  return Val<To>(cast_sat(Value(detail::read(x)), scalar_of<To>));
}

}  // namespace spvjit

SPVJIT_API_END
