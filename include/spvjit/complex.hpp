// Complex numbers in kernels: KernelAbstractions' ComplexF32 and ComplexF64, C++'s
// std::complex<float> and std::complex<double>. A Complex<T> is a pair of Val<T> (no type of its
// own in the IR); an array of std::complex<T> is the struct {T re; T im;} laid out as C++ and
// Julia lay complex numbers out, so a Buffer<std::complex<float>> is its launch argument:
//
//   auto z = kb.param<Global<std::complex<float>>>("z");
//   auto w = kb.param<std::complex<float>>("w");          // by value: a Complex<float>
//   auto i = kb.global_index();
//   z[i] = z[i] * w + exp(Complex<float>(kb.lit(0.0f), theta));
//
// Arithmetic and functions are std::complex's, on the same edge values: * and / follow C's
// Annex G as libstdc++ does (an infinite operand gives an infinite result, never NaN + NaN i;
// division scales by the divisor's exponent, so it neither overflows nor underflows on the way);
// exp, log and sqrt take Annex G's special values; pow and polar are libstdc++'s formulas.
// Julia's * is the plain formula, which gives NaN where Annex G recovers an infinity.
// docs/language.md, "Complex numbers", says what each costs and how accurate it is.
#pragma once

#include <complex>
#include <limits>
#include <numbers>
#include <type_traits>

#include "spvjit/builder.hpp"
#include "spvjit/math.hpp"
#include "spvjit/structs.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
/// A constant of type T in the builder of `like`.
template <class T>
Val<T> constant_like(const Value& like, T x) {
  return Val<T>(literal(state_of(like), x));
}
}  // namespace detail

/// A complex value: its real and imaginary parts, each a Val<T>.
template <ComplexPart T>
class Complex {
 public:
  using value_type = T;
  Complex() = default;
  Complex(Val<T> re, Val<T> im) : re_(re), im_(im) {}
  /// A real value, imaginary part +0 (as std::complex<T>(x)).
  explicit Complex(Val<T> re) : re_(re), im_(detail::constant_like(re, T(0))) {}
  /// A constant.
  Complex(KernelBuilder& kb, std::complex<T> c) : re_(kb.lit(c.real())), im_(kb.lit(c.imag())) {}
  Val<T> real() const { return re_; }
  Val<T> imag() const { return im_; }
  Complex get() const { return *this; }

 private:
  Val<T> re_, im_;
};

namespace detail {
template <class X>
struct complex_operand_of {};
template <class T>
struct complex_operand_of<Complex<T>> {
  using type = T;
};
template <class S>
struct complex_operand_of<ComplexRef<S>> {
  using type = typename std::remove_const_t<S>::value_type;
};
template <class T>
struct complex_operand_of<ComplexVar<T>> {
  using type = T;
};
}  // namespace detail

/// A complex value, element or variable.
template <class X>
concept ComplexOperand = requires {
  typename detail::complex_operand_of<std::remove_cvref_t<X>>::type;
};
/// A complex operand's part type.
template <class X>
using complex_part_t = typename detail::complex_operand_of<std::remove_cvref_t<X>>::type;

