// OpenCL's math library on kernel values: the OpenCL.std functions on f32 and f64 (f16 data is
// loaded as f32), the relational tests, and the integer builtins. Accuracy is the device's
// OpenCL guarantee (OpenCL 1.2, section 7.4; docs/language.md lists each bound), and every
// function is tested against the host's <cmath> within it.
//
//   Val<float> r = hypot(x, y);            // x, y: Val<float>, elements a[i], or Vars
//   Val<double> g = tgamma(a[i]);
//   auto [mantissa, exponent] = frexp(x);  // Val<float>, Val<int32_t>
//   Val<bool> bad = isnan(r) || isinf(r);
//   Val<uint32_t> hi = mul_hi(a, b);
//
// Rounding to an integer value: `round` rounds halves away from zero (C's round; OpenCL's
// round), `rint` to the nearest even (Julia's `round`, IEEE's default), `floor`, `ceil`,
// `trunc` as their names say.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>

#include "spvjit/operand.hpp"
#include "spvjit/value.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// The math set: one enumerator per row of spvjit/math_functions.def, in its order.
enum class MathFn : std::uint8_t {
#define SPVJIT_MATH_FUNCTION(op, fn, shape) op,
#include "spvjit/math_functions.def"
#undef SPVJIT_MATH_FUNCTION
};

/// The dynamically typed form: checks the argument count and types. Operands are of one type,
/// except the i32 exponent of ldexp, pown and rootn. Results: the operand type; i32 for ilogb;
/// bool for the relational tests. Throws UserError for the two-result functions (math_pair).
Value math(MathFn fn, std::initializer_list<Value> args);
/// The two results of frexp, modf, fract, sincos, lgamma_r and remquo.
std::pair<Value, Value> math_pair(MathFn fn, std::initializer_list<Value> args);
/// The OpenCL name: "sqrt", "lgamma_r", "mul_hi".
std::string_view name(MathFn fn) noexcept;

template <class T>
concept KernelFloat = std::is_same_v<T, float> || std::is_same_v<T, double>;
template <class T>
concept KernelInteger = KernelScalar<T> && std::is_integral_v<T> && !std::is_same_v<T, bool>;

namespace detail {
template <class T, class... Xs>
Val<T> typed_math(MathFn fn, const Xs&... xs) {
  return apply_operands<T>([fn](const auto&... v) { return Val<T>(math(fn, {v...})); }, xs...);
}
template <class T, class... Xs>
auto typed_math_pair(MathFn fn, const Xs&... xs) {
  return apply_operands<T>([fn](const auto&... v) { return math_pair(fn, {v...}); }, xs...);
}
/// The i32 operand of ldexp, pown and rootn: an int32_t kernel operand, or a number that fits.
template <class N>
Val<std::int32_t> exponent_operand(BuilderState* s, const N& n) {
  static_assert(operand_agrees<std::int32_t, N>(),
                "spvjit: the exponent is an int32_t; convert it with cast<int32_t>(n)");
  return as_val<std::int32_t>(s, read(n));
}
}  // namespace detail

/// What ilogb gives for 0 and for NaN on every device (C's FP_ILOGB0 and FP_ILOGBNAN, which
/// OpenCL lets a device choose: spvjit fixes them to glibc's FP_ILOGB0 and C's other choice for
/// NaN, so a kernel can test for them). ilogb(±inf) is INT32_MAX.
inline constexpr std::int32_t fp_ilogb0 = INT32_MIN;
inline constexpr std::int32_t fp_ilogbnan = INT32_MAX;

/// The two results of one function, as Val<T>s: `auto [s, c] = sincos(x);`.
template <class A, class B>
std::pair<Val<A>, Val<B>> typed_pair(const std::pair<Value, Value>& p) {
  return {Val<A>(p.first), Val<B>(p.second)};
}

namespace detail {
template <class T>
concept KernelNumber = KernelScalar<T> && !std::is_same_v<T, bool>;
}  // namespace detail

// One function per row of spvjit/math_functions.def (what each computes is said there), made
// by its shape. Each takes Val<T>, an element a[i] or a Var<T>; a plain number beside one of
// them takes its type (pow(x, 2)); an exponent is an int32_t operand or a number that fits.
#define SPVJIT_MATH_UNARY(op, fn, Concept)                                          \
  template <class X>                                                                \
  requires Concept<detail::operand_t<X>> Val<detail::operand_t<X>> fn(const X& x) { \
    return detail::typed_math<detail::operand_t<X>>(MathFn::op, x);                 \
  }
#define SPVJIT_MATH_FloatUnary(op, fn) SPVJIT_MATH_UNARY(op, fn, KernelFloat)
#define SPVJIT_MATH_IntegerUnary(op, fn) SPVJIT_MATH_UNARY(op, fn, KernelInteger)
#define SPVJIT_MATH_FloatTest(op, fn)                                   \
  template <class X>                                                    \
  requires KernelFloat<detail::operand_t<X>> Val<bool> fn(const X& x) { \
    return Val<bool>(math(MathFn::op, {Value(detail::read(x))}));       \
  }
#define SPVJIT_MATH_FloatToI32(op, fn)                                          \
  template <class X>                                                            \
  requires KernelFloat<detail::operand_t<X>> Val<std::int32_t> fn(const X& x) { \
    return Val<std::int32_t>(math(MathFn::op, {Value(detail::read(x))}));       \
  }
#define SPVJIT_MATH_BINARY(op, fn, Concept)                                     \
  template <class X, class Y>                                                   \
  requires MathOperands<X, Y> && Concept<detail::first_operand_t<X, Y>>         \
      Val<detail::first_operand_t<X, Y>> fn(const X& x, const Y& y) {           \
    return detail::typed_math<detail::first_operand_t<X, Y>>(MathFn::op, x, y); \
  }
