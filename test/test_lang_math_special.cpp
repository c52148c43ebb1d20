// The math functions beyond one float in, one float out: the relational tests on every class of
// float (scalar, vector and coarsened), the i32-exponent functions, the two-result functions,
// nextafter, the integer builtins on every integer type, and the operand conveniences (elements,
// plain numbers, numbers at launch) — each against the host.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "test/coarsen_support.hpp"
#include "test/lang_support.hpp"
#include "test/ulp_distance.hpp"
#include "test/ulp_distance.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

// Every class of float, both signs: zeros, subnormals, normals, the extremes, infinities, NaNs.
template <class T>
std::vector<T> float_classes() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0),           -T(0),           T(1),      T(-1),           T(0.5),
                      T(-2.75),       L::min(),        -L::min(), L::denorm_min(), -L::denorm_min(),
                      L::min() / 4,   L::max(),        -L::max(), L::infinity(),   -L::infinity(),
                      L::quiet_NaN(), -L::quiet_NaN(), T(1e-30),  T(123456.5)};
  while (v.size() % 16 != 0) v.push_back(T(v.size()) * T(-0.375));
  return v;
}

// One bit per test: isnan, isinf, isfinite, isnormal, signbit.
template <class T>
std::int32_t host_tests(T x) {
  return (std::isnan(x) ? 1 : 0) | (std::isinf(x) ? 2 : 0) | (std::isfinite(x) ? 4 : 0) |
         (std::isnormal(x) ? 8 : 0) | (std::signbit(x) ? 16 : 0);
}

template <class B>
Val<std::int32_t> bit(KernelBuilder& kb, const B& test, std::int32_t value) {
  return select(test, kb.lit(value), kb.lit(std::int32_t{0}));
}

template <class T>
KernelDef scalar_tests_kernel() {
  KernelBuilder kb(std::string("float_tests_") + std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<std::int32_t>>("out");
  auto in = kb.param<Const<T>>("in");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    // Elements as operands, no .get(): isnan(in[i]).
    out[i] = bit(kb, isnan(in[i]), 1) | bit(kb, isinf(in[i]), 2) | bit(kb, isfinite(in[i]), 4) |
             bit(kb, isnormal(in[i]), 8) | bit(kb, signbit(in[i]), 16);
  });
  return kb.finish();
}

template <class T, unsigned N>
KernelDef vector_tests_kernel() {
  KernelBuilder kb(std::string("float_tests_vec_") + std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<std::int32_t>>("out");
  auto in = kb.param<Const<T>>("in");
  auto k = kb.global_index() * std::int64_t{N};
  const Vec<T, N> x = vload<N>(in, k);
  auto one = [&](Vec<bool, N> t, std::int32_t value) {
    return select(t, Vec<std::int32_t, N>::splat(kb.lit(value)),
                  Vec<std::int32_t, N>::splat(kb.lit(std::int32_t{0})));
  };
  vstore(out, k,
         one(isnan(x), 1) | one(isinf(x), 2) | one(isfinite(x), 4) | one(isnormal(x), 8) |
             one(signbit(x), 16));
  return kb.finish();
}

template <class T>
void check_tests() {
  CAPTURE(name(scalar_of<T>));
  auto& rt = runtime();
  const std::vector<T> input = float_classes<T>();
  const std::size_t n = input.size();
  auto In = rt.upload(input);
  auto run = [&](Kernel k, std::size_t items) {
    auto Out = rt.zeros<std::int32_t>(n);
    k.launch(NDRange{items}, Out, In);
    rt.synchronize();
    return Out.to_vector();
  };
  const KernelDef scalar = scalar_tests_kernel<T>();
  const KernelDef vector = vector_tests_kernel<T, 16 / sizeof(T) * 2>();
  CHECK(is_coarsened(coarse_jit(), scalar));  // bit tests, no call: coarsening keeps them
  const std::vector<std::int32_t> got[3] = {run(compile_checked(scalar), n),
                                            run(coarse_jit().compile(scalar), n),
                                            run(compile_checked(vector), n / (32 / sizeof(T)))};
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    CAPTURE(input[i]);
    for (const auto& g : got) CHECK(g[i] == host_tests(input[i]));
  }
}

}  // namespace

TEST_CASE(
    "isnan, isinf, isfinite, isnormal, signbit on every class of float: scalar, Vec, "
    "coarsened") {
  check_tests<float>();
  check_tests<double>();
}