namespace detail {
/// A real operand beside a complex one: a kernel float (value, element or variable) or a plain
/// C++ number, which takes the complex part type.
template <class X>
concept RealOperand = (KernelOperand<X> && KernelFloat<operand_t<X>>) || PlainNumber<X>;

template <class T, class X>
Val<T> real_value(const Value& like, const X& x) {
  if constexpr (PlainNumber<X>) {
    return constant_like(like, static_cast<T>(x));
  } else {
    static_assert(std::is_same_v<operand_t<X>, T>,
                  "spvjit: a complex number and a real of another float type; insert cast<T>() "
                  "on the real");
    return Val<T>(read(x));
  }
}

template <class A, class B>
constexpr void check_same_parts() {
  static_assert(std::is_same_v<complex_part_t<A>, complex_part_t<B>>,
                "spvjit: complex numbers of two part types (Complex<float> and Complex<double>); "
                "convert one with complex_cast<T>()");
}

/// ±1 for an infinity, ±0 otherwise, with x's sign (Annex G's "box" of an infinite part).
template <class T>
Val<T> box_infinity(Val<T> x) {
  return copysign(select(isinf(x), constant_like(x, T(1)), constant_like(x, T(0))), x);
}
/// ±0 for a NaN (its sign bit kept), x otherwise.
template <class T>
Val<T> nan_to_zero(Val<T> x) {
  return select(isnan(x), copysign(constant_like(x, T(0)), x), x);
}

/// (a + bi)(c + di) as C's Annex G (compiler-rt's __mulsc3): the plain products, and where both
/// parts come out NaN from an infinite operand or product, the infinity recovered.
template <class T>
Complex<T> multiply(Val<T> a, Val<T> b, Val<T> c, Val<T> d) {
  const Val<T> ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  const Val<T> x = ac - bd, y = ad + bc;
  const Val<bool> ab_inf = isinf(a) || isinf(b);
  const Val<bool> cd_inf = isinf(c) || isinf(d);
  const Val<bool> product_inf = isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc);
  // An infinite operand: boxed, and NaNs of the other operand zeroed.
  Val<T> a1 = select(ab_inf, box_infinity(a), a), b1 = select(ab_inf, box_infinity(b), b);
  Val<T> c1 = select(ab_inf, nan_to_zero(c), c), d1 = select(ab_inf, nan_to_zero(d), d);
  c1 = select(cd_inf, box_infinity(c), c1);
  d1 = select(cd_inf, box_infinity(d), d1);
  a1 = select(cd_inf, nan_to_zero(a1), a1);
  b1 = select(cd_inf, nan_to_zero(b1), b1);
  // Finite operands whose products overflowed: every NaN zeroed.
  const Val<bool> overflowed = product_inf && !ab_inf && !cd_inf;
  a1 = select(overflowed, nan_to_zero(a1), a1);
  b1 = select(overflowed, nan_to_zero(b1), b1);
  c1 = select(overflowed, nan_to_zero(c1), c1);
  d1 = select(overflowed, nan_to_zero(d1), d1);
  const Val<bool> recover = isnan(x) && isnan(y) && (ab_inf || cd_inf || product_inf);
  const Val<T> inf = constant_like(a, std::numeric_limits<T>::infinity());
  return {select(recover, inf * (a1 * c1 - b1 * d1), x),
          select(recover, inf * (a1 * d1 + b1 * c1), y)};
}

/// (a + bi) / (c + di) as C's Annex G (its example _Cdivd, compiler-rt's __divsc3): the divisor
/// scaled by its exponent, so c^2 + d^2 neither overflows nor underflows, and the infinities and
/// zeros of the special cases recovered where the formula gives NaN + NaN i. The dividend is
/// scaled by its own exponent too (the example's a*c + b*d overflows for FLT_MAX / 2.5i).
template <class T>
Complex<T> divide(Val<T> a, Val<T> b, Val<T> c, Val<T> d) {
  const Val<T> zero = constant_like(a, T(0));
  const Val<T> inf = constant_like(a, std::numeric_limits<T>::infinity());
  const Val<T> logbw = logb(fmax(fabs(c), fabs(d)));
  const Val<bool> scaled = isfinite(logbw);
  // In range for int32 wherever it is used: logb of a finite float is at most ~1074.
  const Val<std::int32_t> ilogbw = cast<std::int32_t>(select(scaled, logbw, zero));
  const Val<std::int32_t> minus = -ilogbw;
  const Val<T> cs = ldexp(c, minus), ds = ldexp(d, minus);
  const Val<T> denom = cs * cs + ds * ds;
  const Val<T> logba = logb(fmax(fabs(a), fabs(b)));
  const Val<std::int32_t> ilogba = cast<std::int32_t>(select(isfinite(logba), logba, zero));
  const Val<T> as = ldexp(a, -ilogba), bs = ldexp(b, -ilogba);
  const Val<std::int32_t> shift = ilogba - ilogbw;
  const Val<T> x = ldexp((as * cs + bs * ds) / denom, shift);
  const Val<T> y = ldexp((bs * cs - as * ds) / denom, shift);
  // 1. Zero divisor, a number dividend: infinities with the dividend's signs.
  const Val<bool> by_zero = denom == zero && (!isnan(a) || !isnan(b));
  const Val<T> signed_inf = copysign(inf, c);
  // 2. Infinite dividend, finite divisor.
  const Val<bool> inf_by_finite = (isinf(a) || isinf(b)) && isfinite(c) && isfinite(d);
  const Val<T> ab = box_infinity(a), bb = box_infinity(b);
  // 3. Finite dividend, infinite divisor: zeros (of the scaled dividend, which cannot overflow).
  const Val<bool> finite_by_inf = isinf(logbw) && logbw > zero && isfinite(a) && isfinite(b);
  const Val<T> cb = box_infinity(c), db = box_infinity(d);
  Val<T> rx = select(finite_by_inf, zero * (as * cb + bs * db), x);
  Val<T> ry = select(finite_by_inf, zero * (bs * cb - as * db), y);
  rx = select(inf_by_finite, inf * (ab * cs + bb * ds), rx);
  ry = select(inf_by_finite, inf * (bb * cs - ab * ds), ry);
  rx = select(by_zero, signed_inf * a, rx);
  ry = select(by_zero, signed_inf * b, ry);
  const Val<bool> both_nan = isnan(x) && isnan(y);
  return {select(both_nan, rx, x), select(both_nan, ry, y)};
}
}  // namespace detail

