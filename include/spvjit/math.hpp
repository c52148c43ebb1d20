// The OpenCL math set on kernel values, plus the integer helpers. Float functions take f32 and
// f64 (f16 data is loaded as f32); accuracy is the device's OpenCL guarantee (e.g. sqrt 3 ulp,
// sin 4 ulp, pow 16 ulp in f32; fabs, floor, fmin, copysign, fma exact).
//
//   Val<float> r = sqrt(x * x + y * y);
//   Val<int32_t> bits = popcount(mask);
#pragma once

#include <initializer_list>

#include "spvjit/value.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

enum class MathFn : std::uint8_t {
  // float -> float
  Sqrt, Rsqrt, Exp, Exp2, Log, Log2, Log1p, Sin, Cos, Tan, Fabs, Floor, Ceil, Round, Trunc,
  // (float, float) -> float
  Pow, Fmin, Fmax, Copysign,
  // (float, float, float) -> float
  Fma,
  // (T, T, T) -> T for floats and integers: min(max(x, lo), hi)
  Clamp,
  // integer -> same integer type
  Abs, Popcount, Clz,
};

/// The dynamically typed form: checks the argument count and types (all of one type).
Value math(MathFn fn, std::initializer_list<Value> args);
std::string_view name(MathFn fn) noexcept;

template <class T>
concept KernelFloat = std::is_same_v<T, float> || std::is_same_v<T, double>;
template <class T>
concept KernelInteger = KernelScalar<T> && std::is_integral_v<T> && !std::is_same_v<T, bool>;

#define SPVJIT_UNARY_FLOAT(fn, op) \
  template <KernelFloat T>         \
  Val<T> fn(Val<T> x) {            \
    return Val<T>(math(MathFn::op, {x})); \
  }
SPVJIT_UNARY_FLOAT(sqrt, Sqrt)
SPVJIT_UNARY_FLOAT(rsqrt, Rsqrt)
SPVJIT_UNARY_FLOAT(exp, Exp)
SPVJIT_UNARY_FLOAT(exp2, Exp2)
SPVJIT_UNARY_FLOAT(log, Log)
SPVJIT_UNARY_FLOAT(log2, Log2)
SPVJIT_UNARY_FLOAT(log1p, Log1p)
SPVJIT_UNARY_FLOAT(sin, Sin)
SPVJIT_UNARY_FLOAT(cos, Cos)
SPVJIT_UNARY_FLOAT(tan, Tan)
SPVJIT_UNARY_FLOAT(fabs, Fabs)
SPVJIT_UNARY_FLOAT(floor, Floor)
SPVJIT_UNARY_FLOAT(ceil, Ceil)
SPVJIT_UNARY_FLOAT(round, Round)
SPVJIT_UNARY_FLOAT(trunc, Trunc)
#undef SPVJIT_UNARY_FLOAT

#define SPVJIT_BINARY_FLOAT(fn, op)                                                \
  template <KernelFloat T>                                                         \
  Val<T> fn(Val<T> a, Val<T> b) {                                                  \
    return Val<T>(math(MathFn::op, {a, b}));                                       \
  }                                                                                \
  template <KernelFloat T>                                                         \
  Val<T> fn(Val<T> a, std::type_identity_t<T> b) {                                 \
    return Val<T>(math(MathFn::op, {a, detail::literal(detail::state_of(a), b)})); \
  }
SPVJIT_BINARY_FLOAT(pow, Pow)
SPVJIT_BINARY_FLOAT(fmin, Fmin)
SPVJIT_BINARY_FLOAT(fmax, Fmax)
SPVJIT_BINARY_FLOAT(copysign, Copysign)
#undef SPVJIT_BINARY_FLOAT

template <KernelFloat T>
Val<T> fma(Val<T> a, Val<T> b, Val<T> c) {
  return Val<T>(math(MathFn::Fma, {a, b, c}));
}

/// a * b + c, which the code generator may compute with one rounding (a fused multiply-add) or
/// two: OpenCL C's `a * b + c` under FP_CONTRACT ON. PoCL fuses it on CPUs with FMA, inline,
/// while fma() (one rounding guaranteed) is a call into PoCL's library there, never inlined
/// into a SPIR-V kernel (docs/performance.md, "PoCL investigations"): the form for hot loops.
Value mul_add(Value a, Value b, Value c);
template <KernelFloat T>
Val<T> mul_add(Val<T> a, Val<T> b, Val<T> c) {
  return Val<T>(mul_add(static_cast<Value>(a), static_cast<Value>(b), static_cast<Value>(c)));
}

/// min(max(x, lo), hi), for floats and integers.
template <KernelScalar T>
Val<T> clamp(Val<T> x, Val<T> lo, Val<T> hi) {
  return Val<T>(math(MathFn::Clamp, {x, lo, hi}));
}
template <KernelScalar T>
Val<T> clamp(Val<T> x, std::type_identity_t<T> lo, std::type_identity_t<T> hi) {
  return clamp(x, Val<T>(detail::literal(detail::state_of(x), lo)),
               Val<T>(detail::literal(detail::state_of(x), hi)));
}

/// |x| in x's type: abs of the most negative value wraps to itself, as in OpenCL.
template <KernelInteger T>
Val<T> abs(Val<T> x) {
  return Val<T>(math(MathFn::Abs, {x}));
}
/// The number of set bits / of leading zero bits (the width for 0).
template <KernelInteger T>
Val<T> popcount(Val<T> x) {
  return Val<T>(math(MathFn::Popcount, {x}));
}
template <KernelInteger T>
Val<T> clz(Val<T> x) {
  return Val<T>(math(MathFn::Clz, {x}));
}

}  // namespace spvjit

SPVJIT_API_END