namespace {

// ldexp, pown, rootn, ilogb, frexp, modf, fract, sincos, lgamma_r, remquo and nextafter, with
// elements and plain numbers as operands; one output row per function.
constexpr std::int64_t rows = 16;

template <class T>
KernelDef exponent_and_pair_kernel() {
  KernelBuilder kb(std::string("math_pairs_") + std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<T>>("out");
  auto ints = kb.param<Global<std::int32_t>>("ints");
  auto xs = kb.param<Const<T>>("x");
  auto ys = kb.param<Const<T>>("y");
  auto ns = kb.param<Const<std::int32_t>>("n");
  auto i = kb.global_index();
  auto n = kb.ndrange();
  kb.if_(kb.in_ndrange(), [&] {
    auto r = view(out, rows, n);
    auto q = view(ints, rows, n);
    r(0, i) = ldexp(xs[i], ns[i]);
    r(1, i) = ldexp(xs[i], 3);  // a plain number for the i32 exponent
    r(2, i) = pown(xs[i], ns[i]);
    r(3, i) = rootn(fabs(xs[i]), 3);
    q(0, i) = ilogb(xs[i]);
    auto [mantissa, exponent] = frexp(xs[i]);
    r(4, i) = mantissa;
    q(1, i) = exponent;
    auto [fraction, integral] = modf(xs[i]);
    r(5, i) = fraction;
    r(6, i) = integral;
    auto [above_floor, floor_part] = fract(xs[i]);
    r(7, i) = above_floor;
    r(8, i) = floor_part;
    auto [s, c] = sincos(xs[i]);
    r(9, i) = s;
    r(10, i) = c;
    auto [lg, sign] = lgamma_r(xs[i]);
    r(11, i) = lg;
    q(2, i) = sign;
    auto [rem, quo] = remquo(xs[i], ys[i]);
    r(12, i) = rem;
    q(3, i) = quo;
    r(13, i) = nextafter(xs[i], ys[i]);
    r(14, i) = pow(xs[i], 2);  // a plain number beside an element
    r(15, i) = hypot(xs[i], T(3)) - clamp(ys[i], -1, 1);
  });
  return kb.finish();
}

template <class T>
void check_exponent_and_pairs() {
  CAPTURE(name(scalar_of<T>));
  auto& rt = runtime();
  const std::size_t count = 203;
  std::vector<T> x(count), y(count);
  std::vector<std::int32_t> e(count);
  for (std::size_t k = 0; k < count; ++k) {
    const double t = std::fmod(static_cast<double>(k) * 0.618033988749894848, 1.0);
    x[k] = static_cast<T>((t - 0.5) * 40.0);
    y[k] = static_cast<T>(std::sin(static_cast<double>(k)) * 7.0);
    e[k] = static_cast<std::int32_t>(k % 21) - 10;
  }
  x[0] = T(0);
  x[1] = T(-0.0);
  x[2] = T(2.5);  // fract, modf and remquo at a half
  x[3] = T(-3);   // an integer: fraction 0, lgamma infinite
  x[4] = std::numeric_limits<T>::denorm_min();
  y[4] = T(1);
  // ldexp into the subnormals, where a result rounded twice is an ulp off (issue #67), and
  // past the largest float.
  const bool f32 = std::is_same_v<T, float>;
  x[5] = T(-0.150999695f), e[5] = f32 ? -129 : -1025;
  x[6] = T(1.10895443e-24f), e[6] = f32 ? -65 : -985;
  x[7] = T(1.5), e[7] = f32 ? -149 : -1074;  // exactly half way above the least subnormal
  x[8] = T(-1.75), e[8] = f32 ? -150 : -1075;
  x[9] = T(0.7), e[9] = f32 ? 200 : 1100;  // overflow
  Kernel k = compile_checked(exponent_and_pair_kernel<T>());
  auto X = rt.upload(x), Y = rt.upload(y);
  auto N = rt.upload(e);
  auto Out = rt.zeros<T>(rows * count);
  auto Ints = rt.zeros<std::int32_t>(rows * count);
  k.launch(NDRange{count}, Out, Ints, X, Y, N);
  rt.synchronize();
  const auto r = Out.to_vector();
  const auto q = Ints.to_vector();
  auto at = [&](std::size_t row, std::size_t i) { return r[row * count + i]; };
  auto int_at = [&](std::size_t row, std::size_t i) { return q[row * count + i]; };
  const T below_one = std::nextafter(T(1), T(0));
  for (std::size_t i = 0; i < count; ++i) {
    CAPTURE(i);
    CAPTURE(x[i]);
    CAPTURE(y[i]);
    const T xi = x[i];
    CHECK(test::ulp_distance(at(0, i), std::ldexp(xi, e[i])) == 0);
    CHECK(test::ulp_distance(at(1, i), std::ldexp(xi, 3)) == 0);
    CHECK(test::ulp_distance(at(2, i),
                             static_cast<T>(std::pow(static_cast<long double>(xi), e[i]))) <= 16);
    CHECK(test::ulp_distance(
              at(3, i), static_cast<T>(std::cbrt(std::fabs(static_cast<long double>(xi))))) <= 16);
    if (xi != 0) CHECK(int_at(0, i) == std::ilogb(xi));  // ilogb(0) is the device's FP_ILOGB0
    int exponent = 0;
    const T mantissa = std::frexp(xi, &exponent);
    CHECK(test::ulp_distance(at(4, i), mantissa) == 0);
    CHECK(int_at(1, i) == exponent);
    T integral = 0;
    const T fraction = std::modf(xi, &integral);
    CHECK(test::ulp_distance(at(5, i), fraction) == 0);
    CHECK(test::ulp_distance(at(6, i), integral) == 0);
    CHECK(test::ulp_distance(at(7, i), std::fmin(xi - std::floor(xi), below_one)) == 0);
    CHECK(test::ulp_distance(at(8, i), std::floor(xi)) == 0);
    CHECK(test::ulp_distance(at(9, i), static_cast<T>(std::sin(static_cast<long double>(xi)))) <=
          4);
    CHECK(test::ulp_distance(at(10, i), static_cast<T>(std::cos(static_cast<long double>(xi)))) <=
          4);
    if (xi > 0) {  // away from lgamma's poles and zeros the bound of pow
      const long double lg = std::lgamma(static_cast<long double>(xi));
      if (std::fabs(xi - 1) > 0.1 && std::fabs(xi - 2) > 0.1) {
        CHECK(test::ulp_distance(at(11, i), static_cast<T>(lg)) <= 16);
      }
      CHECK(int_at(2, i) == 1);
    }
    int quotient = 0;
    const T rem = std::remquo(xi, y[i], &quotient);
    CHECK(test::ulp_distance(at(12, i), rem) == 0);
    // OpenCL promises the quotient's sign and at least its 3 low bits.
    CHECK((int_at(3, i) < 0) == (quotient < 0));
    CHECK((std::abs(int_at(3, i)) & 7) == (std::abs(quotient) & 7));
    CHECK(test::ulp_distance(at(13, i), std::nextafter(xi, y[i])) == 0);
    CHECK(test::ulp_distance(at(14, i), xi * xi) <= 16);
    const T h = static_cast<T>(std::hypot(static_cast<long double>(xi), 3.0L));
    CHECK(std::fabs(at(15, i) - (h - std::clamp(y[i], T(-1), T(1)))) <=
          8 * std::numeric_limits<T>::epsilon() * std::fabs(h));
  }
}

// The vector forms give each lane what the scalar function gives.
template <class T, unsigned N>
void check_vector_pairs() {
  CAPTURE(name(scalar_of<T>));
  CAPTURE(N);
  KernelBuilder kb(std::string("vec_pairs_") + std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<T>>("out");
  auto ref = kb.param<Global<T>>("ref");
  auto ints = kb.param<Global<std::int32_t>>("ints");
  auto int_ref = kb.param<Global<std::int32_t>>("int_ref");
  auto in = kb.param<Const<T>>("in");
  auto k = kb.global_index() * std::int64_t{N};
  const Vec<T, N> x = vload<N>(in, k);
  const auto [m, e] = frexp(x);
  const auto [fr, fl] = fract(x);
  const auto [rem, quo] = remquo(x, x * T(0.3) + T(1));
  auto o = view(out, std::int64_t{4}, kb.ndrange() * std::int64_t{N});
  auto r = view(ref, std::int64_t{4}, kb.ndrange() * std::int64_t{N});
  auto oi = view(ints, std::int64_t{3}, kb.ndrange() * std::int64_t{N});
  auto ri = view(int_ref, std::int64_t{3}, kb.ndrange() * std::int64_t{N});
  const Vec<T, N> lx = ldexp(x, ilogb(x));
  for (unsigned lane = 0; lane < N; ++lane) {
    auto j = k + std::int64_t{lane};
    o(0, j) = m[lane];
    o(1, j) = fr[lane];
    o(2, j) = rem[lane];
    o(3, j) = lx[lane];
    oi(0, j) = e[lane];
    oi(1, j) = quo[lane] & 7;
    oi(2, j) = select(fl[lane] < x[lane], kb.lit(std::int32_t{1}), kb.lit(std::int32_t{0}));
    const Val<T> xl = x[lane];
    auto [sm, se] = frexp(xl);
    auto [sfr, sfl] = fract(xl);
    auto [srem, squo] = remquo(xl, xl * T(0.3) + T(1));
    r(0, j) = sm;
    r(1, j) = sfr;
    r(2, j) = srem;
    r(3, j) = ldexp(xl, ilogb(xl));
    ri(0, j) = se;
    ri(1, j) = squo & 7;
    ri(2, j) = select(sfl < xl, kb.lit(std::int32_t{1}), kb.lit(std::int32_t{0}));
  }
  Kernel kernel = compile_checked(kb.finish());
  auto& rt = runtime();
  std::vector<T> input(N * 8);
  for (std::size_t i = 0; i < input.size(); ++i)
    input[i] = static_cast<T>((static_cast<double>(i) - 20.3) * 1.7);
  auto In = rt.upload(input);
  auto Out = rt.zeros<T>(4 * input.size()), Ref = rt.zeros<T>(4 * input.size());
  auto Ints = rt.zeros<std::int32_t>(3 * input.size()),
       IntRef = rt.zeros<std::int32_t>(3 * input.size());
  kernel.launch(NDRange{input.size() / N}, Out, Ref, Ints, IntRef, In);
  rt.synchronize();
  const auto o_ = Out.to_vector(), r_ = Ref.to_vector();
  for (std::size_t i = 0; i < o_.size(); ++i) {
    CAPTURE(i);
    CHECK(std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(o_[i]) ==
          std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(r_[i]));
  }
  CHECK(Ints.to_vector() == IntRef.to_vector());
}

}  // namespace

TEST_CASE("ldexp, pown, rootn, ilogb, the two-result functions and nextafter match the host") {
  check_exponent_and_pairs<float>();
  check_exponent_and_pairs<double>();
}

TEST_CASE("vector frexp, fract, remquo, ldexp and ilogb: each lane the scalar function's bits") {
  check_vector_pairs<float, 8>();
  check_vector_pairs<double, 4>();
  check_vector_pairs<float, 3>();
}

namespace {

template <class T>
using Wide = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;

template <class T>
T saturate(__int128 v) {
  if (v < static_cast<__int128>(std::numeric_limits<T>::min()))
    return std::numeric_limits<T>::min();
  if (v > static_cast<__int128>(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

// The host's mad_sat: the exact x * y + z (it fits 128 bits for every type but 64-bit ones,
// where the product alone does), clamped.
template <class T>
T host_mad_sat(T x, T y, T z) {
  if constexpr (sizeof(T) < 8) {
    return saturate<T>(static_cast<__int128>(x) * y + z);
  } else if constexpr (std::is_signed_v<T>) {
    const __int128 p = static_cast<__int128>(x) * y;
    __int128 sum;
    if (__builtin_add_overflow(p, static_cast<__int128>(z), &sum))
      return p < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    return saturate<T>(sum);
  } else {
    const unsigned __int128 p = static_cast<unsigned __int128>(x) * y + z;
    return p > std::numeric_limits<T>::max() ? std::numeric_limits<T>::max() : static_cast<T>(p);
  }
}

template <class T>
T host_integer(int fn, T x, T y) {
  constexpr unsigned bits = sizeof(T) * 8;
  using U = std::make_unsigned_t<T>;
  const Wide<T> wx = x, wy = y;
  switch (fn) {
    case 0:
      return x == 0 ? static_cast<T>(bits) : static_cast<T>(std::countr_zero(static_cast<U>(x)));
    case 1:
      return static_cast<T>((wx * wy) >> bits);
    case 2:
      return static_cast<T>(
          std::rotl(static_cast<U>(x), static_cast<int>(static_cast<U>(y) % bits)));
    case 3:
      return saturate<T>(static_cast<__int128>(x) + static_cast<__int128>(y));
    case 4:
      return saturate<T>(static_cast<__int128>(x) - static_cast<__int128>(y));
    case 5:
      return static_cast<T>(x > y ? static_cast<U>(static_cast<U>(x) - static_cast<U>(y))
                                  : static_cast<U>(static_cast<U>(y) - static_cast<U>(x)));
    case 6:
      return static_cast<T>((wx + wy) >> 1);
    case 7:
      return static_cast<T>((wx + wy + 1) >> 1);
    // mad_hi(x, y, y): the sum wraps, as OpenCL's does (added unsigned: no host overflow).
    case 8:
      return static_cast<T>(static_cast<U>(static_cast<U>((wx * wy) >> bits) + static_cast<U>(y)));
    case 9:
      return host_mad_sat<T>(x, y, x);
  }
  return 0;
}
constexpr int integer_functions = 10;

// Z[i] = one integer builtin of X[i], Y[i]; the saxpy signature the coarsening tests launch.
template <class T>
KernelDef integer_builtin_kernel(int fn) {
  KernelBuilder kb(std::string("int_builtin_") + std::to_string(fn) + "_" +
                   std::string(name(scalar_of<T>)));
  auto z = kb.param<Global<T>>("Z");
  auto xs = kb.param<Const<T>>("X");
  auto ys = kb.param<Const<T>>("Y");
  auto a = kb.param<T>("a");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    const Val<T> x = xs[i], y = ys[i];
    Val<T> r = x;
    switch (fn) {
      case 0:
        r = ctz(x);
        break;
      case 1:
        r = mul_hi(x, y);
        break;
      case 2:
        r = rotate(x, y);
        break;
      case 3:
        r = add_sat(x, y);
        break;
      case 4:
        r = sub_sat(x, y);
        break;
      case 5:
        r = abs_diff(x, y);
        break;
      case 6:
        r = hadd(x, y);
        break;
      case 7:
        r = rhadd(x, y);
        break;
      case 8:
        r = mad_hi(x, y, y);
        break;
      case 9:
        r = mad_sat(x, y, x);
        break;
    }
    z[i] = r + a - a;
  });
  return kb.finish();
}

template <class T>
void check_integer_builtins() {
  CAPTURE(name(scalar_of<T>));
  using L = std::numeric_limits<T>;
  std::vector<T> x = test::random_data<T>(301, 11);
  std::vector<T> y = test::random_data<T>(301, 12);
  const T edges[] = {0,
                     1,
                     L::max(),
                     L::min(),
                     static_cast<T>(L::max() - 1),
                     static_cast<T>(L::min() + 1),
                     static_cast<T>(-1),
                     7};
  std::size_t e = 0;
  for (T a : edges)
    for (T b : edges) {
      x[e] = a;
      y[e] = b;
      ++e;
    }
  auto& rt = runtime();
  for (int fn = 0; fn < integer_functions; ++fn) {
    CAPTURE(fn);
    const KernelDef def = integer_builtin_kernel<T>(fn);
    Kernel k = compile_checked(def);
    auto X = rt.upload(x), Y = rt.upload(y);
    auto Z = rt.zeros<T>(x.size());
    k.launch(NDRange{x.size()}, Z, X, Y, T(0));
    rt.synchronize();
    const auto got = Z.to_vector();
    for (std::size_t i = 0; i < x.size(); ++i) {
      CAPTURE(i);
      CAPTURE(+x[i]);
      CAPTURE(+y[i]);
      CHECK(+got[i] == +host_integer<T>(fn, x[i], y[i]));
    }
    // Each has an exact vector form: the coarsened kernel gives the scalar kernel's bits.
    CHECK(is_coarsened(coarse_jit(), def));
    compare_runs_on<T>(def, x, y, T(0), coarse_jit());
  }
}

}  // namespace

TEST_CASE(
    "integer builtins (ctz, mul_hi, rotate, saturating, hadd, mad_hi, mad_sat) on every type") {
  check_integer_builtins<std::int8_t>();
  check_integer_builtins<std::uint8_t>();
  check_integer_builtins<std::int16_t>();
  check_integer_builtins<std::uint16_t>();
  check_integer_builtins<std::int32_t>();
  check_integer_builtins<std::uint32_t>();
  check_integer_builtins<std::int64_t>();
  check_integer_builtins<std::uint64_t>();
}

TEST_CASE("a number that does not fit the operand's type is refused by name") {
  KernelBuilder kb("clamp_u8");
  auto out = kb.param<Global<std::uint8_t>>("out");
  auto i = kb.global_index();
  CHECK_THROWS_WITH_AS(out[i] = clamp(out[i], 0, 300),
                       "number: 300.000000 does not fit in u8; pass a number in its range or "
                       "cast<T>() the operand",
                       UserError);
}

TEST_CASE("a plain int at launch fills any integer parameter whose type holds it") {
  KernelBuilder kb("plain_numbers");
  auto out = kb.param<Global<std::int64_t>>("out");
  auto wide = kb.param<std::int64_t>("wide");
  auto narrow = kb.param<std::uint8_t>("narrow");
  auto i = kb.global_index();
  out[i] = wide * cast<std::int64_t>(narrow) + i;
  Kernel k = compile_checked(kb.finish());
  auto& rt = runtime();
  auto Out = rt.zeros<std::int64_t>(4);
  k.launch(NDRange{4}, Out, -8, 200);  // an int for an int64_t and for a uint8_t
  rt.synchronize();
  CHECK(Out.to_vector() == std::vector<std::int64_t>{-1600, -1599, -1598, -1597});
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, Out, -8, 300),
                       "launch of kernel 'plain_numbers': argument 2 'narrow': the number 300 "
                       "does not fit u8",
                       UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, Out, -8, 2.5f),
                       doctest::Contains("argument 2 'narrow': expected u8, got a scalar f32"),
                       UserError);
}