namespace detail {
/// `+= -= *= /=` of an element or a variable (`Place`): its value, the operator below, stored
/// back through its assignment. Any operand the operator takes: a complex operand, a real, a
/// std::complex constant.
template <class Place>
class ComplexCompound {
 public:
  template <class X>
  const Place& operator+=(const X& x) const {
    return place() = (place().get() + x);
  }
  template <class X>
  const Place& operator-=(const X& x) const {
    return place() = (place().get() - x);
  }
  template <class X>
  const Place& operator*=(const X& x) const {
    return place() = (place().get() * x);
  }
  template <class X>
  const Place& operator/=(const X& x) const {
    return place() = (place().get() / x);
  }

 private:
  const Place& place() const { return static_cast<const Place&>(*this); }
};
}  // namespace detail

/// An element of an array of std::complex<float|double> (`z[i]`): reads as a Complex<T>,
/// assigns when the array is writable. Its parts are `real()` and `imag()`, elements of T.
template <class S>
class ComplexRef : public detail::ComplexCompound<ComplexRef<S>> {
 public:
  using T = typename std::remove_const_t<S>::value_type;
  ComplexRef(const Pointer& p, Value index)
      : re_(p, index, part(p, 0)), im_(p, index, part(p, sizeof(T))) {}

  Ref<detail::LikeConst<S, T>> real() const { return re_; }
  Ref<detail::LikeConst<S, T>> imag() const { return im_; }
  operator Complex<T>() const { return get(); }
  Complex<T> get() const { return {re_.get(), im_.get()}; }

  const ComplexRef& operator=(const Complex<T>& z) const requires(!std::is_const_v<S>) {
    re_ = z.real();
    im_ = z.imag();
    return *this;
  }
  const ComplexRef& operator=(const ComplexRef& other) const requires(!std::is_const_v<S>) {
    return *this = other.get();
  }
  template <ComplexOperand X>
  const ComplexRef& operator=(const X& z) const
      requires(!std::is_const_v<S> && std::is_same_v<complex_part_t<X>, T>) {
    return *this = Complex<T>(z.get());
  }
  /// A real value: imaginary part 0.
  const ComplexRef& operator=(Val<T> x) const requires(!std::is_const_v<S>) {
    return *this = Complex<T>(x);
  }
  const ComplexRef& operator=(std::complex<T> c) const requires(!std::is_const_v<S>) {
    return *this = Complex<T>(detail::constant_like(re_.index(), c.real()),
                              detail::constant_like(re_.index(), c.imag()));
  }