#define SPVJIT_MATH_FloatBinary(op, fn) SPVJIT_MATH_BINARY(op, fn, KernelFloat)
#define SPVJIT_MATH_IntegerBinary(op, fn) SPVJIT_MATH_BINARY(op, fn, KernelInteger)
#define SPVJIT_MATH_FloatExponent(op, fn)                                                   \
  template <class X, class N>                                                               \
  requires KernelFloat<detail::operand_t<X>> && detail::OperandOrNumber<N>                  \
      Val<detail::operand_t<X>> fn(const X& x, const N& n) {                                \
    using T = detail::operand_t<X>;                                                         \
    const Val<T> v = detail::read(x);                                                       \
    return Val<T>(math(MathFn::op, {v, detail::exponent_operand(detail::state_of(v), n)})); \
  }
#define SPVJIT_MATH_TERNARY(op, fn, Concept)                                          \
  template <class X, class Y, class Z>                                                \
  requires MathOperands<X, Y, Z> && Concept<detail::first_operand_t<X, Y, Z>>         \
      Val<detail::first_operand_t<X, Y, Z>> fn(const X& x, const Y& y, const Z& z) {  \
    return detail::typed_math<detail::first_operand_t<X, Y, Z>>(MathFn::op, x, y, z); \
  }
#define SPVJIT_MATH_FloatTernary(op, fn) SPVJIT_MATH_TERNARY(op, fn, KernelFloat)
#define SPVJIT_MATH_IntegerTernary(op, fn) SPVJIT_MATH_TERNARY(op, fn, KernelInteger)
#define SPVJIT_MATH_AnyTernary(op, fn) SPVJIT_MATH_TERNARY(op, fn, detail::KernelNumber)
#define SPVJIT_MATH_PAIR(op, fn, Second)                                                           \
  template <class X>                                                                               \
  requires KernelFloat<detail::operand_t<X>> std::pair<Val<detail::operand_t<X>>, Val<Second>> fn( \
      const X& x) {                                                                                \
    using T = detail::operand_t<X>;                                                                \
    return typed_pair<T, Second>(detail::typed_math_pair<T>(MathFn::op, x));                       \
  }
#define SPVJIT_MATH_FloatPairI32(op, fn) SPVJIT_MATH_PAIR(op, fn, std::int32_t)
#define SPVJIT_MATH_FloatPairSame(op, fn) SPVJIT_MATH_PAIR(op, fn, detail::operand_t<X>)
#define SPVJIT_MATH_FloatSinCos(op, fn) SPVJIT_MATH_PAIR(op, fn, detail::operand_t<X>)
#define SPVJIT_MATH_FloatBinaryPairI32(op, fn)                                          \
  template <class X, class Y>                                                           \
  requires MathOperands<X, Y> && KernelFloat<detail::first_operand_t<X, Y>>             \
      std::pair<Val<detail::first_operand_t<X, Y>>, Val<std::int32_t>> fn(const X& x,   \
                                                                          const Y& y) { \
    using T = detail::first_operand_t<X, Y>;                                            \
    return typed_pair<T, std::int32_t>(detail::typed_math_pair<T>(MathFn::op, x, y));   \
  }
#define SPVJIT_MATH_FUNCTION(op, fn, shape) SPVJIT_MATH_##shape(op, fn)
#include "spvjit/math_functions.def"
#undef SPVJIT_MATH_FUNCTION
#undef SPVJIT_MATH_FloatBinaryPairI32
#undef SPVJIT_MATH_FloatSinCos
#undef SPVJIT_MATH_FloatPairSame
#undef SPVJIT_MATH_FloatPairI32
#undef SPVJIT_MATH_PAIR
#undef SPVJIT_MATH_AnyTernary
#undef SPVJIT_MATH_IntegerTernary
#undef SPVJIT_MATH_FloatTernary
#undef SPVJIT_MATH_TERNARY
#undef SPVJIT_MATH_FloatExponent
#undef SPVJIT_MATH_IntegerBinary
#undef SPVJIT_MATH_FloatBinary
#undef SPVJIT_MATH_BINARY
#undef SPVJIT_MATH_FloatToI32
#undef SPVJIT_MATH_FloatTest
#undef SPVJIT_MATH_IntegerUnary
#undef SPVJIT_MATH_FloatUnary
#undef SPVJIT_MATH_UNARY

/// |x| of a float: fabs(x), as Julia's `abs` of a float is (|-0.0| = 0.0, NaN stays NaN).
template <class X>
requires KernelFloat<detail::operand_t<X>> Val<detail::operand_t<X>> abs(const X& x) {
  return fabs(x);
}

/// a * b + c, which the code generator may compute with one rounding (a fused multiply-add) or
/// two: OpenCL C's `a * b + c` under FP_CONTRACT ON. PoCL fuses it on CPUs with FMA, inline. On
/// a PoCL without patch 0013 (third_party/pocl/patches) fma() is a call into its library, never
/// inlined into a SPIR-V kernel, and this is the form for hot loops (docs/performance.md, "PoCL
/// investigations").
Value mul_add(Value a, Value b, Value c);
template <class X, class Y, class Z>
requires MathOperands<X, Y, Z> && KernelFloat<detail::first_operand_t<X, Y, Z>>
    Val<detail::first_operand_t<X, Y, Z>> mul_add(const X& x, const Y& y, const Z& z) {
  using T = detail::first_operand_t<X, Y, Z>;
  return detail::apply_operands<T>(
      [](const auto& a, const auto& b, const auto& c) {
        return Val<T>(mul_add(static_cast<Value>(a), static_cast<Value>(b), static_cast<Value>(c)));
      },
      x, y, z);
}

}  // namespace spvjit

SPVJIT_API_END