namespace {

// Runs check(T{}, jit) for float and double, with the Jit that never coarsens and the one that
// does: each case below holds for scalar and coarsened kernels alike.
template <class Check>
void scalar_and_coarsened(Check check) {
  for (Jit* jit : {&test::scalar_jit(), &test::coarse_jit()}) {
    check(float{}, *jit);
    check(double{}, *jit);
  }
}

}  // namespace

namespace {

// ilogb of ±0, NaN, ±inf, the least subnormal and 1, cycled over `count` work-items.
template <class T>
std::vector<T> ilogb_specials(std::size_t count) {
  using L = std::numeric_limits<T>;
  const T specials[] = {T(0),          T(-0.0),        L::quiet_NaN(),  -L::quiet_NaN(),
                        L::infinity(), -L::infinity(), L::denorm_min(), T(1),
                        T(-6)};
  std::vector<T> x(count);
  for (std::size_t k = 0; k < count; ++k) x[k] = specials[k % std::size(specials)];
  return x;
}

template <class T>
std::int32_t host_ilogb(T x) {
  if (x == 0) return fp_ilogb0;
  if (std::isnan(x)) return fp_ilogbnan;
  if (std::isinf(x)) return INT32_MAX;
  return std::ilogb(x);
}

template <class T>
void check_ilogb_specials(Jit& jit) {
  CAPTURE(name(scalar_of<T>));
  KernelBuilder kb(std::string("ilogb_specials_") + std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<std::int32_t>>("out");
  auto x = kb.param<Const<T>>("x");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { out[i] = ilogb(x[i]); });
  Kernel k = jit.compile(kb.finish());
  const std::size_t count = 100;  // coarsened: whole vectors and a tail
  const auto x_host = ilogb_specials<T>(count);
  auto& rt = runtime();
  auto X = rt.upload(x_host);
  auto Out = rt.zeros<std::int32_t>(count);
  k.launch(NDRange{count}, Out, X);
  rt.synchronize();
  const auto got = Out.to_vector();
  for (std::size_t i = 0; i < count; ++i) {
    CAPTURE(i);
    CAPTURE(x_host[i]);
    CHECK(got[i] == host_ilogb(x_host[i]));
  }
}

}  // namespace