 private:
  static detail::FieldPath part(const Pointer& p, std::size_t offset) {
    return detail::member_path(p, {}, *struct_layout<std::remove_const_t<S>>(), offset,
                               detail::describe_member<T>("", 0));
  }
  Ref<detail::LikeConst<S, T>> re_, im_;
};

/// A private complex variable (`auto acc = kb.var(Complex<float>(kb, {0, 0}))`): reads as a
/// Complex<T>, assigns.
template <ComplexPart T>
class ComplexVar : public detail::ComplexCompound<ComplexVar<T>> {
 public:
  ComplexVar(KernelBuilder& kb, const Complex<T>& init)
      : re_(kb.var(init.real())), im_(kb.var(init.imag())) {}
  operator Complex<T>() const { return get(); }
  Complex<T> get() const { return {re_.get(), im_.get()}; }
  const ComplexVar& operator=(const Complex<T>& z) const {
    re_ = z.real();
    im_ = z.imag();
    return *this;
  }
  const ComplexVar& operator=(const ComplexVar& other) const { return *this = other.get(); }
  template <ComplexOperand X>
  const ComplexVar& operator=(const X& z) const requires std::is_same_v<complex_part_t<X>, T> {
    return *this = Complex<T>(z.get());
  }

 private:
  Var<T> re_, im_;
};

template <ComplexPart T>
ComplexVar<T> KernelBuilder::var(const Complex<T>& init) {
  return ComplexVar<T>(*this, init);
}

// Parts and the simple functions.
template <ComplexOperand X>
Val<complex_part_t<X>> real(const X& z) {
  return z.get().real();
}
template <ComplexOperand X>
Val<complex_part_t<X>> imag(const X& z) {
  return z.get().imag();
}
template <ComplexOperand X>
Complex<complex_part_t<X>> conj(const X& z) {
  const auto v = z.get();
  return {v.real(), -v.imag()};
}
/// |z| without overflow or underflow on the way (hypot): std::abs.
template <ComplexOperand X>
Val<complex_part_t<X>> abs(const X& z) {
  const auto v = z.get();
  return hypot(v.real(), v.imag());
}
/// The angle in (-pi, pi]: atan2(imag, real), std::arg.
template <ComplexOperand X>
Val<complex_part_t<X>> arg(const X& z) {
  const auto v = z.get();
  return atan2(v.imag(), v.real());
}
/// real^2 + imag^2 (std::norm; Julia's abs2).
template <ComplexOperand X>
Val<complex_part_t<X>> norm(const X& z) {
  const auto v = z.get();
  return v.real() * v.real() + v.imag() * v.imag();
}
/// rho (cos theta + i sin theta), std::polar.
template <class R, class A>
requires detail::RealOperand<R> && detail::RealOperand<A> &&
    (KernelOperand<R> || KernelOperand<A>)auto polar(const R& rho, const A& theta) {
  using T = detail::first_operand_t<R, A>;
  const Val<T> r = [&] {
    if constexpr (KernelOperand<R>)
      return Val<T>(detail::read(rho));
    else
      return detail::constant_like(Value(detail::read(theta)), static_cast<T>(rho));
  }();
  const Val<T> t = detail::real_value<T>(r, theta);
  return Complex<T>(r * cos(t), r * sin(t));
}

