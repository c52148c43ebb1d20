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

enum class MathFn : std::uint8_t {
  // float -> float
  Sqrt,
  Rsqrt,
  Cbrt,
  Exp,
  Exp2,
  Exp10,
  Expm1,
  Log,
  Log2,
  Log10,
  Log1p,
  Logb,
  Sin,
  Cos,
  Tan,
  Sinpi,
  Cospi,
  Tanpi,
  Asin,
  Acos,
  Atan,
  Asinpi,
  Acospi,
  Atanpi,
  Sinh,
  Cosh,
  Tanh,
  Asinh,
  Acosh,
  Atanh,
  Erf,
  Erfc,
  Tgamma,
  Lgamma,
  Fabs,
  Floor,
  Ceil,
  Round,
  Rint,
  Trunc,
  // (float, float) -> float
  Pow,
  Powr,
  Atan2,
  Atan2pi,
  Hypot,
  Fmin,
  Fmax,
  Fdim,
  Fmod,
  Remainder,
  Maxmag,
  Minmag,
  Nextafter,
  Copysign,
  // (float, i32) -> float
  Ldexp,
  Pown,
  Rootn,
  // float -> i32
  Ilogb,
  // (float, float, float) -> float
  Fma,
  // float -> bool
  Isnan,
  Isinf,
  Isfinite,
  Isnormal,
  Signbit,
  // float -> two results (math_pair): (mantissa, i32 exponent), (fraction, integral part),
  // (x - floor(x), floor(x)), (sin, cos), (lgamma, i32 sign of gamma)
  Frexp,
  Modf,
  Fract,
  Sincos,
  LgammaR,
  // (float, float) -> (remainder, i32 low bits of the quotient with its sign)
  Remquo,
  // (T, T, T) -> T for floats and integers: min(max(x, lo), hi)
  Clamp,
  // integer -> same integer type
  Abs,
  Popcount,
  Clz,
  Ctz,
  // (integer, integer) -> integer
  MulHi,
  Rotate,
  AddSat,
  SubSat,
  AbsDiff,
  Hadd,
  Rhadd,
  // (integer, integer, integer) -> integer
  MadHi,
  MadSat,
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

// Each function takes Val<T>, an element a[i] or a Var<T>; a plain number beside one of them
// takes its type (pow(x, 2)).
#define SPVJIT_MATH_UNARY(fn, op, Concept)                                          \
  template <class X>                                                                \
  requires Concept<detail::operand_t<X>> Val<detail::operand_t<X>> fn(const X& x) { \
    return detail::typed_math<detail::operand_t<X>>(MathFn::op, x);                 \
  }
SPVJIT_MATH_UNARY(sqrt, Sqrt, KernelFloat)
SPVJIT_MATH_UNARY(rsqrt, Rsqrt, KernelFloat)
SPVJIT_MATH_UNARY(cbrt, Cbrt, KernelFloat)
SPVJIT_MATH_UNARY(exp, Exp, KernelFloat)
SPVJIT_MATH_UNARY(exp2, Exp2, KernelFloat)
SPVJIT_MATH_UNARY(exp10, Exp10, KernelFloat)
SPVJIT_MATH_UNARY(expm1, Expm1, KernelFloat)
SPVJIT_MATH_UNARY(log, Log, KernelFloat)
SPVJIT_MATH_UNARY(log2, Log2, KernelFloat)
SPVJIT_MATH_UNARY(log10, Log10, KernelFloat)
SPVJIT_MATH_UNARY(log1p, Log1p, KernelFloat)
/// The exponent of x as a float: floor(log2(|x|)) for finite nonzero x.
SPVJIT_MATH_UNARY(logb, Logb, KernelFloat)
SPVJIT_MATH_UNARY(sin, Sin, KernelFloat)
SPVJIT_MATH_UNARY(cos, Cos, KernelFloat)
SPVJIT_MATH_UNARY(tan, Tan, KernelFloat)
/// sin(pi x), cos(pi x), tan(pi x), exact at integers and halves.
SPVJIT_MATH_UNARY(sinpi, Sinpi, KernelFloat)
SPVJIT_MATH_UNARY(cospi, Cospi, KernelFloat)
SPVJIT_MATH_UNARY(tanpi, Tanpi, KernelFloat)
SPVJIT_MATH_UNARY(asin, Asin, KernelFloat)
SPVJIT_MATH_UNARY(acos, Acos, KernelFloat)
SPVJIT_MATH_UNARY(atan, Atan, KernelFloat)
/// asin(x) / pi, acos(x) / pi, atan(x) / pi.
SPVJIT_MATH_UNARY(asinpi, Asinpi, KernelFloat)
SPVJIT_MATH_UNARY(acospi, Acospi, KernelFloat)
SPVJIT_MATH_UNARY(atanpi, Atanpi, KernelFloat)
SPVJIT_MATH_UNARY(sinh, Sinh, KernelFloat)
SPVJIT_MATH_UNARY(cosh, Cosh, KernelFloat)
SPVJIT_MATH_UNARY(tanh, Tanh, KernelFloat)
SPVJIT_MATH_UNARY(asinh, Asinh, KernelFloat)
SPVJIT_MATH_UNARY(acosh, Acosh, KernelFloat)
SPVJIT_MATH_UNARY(atanh, Atanh, KernelFloat)
SPVJIT_MATH_UNARY(erf, Erf, KernelFloat)
SPVJIT_MATH_UNARY(erfc, Erfc, KernelFloat)
SPVJIT_MATH_UNARY(tgamma, Tgamma, KernelFloat)
/// log |gamma(x)|; OpenCL gives it no accuracy bound (lgamma_r also gives gamma's sign).
SPVJIT_MATH_UNARY(lgamma, Lgamma, KernelFloat)
SPVJIT_MATH_UNARY(fabs, Fabs, KernelFloat)
SPVJIT_MATH_UNARY(floor, Floor, KernelFloat)
SPVJIT_MATH_UNARY(ceil, Ceil, KernelFloat)
/// To the nearest integer value, halves away from zero: round(2.5) = 3, round(-0.5) = -1.
SPVJIT_MATH_UNARY(round, Round, KernelFloat)
/// To the nearest integer value, halves to even: rint(2.5) = 2, rint(3.5) = 4 (Julia's round).
SPVJIT_MATH_UNARY(rint, Rint, KernelFloat)
SPVJIT_MATH_UNARY(trunc, Trunc, KernelFloat)
/// |x| in x's type: abs of the most negative value wraps to itself, as in OpenCL.
SPVJIT_MATH_UNARY(abs, Abs, KernelInteger)
/// The number of set bits, of leading zero bits, of trailing zero bits (the width for 0).
SPVJIT_MATH_UNARY(popcount, Popcount, KernelInteger)
SPVJIT_MATH_UNARY(clz, Clz, KernelInteger)
SPVJIT_MATH_UNARY(ctz, Ctz, KernelInteger)
#undef SPVJIT_MATH_UNARY

/// |x| of a float: fabs(x), as Julia's `abs` of a float is (|-0.0| = 0.0, NaN stays NaN).
template <class X>
requires KernelFloat<detail::operand_t<X>> Val<detail::operand_t<X>> abs(const X& x) {
  return fabs(x);
}

#define SPVJIT_MATH_TEST(fn, op)                                        \
  template <class X>                                                    \
  requires KernelFloat<detail::operand_t<X>> Val<bool> fn(const X& x) { \
    return Val<bool>(math(MathFn::op, {Value(detail::read(x))}));       \
  }
SPVJIT_MATH_TEST(isnan, Isnan)
SPVJIT_MATH_TEST(isinf, Isinf)
SPVJIT_MATH_TEST(isfinite, Isfinite)
/// Finite, nonzero and not subnormal.
SPVJIT_MATH_TEST(isnormal, Isnormal)
/// The sign bit: true for -0.0 and for NaNs with it set.
SPVJIT_MATH_TEST(signbit, Signbit)
#undef SPVJIT_MATH_TEST

/// What ilogb gives for 0 and for NaN on every device (C's FP_ILOGB0 and FP_ILOGBNAN, which
/// OpenCL lets a device choose: spvjit fixes them to glibc's FP_ILOGB0 and C's other choice for
/// NaN, so a kernel can test for them). ilogb(±inf) is INT32_MAX.
inline constexpr std::int32_t fp_ilogb0 = INT32_MIN;
inline constexpr std::int32_t fp_ilogbnan = INT32_MAX;

/// ilogb(x): the exponent as an int32_t; fp_ilogb0 for ±0, fp_ilogbnan for NaN.
template <class X>
requires KernelFloat<detail::operand_t<X>> Val<std::int32_t> ilogb(const X& x) {
  return Val<std::int32_t>(math(MathFn::Ilogb, {Value(detail::read(x))}));
}

#define SPVJIT_MATH_BINARY(fn, op, Concept)                                     \
  template <class X, class Y>                                                   \
  requires MathOperands<X, Y> && Concept<detail::first_operand_t<X, Y>>         \
      Val<detail::first_operand_t<X, Y>> fn(const X& x, const Y& y) {           \
    return detail::typed_math<detail::first_operand_t<X, Y>>(MathFn::op, x, y); \
  }
SPVJIT_MATH_BINARY(pow, Pow, KernelFloat)
/// pow for x >= 0 (x < 0 gives NaN), which some devices compute faster.
SPVJIT_MATH_BINARY(powr, Powr, KernelFloat)
/// The angle of (x, y) in (-pi, pi]: atan2(y, x), y first as in C.
SPVJIT_MATH_BINARY(atan2, Atan2, KernelFloat)
SPVJIT_MATH_BINARY(atan2pi, Atan2pi, KernelFloat)
/// sqrt(x^2 + y^2) without overflow or underflow on the way.
SPVJIT_MATH_BINARY(hypot, Hypot, KernelFloat)
SPVJIT_MATH_BINARY(fmin, Fmin, KernelFloat)
SPVJIT_MATH_BINARY(fmax, Fmax, KernelFloat)
/// x - y if x > y, else +0.
SPVJIT_MATH_BINARY(fdim, Fdim, KernelFloat)
/// x - y * trunc(x / y), exactly (C's fmod; Julia's rem).
SPVJIT_MATH_BINARY(fmod, Fmod, KernelFloat)
/// x - y * rint(x / y), exactly (IEEE's remainder).
SPVJIT_MATH_BINARY(remainder, Remainder, KernelFloat)
/// The operand of larger (smaller) magnitude; fmax (fmin) of the two when magnitudes tie.
SPVJIT_MATH_BINARY(maxmag, Maxmag, KernelFloat)
SPVJIT_MATH_BINARY(minmag, Minmag, KernelFloat)
/// The next representable value after x in the direction of y.
SPVJIT_MATH_BINARY(nextafter, Nextafter, KernelFloat)
SPVJIT_MATH_BINARY(copysign, Copysign, KernelFloat)
/// The high half of the full product (OpenCL's mul_hi).
SPVJIT_MATH_BINARY(mul_hi, MulHi, KernelInteger)
/// x rotated left by y bits (y taken modulo the width; OpenCL's rotate).
SPVJIT_MATH_BINARY(rotate, Rotate, KernelInteger)
/// x + y and x - y clamped to the type's range instead of wrapping.
SPVJIT_MATH_BINARY(add_sat, AddSat, KernelInteger)
SPVJIT_MATH_BINARY(sub_sat, SubSat, KernelInteger)
/// |x - y| without overflow, in the operands' type (the bits of OpenCL's unsigned result).
SPVJIT_MATH_BINARY(abs_diff, AbsDiff, KernelInteger)
/// (x + y) >> 1 and (x + y + 1) >> 1 without overflow.
SPVJIT_MATH_BINARY(hadd, Hadd, KernelInteger)
SPVJIT_MATH_BINARY(rhadd, Rhadd, KernelInteger)
#undef SPVJIT_MATH_BINARY

/// x * 2^n, exactly (n an int32_t operand or a number).
template <class X, class N>
requires KernelFloat<detail::operand_t<X>> && detail::OperandOrNumber<N> Val<detail::operand_t<X>>
ldexp(const X& x, const N& n) {
  using T = detail::operand_t<X>;
  const Val<T> v = detail::read(x);
  return Val<T>(math(MathFn::Ldexp, {v, detail::exponent_operand(detail::state_of(v), n)}));
}
/// x^n for an integer n; the n-th root of x.
template <class X, class N>
requires KernelFloat<detail::operand_t<X>> && detail::OperandOrNumber<N> Val<detail::operand_t<X>>
pown(const X& x, const N& n) {
  using T = detail::operand_t<X>;
  const Val<T> v = detail::read(x);
  return Val<T>(math(MathFn::Pown, {v, detail::exponent_operand(detail::state_of(v), n)}));
}
template <class X, class N>
requires KernelFloat<detail::operand_t<X>> && detail::OperandOrNumber<N> Val<detail::operand_t<X>>
rootn(const X& x, const N& n) {
  using T = detail::operand_t<X>;
  const Val<T> v = detail::read(x);
  return Val<T>(math(MathFn::Rootn, {v, detail::exponent_operand(detail::state_of(v), n)}));
}

/// The two results of one function, as Val<T>s: `auto [s, c] = sincos(x);`.
template <class A, class B>
std::pair<Val<A>, Val<B>> typed_pair(const std::pair<Value, Value>& p) {
  return {Val<A>(p.first), Val<B>(p.second)};
}

/// x = mantissa * 2^exponent, mantissa in [0.5, 1) (0, infinities and NaN: x and 0).
template <class X>
requires KernelFloat<detail::operand_t<X>> std::pair<Val<detail::operand_t<X>>, Val<std::int32_t>>
frexp(const X& x) {
  using T = detail::operand_t<X>;
  return typed_pair<T, std::int32_t>(detail::typed_math_pair<T>(MathFn::Frexp, x));
}
/// (fraction, integral part), both with x's sign.
template <class X>
requires KernelFloat<detail::operand_t<X>>
    std::pair<Val<detail::operand_t<X>>, Val<detail::operand_t<X>>> modf(const X& x) {
  using T = detail::operand_t<X>;
  return typed_pair<T, T>(detail::typed_math_pair<T>(MathFn::Modf, x));
}
/// (min(x - floor(x), the largest float below 1), floor(x)).
template <class X>
requires KernelFloat<detail::operand_t<X>>
    std::pair<Val<detail::operand_t<X>>, Val<detail::operand_t<X>>> fract(const X& x) {
  using T = detail::operand_t<X>;
  return typed_pair<T, T>(detail::typed_math_pair<T>(MathFn::Fract, x));
}
/// (sin x, cos x), each within sin's and cos's bound.
template <class X>
requires KernelFloat<detail::operand_t<X>>
    std::pair<Val<detail::operand_t<X>>, Val<detail::operand_t<X>>> sincos(const X& x) {
  using T = detail::operand_t<X>;
  return typed_pair<T, T>(detail::typed_math_pair<T>(MathFn::Sincos, x));
}
/// (log |gamma(x)|, the sign of gamma(x) as +1 or -1; 0 at zero and at the negative integers,
/// gamma's poles, as OpenCL's section 7.5.1 asks).
template <class X>
requires KernelFloat<detail::operand_t<X>> std::pair<Val<detail::operand_t<X>>, Val<std::int32_t>>
lgamma_r(const X& x) {
  using T = detail::operand_t<X>;
  return typed_pair<T, std::int32_t>(detail::typed_math_pair<T>(MathFn::LgammaR, x));
}
/// (remainder(x, y), the quotient's sign and at least its 7 low bits).
template <class X, class Y>
requires MathOperands<X, Y> && KernelFloat<detail::first_operand_t<X, Y>>
    std::pair<Val<detail::first_operand_t<X, Y>>, Val<std::int32_t>> remquo(const X& x,
                                                                            const Y& y) {
  using T = detail::first_operand_t<X, Y>;
  return typed_pair<T, std::int32_t>(detail::typed_math_pair<T>(MathFn::Remquo, x, y));
}

/// x * y + z with one rounding.
template <class X, class Y, class Z>
requires MathOperands<X, Y, Z> && KernelFloat<detail::first_operand_t<X, Y, Z>>
    Val<detail::first_operand_t<X, Y, Z>> fma(const X& x, const Y& y, const Z& z) {
  return detail::typed_math<detail::first_operand_t<X, Y, Z>>(MathFn::Fma, x, y, z);
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

/// min(max(x, lo), hi), for floats and integers (undefined when lo > hi).
template <class X, class Lo, class Hi>
requires MathOperands<X, Lo, Hi> && KernelScalar<detail::first_operand_t<X, Lo, Hi>> &&
    (!std::is_same_v<detail::first_operand_t<X, Lo, Hi>, bool>)
        Val<detail::first_operand_t<X, Lo, Hi>> clamp(const X& x, const Lo& lo, const Hi& hi) {
  return detail::typed_math<detail::first_operand_t<X, Lo, Hi>>(MathFn::Clamp, x, lo, hi);
}
/// mul_hi(x, y) + z, and x * y + z clamped to the type's range.
template <class X, class Y, class Z>
requires MathOperands<X, Y, Z> && KernelInteger<detail::first_operand_t<X, Y, Z>>
    Val<detail::first_operand_t<X, Y, Z>> mad_hi(const X& x, const Y& y, const Z& z) {
  return detail::typed_math<detail::first_operand_t<X, Y, Z>>(MathFn::MadHi, x, y, z);
}
template <class X, class Y, class Z>
requires MathOperands<X, Y, Z> && KernelInteger<detail::first_operand_t<X, Y, Z>>
    Val<detail::first_operand_t<X, Y, Z>> mad_sat(const X& x, const Y& y, const Z& z) {
  return detail::typed_math<detail::first_operand_t<X, Y, Z>>(MathFn::MadSat, x, y, z);
}

}  // namespace spvjit

SPVJIT_API_END