// Issue #67: FP_ILOGB0 and FP_ILOGBNAN are each one of two values in OpenCL, and no device query
// says which; spvjit fixes them (math.hpp), scalar and coarsened alike.
TEST_CASE("ilogb gives fp_ilogb0 for zeros and fp_ilogbnan for NaN, scalar and coarsened") {
  scalar_and_coarsened([](auto type, Jit& jit) { check_ilogb_specials<decltype(type)>(jit); });
}

namespace {

// OpenCL 1.2's special values (section 7.5.1) that PoCL's library missed (issue #67): one row
// per result, over inputs where the section fixes the result, at every input cycled.
template <class T>
KernelDef special_values_kernel() {
  KernelBuilder kb(std::string("special_values_") + std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<T>>("out");
  auto signs = kb.param<Global<std::int32_t>>("signs");
  auto xs = kb.param<Const<T>>("x");
  auto i = kb.global_index();
  auto n = kb.ndrange();
  kb.if_(kb.in_ndrange(), [&] {
    auto r = view(out, std::int64_t{7}, n);
    Val<T> x = xs[i];
    r(0, i) = tanh(x);
    r(1, i) = atanpi(x);
    r(2, i) = sinpi(x);
    r(3, i) = cospi(x);
    r(4, i) = tanpi(x);
    auto [fraction, whole] = fract(x);
    r(5, i) = fraction;
    r(6, i) = whole;
    auto [value, sign] = lgamma_r(x);
    signs[i] = sign;
  });
  return kb.finish();
}

template <class T>
bool same_bits(T a, T b) {
  return std::isnan(a) ? std::isnan(b) : std::signbit(a) == std::signbit(b) && a == b;
}

template <class T>
void check_special_values(Jit& jit) {
  CAPTURE(name(scalar_of<T>));
  const T inf = std::numeric_limits<T>::infinity();
  const T big = std::is_same_v<T, float> ? T(0x1p24) : T(0x1p53);  // an even integer
  const std::vector<T> inputs = {T(0),    T(-0.0), inf,     -inf,  T(1),  T(-1),
                                 T(2),    T(-2),   T(3),    T(-3), T(-4), T(0.5),
                                 T(-0.5), T(1.5),  T(-2.5), big,   -big,  T(0.25)};
  const std::size_t count = 5 * inputs.size();  // coarsened: whole vectors and a tail
  std::vector<T> x(count);
  for (std::size_t k = 0; k < count; ++k) x[k] = inputs[k % inputs.size()];
  Kernel k = jit.compile(special_values_kernel<T>());
  auto& rt = runtime();
  auto X = rt.upload(x);
  auto Out = rt.zeros<T>(7 * count);
  auto Signs = rt.zeros<std::int32_t>(count);
  k.launch(NDRange{count}, Out, Signs, X);
  rt.synchronize();
  const auto r = Out.to_vector();
  const auto sign = Signs.to_vector();
  auto at = [&](std::size_t row, std::size_t k) { return r[row * count + k]; };
  for (std::size_t k = 0; k < count; ++k) {
    const T v = x[k];
    CAPTURE(k);
    CAPTURE(v);
    const bool integer = std::isfinite(v) && std::trunc(v) == v;
    if (std::isinf(v)) {
      CHECK(same_bits(at(0, k), std::copysign(T(1), v)));  // tanh(±inf) = ±1
      CHECK(same_bits(at(5, k), std::copysign(T(0), v)));  // fract(±inf) = (±0, ±inf)
      CHECK(same_bits(at(6, k), v));
    }
    if (v == 0) {
      CHECK(same_bits(at(1, k), v));  // atanpi(±0) = ±0
      CHECK(same_bits(at(5, k), v));  // fract(±0) = (±0, ±0)
      CHECK(same_bits(at(6, k), v));
    }
    if (integer) {
      CHECK(same_bits(at(2, k), std::copysign(T(0), v)));  // sinpi(±n) = ±0
      const bool odd = std::trunc(v / 2) != v / 2;
      CHECK(same_bits(at(4, k), std::copysign(T(0), odd ? -v : v)));
    }
    if (std::isfinite(v) && std::fabs(v - std::trunc(v)) == T(0.5)) {
      CHECK(same_bits(at(3, k), T(0)));  // cospi(n + 0.5) = +0
    }
    if (integer && v <= 0) {
      CHECK(sign[k] == 0);  // lgamma_r at a pole
    } else if (std::isfinite(v)) {
      CHECK(std::abs(sign[k]) == 1);
    }
  }
}

}  // namespace

TEST_CASE("the special values of OpenCL's section 7.5.1, scalar and coarsened") {
  scalar_and_coarsened([](auto type, Jit& jit) { check_special_values<decltype(type)>(jit); });
}

namespace {

// ldexp into the subnormals and past the largest float, each pair of (x, n) cycled over enough
// work-items to fill whole vectors of the coarsened kernel and a tail.
template <class T>
void check_ldexp_rounding(Jit& jit) {
  CAPTURE(name(scalar_of<T>));
  KernelBuilder kb(std::string("ldexp_rounding_") + std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<T>>("out");
  auto xs = kb.param<Const<T>>("x");
  auto ns = kb.param<Const<std::int32_t>>("n");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { out[i] = ldexp(xs[i], ns[i]); });
  Kernel k = jit.compile(kb.finish());
  const bool f32 = std::is_same_v<T, float>;
  const int shift = f32 ? 0 : -896;  // the same cases a double's subnormals lower
  const std::vector<std::pair<T, int>> cases = {
      {T(-0.150999695f), -129 + shift},
      {T(1.10895443e-24f), -65 + shift},
      {T(1.5), f32 ? -149 : -1074},
      {T(-1.75), f32 ? -150 : -1075},
      {T(0.7), f32 ? 200 : 1100},
      {T(3.0), f32 ? -128 : -1024},
      {T(-5.0), f32 ? -140 : -1060},
      {std::numeric_limits<T>::denorm_min(), f32 ? 276 : 2000},
      {std::numeric_limits<T>::max(), f32 ? -300 : -2200},
      {T(1.0), 0}};
  const std::size_t count = 7 * cases.size();
  std::vector<T> x(count);
  std::vector<std::int32_t> n(count);
  for (std::size_t c = 0; c < count; ++c) {
    // Neighbours of each case too: the significand's last bits decide the rounding.
    const auto [value, exponent] = cases[c % cases.size()];
    T v = value;
    for (std::size_t step = 0; step < c / cases.size(); ++step) {
      v = std::nextafter(v, std::numeric_limits<T>::infinity());
    }
    x[c] = v;
    n[c] = exponent;
  }
  auto& rt = runtime();
  auto X = rt.upload(x);
  auto N = rt.upload(n);
  auto Out = rt.zeros<T>(count);
  k.launch(NDRange{count}, Out, X, N);
  rt.synchronize();
  const auto got = Out.to_vector();
  for (std::size_t c = 0; c < count; ++c) {
    CAPTURE(c);
    CAPTURE(x[c]);
    CAPTURE(n[c]);
    CHECK(same_bits(got[c], std::ldexp(x[c], n[c])));
  }
}

}  // namespace

// Issue #67, item 1: a coarsened kernel's ldexp was reported an ulp off the scalar one where the
// result is subnormal. On our PoCL (patches 0001-0016) both are the host's ldexp, bit for bit, on
// the reported inputs and their neighbours; this case keeps it so.
TEST_CASE("ldexp rounds once into the subnormals, scalar and coarsened") {
  scalar_and_coarsened([](auto type, Jit& jit) { check_ldexp_rounding<decltype(type)>(jit); });
}

namespace {

// One launch over the inputs x: result[r * x.size() + c] is the r-th value `results` gives for
// x[c] in the kernel.
template <class T, class Results>
std::vector<T> results_per_input(Jit& jit, const char* kernel, const std::vector<T>& x,
                                 Results results) {
  KernelBuilder kb(kernel);
  auto out = kb.param<Global<T>>("out");
  auto xs = kb.param<Const<T>>("x");
  auto n = kb.param<std::int64_t>("n");
  auto i = kb.global_index();
  std::size_t count = 0;
  kb.if_(kb.in_ndrange(), [&] {
    const std::vector<Val<T>> values = results(Val<T>(xs[i]));
    count = values.size();
    for (std::size_t r = 0; r < count; ++r) out[static_cast<std::int64_t>(r) * n + i] = values[r];
  });
  Kernel k = jit.compile(kb.finish());
  auto& rt = runtime();
  auto X = rt.upload(x);
  auto Out = rt.template zeros<T>(count * x.size());
  k.launch(NDRange{x.size()}, Out, X, static_cast<std::int64_t>(x.size()));
  rt.synchronize();
  return Out.to_vector();
}

// f32 tgamma where its result is tiny (x below -35, down to where it rounds to 0), around the
// poles, and its special values, against the host's long double tgamma rounded to f32.
void check_tgamma_tiny(Jit& jit) {
  const auto tgamma_of = [&jit](const std::vector<float>& inputs) {
    return results_per_input(jit, "tgamma_tiny", inputs,
                             [](Val<float> v) { return std::vector<Val<float>>{tgamma(v)}; });
  };
  std::vector<float> x = {-37.9999962f, -39.9999962f, -35.5f, -36.25f, -41.5f, -44.75f, -45.5f,
                          -30.1f,       -1e-30f,      1e-30f, 0.5f,    35.0f,  35.5f,   171.0f};
  for (int n = 35; n <= 46; ++n) {  // beside each pole, both sides
    const auto pole = static_cast<float>(-n);
    x.push_back(std::nextafter(pole, 0.0f));
    x.push_back(std::nextafter(pole, -HUGE_VALF));
    x.push_back(pole + 0.5f);
  }
  const std::size_t sweep = x.size();
  for (std::size_t k = 0; k < 4 * sweep; ++k) {
    x.push_back(-30.0f - static_cast<float>(k) * (16.0f / static_cast<float>(4 * sweep)) - 0.01f);
  }
  const auto got = tgamma_of(x);
  for (std::size_t c = 0; c < x.size(); ++c) {
    CAPTURE(x[c]);
    CAPTURE(got[c]);
    const auto expected = static_cast<float>(std::tgamma(static_cast<long double>(x[c])));
    CAPTURE(expected);
    if (std::isinf(expected) || expected == 0.0f) {
      CHECK(same_bits(got[c], expected));
      continue;
    }
    const float ulp = std::nextafter(std::fabs(expected), HUGE_VALF) - std::fabs(expected);
    CHECK(std::signbit(got[c]) == std::signbit(expected));
    CHECK(std::fabs(static_cast<double>(got[c]) - expected) <= 16.0 * ulp);  // OpenCL's bound
  }
  // Special values (OpenCL 1.2, 7.5.1): poles at ±0, NaN at the negative integers and -inf.
  const std::vector<float> specials = {0.0f, -0.0f, -36.0f, -HUGE_VALF, HUGE_VALF, NAN};
  const auto s = tgamma_of(specials);
  CHECK(same_bits(s[0], HUGE_VALF));
  CHECK(same_bits(s[1], -HUGE_VALF));
  CHECK(std::isnan(s[2]));
  CHECK(std::isnan(s[3]));
  CHECK(same_bits(s[4], HUGE_VALF));
  CHECK(std::isnan(s[5]));
}

}  // namespace

// Issue #67, item 3: PoCL's f32 tgamma overflowed in its reflection below -35 (24,620 ulp off at
// -37.9999962, 0 for 3.2e-43 at -39.9999962); computed in f64 and rounded once, it is within
// OpenCL's 16 ulp there, subnormal results included, scalar and coarsened.
TEST_CASE("tgamma in f32 keeps its tiny and subnormal results, scalar and coarsened") {
  for (Jit* jit : {&test::scalar_jit(), &test::coarse_jit()}) check_tgamma_tiny(*jit);
}

namespace {
// f32 lgamma on the 64 floats either side of each of its first negative zeros (and on
// lgamma_r's value there), against the host's long double lgamma rounded to f32.
void check_lgamma_near_zeros(Jit& jit) {
  const long double zeros[] = {-2.457024738220800623L,  -2.7476826467274126014L,
                               -3.1435808883499800587L, -3.9552942848585979285L,
                               -4.0393618397405368742L, -4.9915446405600477223L,
                               -5.0082181683225935216L};
  std::vector<float> x;
  for (long double zero : zeros) {
    float below = static_cast<float>(zero), above = below;
    for (int step = 0; step < 64; ++step) {
      x.push_back(below);
      x.push_back(above);
      below = std::nextafter(below, -HUGE_VALF);
      above = std::nextafter(above, HUGE_VALF);
    }
  }
  const auto got = results_per_input(jit, "lgamma_near_zeros", x, [](Val<float> v) {
    return std::vector<Val<float>>{lgamma(v), lgamma_r(v).first};
  });
  for (std::size_t c = 0; c < 2 * x.size(); ++c) {
    const float xc = x[c % x.size()];
    CAPTURE(xc);
    CAPTURE(got[c]);
    const auto expected = static_cast<float>(std::lgamma(static_cast<long double>(xc)));
    CAPTURE(expected);
    CHECK(test::ulp_distance(got[c], expected) <= 16);
  }
}
}  // namespace

// PoCL's f32 lgamma lost every digit near its negative zeros (10^5 ulp at x = -2.4570247,
// issue #67, item 5): computed in f64, whose error there is far below an f32 ulp of the result,
// and rounded once, it keeps the result's own ulps there, scalar and coarsened.
TEST_CASE("lgamma in f32 keeps its digits near its negative zeros, scalar and coarsened") {
  for (Jit* jit : {&test::scalar_jit(), &test::coarse_jit()}) check_lgamma_near_zeros(*jit);
}

namespace {
// f64 exp, sinh and cosh up to where they overflow, and tgamma where its result nears the ends
// of double's range, against the host's long double functions rounded to f64.
void check_double_range_ends(Jit& jit) {
  const double ln_max = 709.78271289338399673;  // rounds to the largest x with exp(x) finite
  const double sinh_max = 710.47586007394386;   // acosh(DBL_MAX), about
  std::vector<double> x = {709.78271114955742909,
                           709.78271289338375,
                           709.78271289338397,
                           171.62437695630271,
                           171.6,
                           171.61,
                           171.3,
                           -170.5,
                           -171.3,
                           -175.5,
                           -172.99999999999997,
                           -176.00000000000011,
                           -177.5,
                           -180.25,
                           -184.00000000000003};
  for (double edge : {ln_max, sinh_max, 171.62437695630271}) {
    double below = edge, above = edge;
    for (int step = 0; step < 32; ++step) {
      x.push_back(below);
      x.push_back(above);
      below = std::nextafter(below, 0.0);
      above = std::nextafter(above, HUGE_VAL);
    }
  }
  for (int pole = -171; pole >= -182; --pole) {  // beside each pole, both sides
    x.push_back(std::nextafter(static_cast<double>(pole), 0.0));
    x.push_back(std::nextafter(static_cast<double>(pole), -HUGE_VAL));
  }
  const auto got = results_per_input(jit, "double_range_ends", x, [](Val<double> v) {
    return std::vector<Val<double>>{exp(v), sinh(v), cosh(v), tgamma(v)};
  });
  struct Reference {
    const char* name;
    long double (*f)(long double);
    std::int64_t bound;  // OpenCL's, in ulp
  };
  const Reference refs[] = {{"exp", [](long double v) { return std::exp(v); }, 3},
                            {"sinh", [](long double v) { return std::sinh(v); }, 4},
                            {"cosh", [](long double v) { return std::cosh(v); }, 4},
                            {"tgamma", [](long double v) { return std::tgamma(v); }, 16}};
  for (std::size_t f = 0; f < std::size(refs); ++f) {
    CAPTURE(refs[f].name);
    for (std::size_t c = 0; c < x.size(); ++c) {
      if (f < 3 && x[c] < 700) continue;  // the gamma function's inputs
      CAPTURE(x[c]);
      const double result = got[f * x.size() + c];
      CAPTURE(result);
      const auto expected = static_cast<double>(refs[f].f(x[c]));
      CAPTURE(expected);
      CHECK(test::ulp_distance(result, expected) <= refs[f].bound);
    }
  }
}
}  // namespace

// PoCL's f64 exp and pow gave inf from 709.78271114955743, 1.7e-6 below ln(DBL_MAX) (sinh and
// cosh NaN near their own overflow), and its tgamma lost its digits below -170 (1.3e12 ulp at
// -176.00000000000011) and overflowed early above 171.6 (issue #67, items 2 and 3): patch 0017.
TEST_CASE("exp, sinh, cosh and tgamma of f64 keep their finite results at the ends of the range") {
  for (Jit* jit : {&test::scalar_jit(), &test::coarse_jit()}) check_double_range_ends(*jit);
}