// Arithmetic: complex with complex, with a real (kernel float or plain number), and with a
// std::complex constant.
template <ComplexOperand A, ComplexOperand B>
Complex<complex_part_t<A>> operator+(const A& a, const B& b) {
  detail::check_same_parts<A, B>();
  const auto x = a.get(), y = b.get();
  return {x.real() + y.real(), x.imag() + y.imag()};
}
template <ComplexOperand A, ComplexOperand B>
Complex<complex_part_t<A>> operator-(const A& a, const B& b) {
  detail::check_same_parts<A, B>();
  const auto x = a.get(), y = b.get();
  return {x.real() - y.real(), x.imag() - y.imag()};
}
template <ComplexOperand A, ComplexOperand B>
Complex<complex_part_t<A>> operator*(const A& a, const B& b) {
  detail::check_same_parts<A, B>();
  const auto x = a.get(), y = b.get();
  return detail::multiply(x.real(), x.imag(), y.real(), y.imag());
}
template <ComplexOperand A, ComplexOperand B>
Complex<complex_part_t<A>> operator/(const A& a, const B& b) {
  detail::check_same_parts<A, B>();
  const auto x = a.get(), y = b.get();
  return detail::divide(x.real(), x.imag(), y.real(), y.imag());
}
template <ComplexOperand A>
Complex<complex_part_t<A>> operator-(const A& a) {
  const auto x = a.get();
  return {-x.real(), -x.imag()};
}
template <ComplexOperand A>
Complex<complex_part_t<A>> operator+(const A& a) {
  return a.get();
}
template <ComplexOperand A, ComplexOperand B>
Val<bool> operator==(const A& a, const B& b) {
  detail::check_same_parts<A, B>();
  const auto x = a.get(), y = b.get();
  return x.real() == y.real() && x.imag() == y.imag();
}
template <ComplexOperand A, ComplexOperand B>
Val<bool> operator!=(const A& a, const B& b) {
  return !(a == b);
}

#define SPVJIT_COMPLEX_REAL_OPERATORS(sym, with_real_right, with_real_left)                       \
  template <ComplexOperand A, class R>                                                            \
  requires detail::RealOperand<R> Complex<complex_part_t<A>>                                      \
  operator sym(const A& a, const R& r) {                                                          \
    using T = complex_part_t<A>;                                                                  \
    const Complex<T> z = a.get();                                                                 \
    const Val<T> x = detail::real_value<T>(z.real(), r);                                          \
    return with_real_right;                                                                       \
  }                                                                                               \
  template <class R, ComplexOperand A>                                                            \
  requires detail::RealOperand<R> Complex<complex_part_t<A>>                                      \
  operator sym(const R& r, const A& a) {                                                          \
    using T = complex_part_t<A>;                                                                  \
    const Complex<T> z = a.get();                                                                 \
    const Val<T> x = detail::real_value<T>(z.real(), r);                                          \
    return with_real_left;                                                                        \
  }                                                                                               \
  template <ComplexOperand A>                                                                     \
  Complex<complex_part_t<A>> operator sym(const A& a, const std::complex<complex_part_t<A>>& c) { \
    const auto z = a.get();                                                                       \
    return z sym Complex<complex_part_t<A>>(detail::constant_like(z.real(), c.real()),            \
                                            detail::constant_like(z.real(), c.imag()));           \
  }                                                                                               \
  template <ComplexOperand A>                                                                     \
  Complex<complex_part_t<A>> operator sym(const std::complex<complex_part_t<A>>& c, const A& a) { \
    const auto z = a.get();                                                                       \
    return Complex<complex_part_t<A>>(detail::constant_like(z.real(), c.real()),                  \
                                      detail::constant_like(z.real(), c.imag())) sym z;           \
  }
// As std::complex<T> and T: a real changes only what it touches (x + z keeps z's imaginary
// part and its sign of zero), except a real divided by a complex, which is a full division.
SPVJIT_COMPLEX_REAL_OPERATORS(+, Complex<T>(z.real() + x, z.imag()),
                              Complex<T>(x + z.real(), z.imag()))
SPVJIT_COMPLEX_REAL_OPERATORS(-, Complex<T>(z.real() - x, z.imag()),
                              Complex<T>(x - z.real(), -z.imag()))
SPVJIT_COMPLEX_REAL_OPERATORS(*, Complex<T>(z.real() * x, z.imag() * x),
                              Complex<T>(x* z.real(), x* z.imag()))
SPVJIT_COMPLEX_REAL_OPERATORS(/, Complex<T>(z.real() / x, z.imag() / x), Complex<T>(x) / z)
#undef SPVJIT_COMPLEX_REAL_OPERATORS

/// e^z, with Annex G's special values: exp(x ± 0i) = e^x ± 0i; exp(-inf + iy) = +0 for y
/// infinite or NaN; exp(+inf + iy) = +inf + NaN i for y infinite or NaN.
template <ComplexOperand X>
Complex<complex_part_t<X>> exp(const X& z) {
  using T = complex_part_t<X>;
  const Complex<T> v = z.get();
  const Val<T> x = v.real(), y = v.imag();
  const Val<T> zero = detail::constant_like(x, T(0));
  // Past ~90% of exp's range, e^x = e^(x/2) e^(x/2) multiplied in after the sine and cosine:
  // e^x may overflow where e^x sin y does not.
  const Val<bool> big =
      x > detail::constant_like(x, T(0.9) * std::log(std::numeric_limits<T>::max()));
  const Val<T> e_part = exp(select(big, x * detail::constant_like(x, T(0.5)), x));
  const Val<T> one = detail::constant_like(x, T(1));
  const Val<T> e_rest = select(big, e_part, one);
  const Val<T> e = e_part * e_rest;
  const auto [s, c] = sincos(y);
  Val<T> re = (e_part * c) * e_rest, im = (e_part * s) * e_rest;
  const Val<bool> y_not_finite = !isfinite(y);
  const Val<bool> to_zero = isinf(x) && x < zero && y_not_finite;
  const Val<bool> to_inf = isinf(x) && x > zero && y_not_finite;
  re = select(to_zero, zero, select(to_inf, x, re));
  im = select(to_zero, zero,
              select(to_inf, detail::constant_like(x, std::numeric_limits<T>::quiet_NaN()), im));
  const Val<bool> real_axis = y == zero;
  return {select(real_axis, e, re), select(real_axis, y, im)};
}

/// The natural logarithm, the branch cut along the negative real axis: log|z| + i arg z
/// (log(-0 + 0i) = -inf + i pi, log(x + i inf) = +inf + i pi/2). Near |z| = 1 the real part
/// has an absolute (not relative) error of a few ulp of 1.
template <ComplexOperand X>
Complex<complex_part_t<X>> log(const X& z) {
  using T = complex_part_t<X>;
  const Complex<T> v = z.get();
  const Val<T> x = v.real(), y = v.imag();
  // |z| past 2^±(a quarter of the exponent range) is scaled by its exponent e first, and
  // e log 2 added back: hypot would overflow (or lose subnormal bits) where log|z| need not.
  const Val<T> m = fmax(fabs(x), fabs(y));
  const Val<T> e = logb(m);
  constexpr T quarter = std::numeric_limits<T>::max_exponent / 4;
  const Val<bool> far = isfinite(e) && fabs(e) > detail::constant_like(x, quarter);
  const Val<std::int32_t> k = cast<std::int32_t>(select(far, e, detail::constant_like(x, T(0))));
  const Val<T> h = hypot(ldexp(x, -k), ldexp(y, -k));
  const Val<T> ln2 = detail::constant_like(x, std::numbers::ln2_v<T>);
  return {log(h) + cast<T>(k) * ln2, atan2(y, x)};
}

/// The square root with a non-negative real part, the branch cut along the negative real axis
/// (sqrt(-4 - 0i) = 0 - 2i), Annex G's special values (sqrt(x + i inf) = +inf + i inf for every
/// x), computed without overflow and, by scaling tiny values up, without losing subnormal bits.
template <ComplexOperand X>
Complex<complex_part_t<X>> sqrt(const X& z) {
  using T = complex_part_t<X>;
  const Complex<T> v = z.get();
  const Val<T> x0 = v.real(), y0 = v.imag();
  const Val<T> zero = detail::constant_like(x0, T(0));
  const Val<T> half = detail::constant_like(x0, T(0.5));
  // Below 2^-100 (float) or 2^-1000 (double) a halving would drop bits, above 2^100 (2^1000)
  // hypot may overflow: scale by 4^±k first, and the root by 2^∓k after.
  constexpr int k = std::is_same_v<T, float> ? 32 : 64;
  constexpr int edge = std::is_same_v<T, float> ? 100 : 1000;
  const Val<T> m = fmax(fabs(x0), fabs(y0));
  const Val<T> one = detail::constant_like(x0, T(1));
  const Val<bool> small = m < detail::constant_like(x0, std::ldexp(T(1), -edge));
  const Val<bool> large = m > detail::constant_like(x0, std::ldexp(T(1), edge));
  const Val<T> up = select(small, detail::constant_like(x0, std::ldexp(T(1), 2 * k)),
                           select(large, detail::constant_like(x0, std::ldexp(T(1), -2 * k)), one));
  const Val<T> down = select(small, detail::constant_like(x0, std::ldexp(T(1), -k)),
                             select(large, detail::constant_like(x0, std::ldexp(T(1), k)), one));
  const Val<T> x = x0 * up, y = y0 * up;
  const Val<T> r = hypot(x, y);
  const Val<T> t = sqrt(r * half + fabs(x) * half);
  const Val<T> other = y / (t + t);
  const Val<bool> right = x >= zero;
  Val<T> re = select(right, t, fabs(y) / (t + t)) * down;
  Val<T> im = select(right, other, copysign(t, y)) * down;
  // sqrt(±0 ± 0i) = +0 ± 0i; sqrt(x ± i inf) = +inf ± i inf.
  const Val<bool> at_zero = x0 == zero && y0 == zero;
  const Val<bool> inf_imag = isinf(y0);
  const Val<T> inf = detail::constant_like(x0, std::numeric_limits<T>::infinity());
  re = select(at_zero, zero, select(inf_imag, inf, re));
  im = select(at_zero || inf_imag, y0, im);
  return {re, im};
}

/// z^w = exp(w log z) (C's cpow, which std::pow of two complex numbers calls).
template <ComplexOperand A, ComplexOperand B>
Complex<complex_part_t<A>> pow(const A& z, const B& w) {
  detail::check_same_parts<A, B>();
  return exp(w.get() * log(z.get()));
}
/// z^x for a real x, as libstdc++: pow(re, x) on the positive real axis, else
/// polar(e^(x log|z|), x arg z).
template <ComplexOperand A, class R>
requires detail::RealOperand<R> Complex<complex_part_t<A>> pow(const A& z, const R& r) {
  using T = complex_part_t<A>;
  const Complex<T> v = z.get();
  const Val<T> x = detail::real_value<T>(v.real(), r);
  const Val<T> zero = detail::constant_like(x, T(0));
  const Complex<T> l = log(v);
  const Val<T> rho = exp(x * l.real()), theta = x * l.imag();
  const Val<bool> positive_real = v.imag() == zero && v.real() > zero;
  return {select(positive_real, pow(v.real(), x), rho * cos(theta)),
          select(positive_real, zero, rho * sin(theta))};
}
/// x^z for a real x, as libstdc++: polar(x^re, im log x) for x > 0, else complex(x)^z.
template <class R, ComplexOperand A>
requires detail::RealOperand<R> Complex<complex_part_t<A>> pow(const R& r, const A& z) {
  using T = complex_part_t<A>;
  const Complex<T> w = z.get();
  const Val<T> x = detail::real_value<T>(w.real(), r);
  const Val<T> zero = detail::constant_like(x, T(0));
  const Val<T> rho = pow(x, w.real()), theta = w.imag() * log(x);
  const Complex<T> general = pow(Complex<T>(x), w);
  const Val<bool> positive = x > zero;
  return {select(positive, rho * cos(theta), general.real()),
          select(positive, rho * sin(theta), general.imag())};
}

/// The complex number with the other part type (rounded to float, or widened to double).
template <ComplexPart To, ComplexOperand X>
Complex<To> complex_cast(const X& z) {
  const auto v = z.get();
  return {cast<To>(v.real()), cast<To>(v.imag())};
}

namespace detail {
/// A by-value std::complex<T> parameter: a Complex<T>.
template <class P>
requires is_std_complex_v<P>
struct ParamTraits<P> {
  static Complex<typename P::value_type> declare(KernelBuilder& kb, std::string_view name) {
    const Pointer p = kb.struct_param(name, struct_layout<P>());
    return ComplexRef<const P>(p, literal(state_of(p), std::int64_t{0})).get();
  }
};
}  // namespace detail

}  // namespace spvjit

SPVJIT_API_END
