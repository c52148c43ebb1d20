// The math set against <cmath> within the OpenCL 1.2 accuracy bounds, integer edge cases, and a
// Float16 round trip of every finite half value.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <vector>

#include "test/lang_support.hpp"
#include "test/ulp_distance.hpp"

using namespace spvjit;

namespace {

struct MathCase {
  MathFn fn;
  unsigned arity;
  std::int64_t ulp_f32;  // OpenCL 1.2 section 7.4, full profile
  std::int64_t ulp_f64;
  long double lo, hi;  // where the inputs lie
  long double (*ref)(long double, long double, long double);
};

// sin(pi x), cos(pi x) with the reduction to [-1/2, 1/2] done exactly (x - n is exact for
// x of float or double), so that only the final sin or cos rounds.
long double sinpi_ref(long double x) {
  const long double n = std::nearbyint(x), r = x - n;
  const long double s = std::sin(std::numbers::pi_v<long double> * r);
  return std::fmod(std::fabs(n), 2.0L) == 1.0L ? -s : s;
}
long double cospi_ref(long double x) {
  const long double n = std::nearbyint(x), r = std::fabs(x - n);
  const long double c = std::sin(std::numbers::pi_v<long double> * (0.5L - r));
  return std::fmod(std::fabs(n), 2.0L) == 1.0L ? -c : c;
}
long double maxmag_ref(long double x, long double y) {
  return std::fabs(x) > std::fabs(y) ? x : std::fabs(y) > std::fabs(x) ? y : std::fmax(x, y);
}
long double minmag_ref(long double x, long double y) {
  return std::fabs(x) < std::fabs(y) ? x : std::fabs(y) < std::fabs(x) ? y : std::fmin(x, y);
}

// clang-format off
const MathCase cases[] = {
    {MathFn::Sqrt, 1, 3, 0, 0.0L, 1e4L, [](long double x, long double, long double) { return std::sqrt(x); }},
    {MathFn::Rsqrt, 1, 2, 2, 1e-3L, 1e4L, [](long double x, long double, long double) { return 1.0L / std::sqrt(x); }},
    {MathFn::Exp, 1, 3, 3, -20.0L, 20.0L, [](long double x, long double, long double) { return std::exp(x); }},
    {MathFn::Exp2, 1, 3, 3, -30.0L, 30.0L, [](long double x, long double, long double) { return std::exp2(x); }},
    {MathFn::Log, 1, 3, 3, 1e-3L, 1e6L, [](long double x, long double, long double) { return std::log(x); }},
    {MathFn::Log2, 1, 3, 3, 1e-3L, 1e6L, [](long double x, long double, long double) { return std::log2(x); }},
    {MathFn::Log1p, 1, 2, 2, -0.9L, 100.0L, [](long double x, long double, long double) { return std::log1p(x); }},
    {MathFn::Sin, 1, 4, 4, -100.0L, 100.0L, [](long double x, long double, long double) { return std::sin(x); }},
    {MathFn::Cos, 1, 4, 4, -100.0L, 100.0L, [](long double x, long double, long double) { return std::cos(x); }},
    {MathFn::Tan, 1, 5, 5, -1.5L, 1.5L, [](long double x, long double, long double) { return std::tan(x); }},
    {MathFn::Fabs, 1, 0, 0, -100.0L, 100.0L, [](long double x, long double, long double) { return std::fabs(x); }},
    {MathFn::Floor, 1, 0, 0, -100.0L, 100.0L, [](long double x, long double, long double) { return std::floor(x); }},
    {MathFn::Ceil, 1, 0, 0, -100.0L, 100.0L, [](long double x, long double, long double) { return std::ceil(x); }},
    {MathFn::Round, 1, 0, 0, -100.0L, 100.0L, [](long double x, long double, long double) { return std::round(x); }},
    {MathFn::Trunc, 1, 0, 0, -100.0L, 100.0L, [](long double x, long double, long double) { return std::trunc(x); }},
    {MathFn::Pow, 2, 16, 16, 0.01L, 10.0L, [](long double x, long double y, long double) { return std::pow(x, y - 5.0L); }},
    {MathFn::Fmin, 2, 0, 0, -100.0L, 100.0L, [](long double x, long double y, long double) { return std::fmin(x, y); }},
    {MathFn::Fmax, 2, 0, 0, -100.0L, 100.0L, [](long double x, long double y, long double) { return std::fmax(x, y); }},
    {MathFn::Copysign, 2, 0, 0, -100.0L, 100.0L, [](long double x, long double y, long double) { return std::copysign(x, y); }},
    {MathFn::Fma, 3, 0, 0, -100.0L, 100.0L, [](long double x, long double y, long double z) { return std::fma(x, y, z); }},
    {MathFn::Cbrt, 1, 2, 2, -1e4L, 1e4L, [](long double x, long double, long double) { return std::cbrt(x); }},
    {MathFn::Exp10, 1, 3, 3, -30.0L, 30.0L, [](long double x, long double, long double) { return std::pow(10.0L, x); }},
    {MathFn::Expm1, 1, 3, 3, -20.0L, 20.0L, [](long double x, long double, long double) { return std::expm1(x); }},
    {MathFn::Log10, 1, 3, 3, 1e-3L, 1e6L, [](long double x, long double, long double) { return std::log10(x); }},
    {MathFn::Logb, 1, 0, 0, -1e6L, 1e6L, [](long double x, long double, long double) { return std::logb(x); }},
    {MathFn::Sinpi, 1, 4, 4, -10.0L, 10.0L, [](long double x, long double, long double) { return sinpi_ref(x); }},
    {MathFn::Cospi, 1, 4, 4, -10.0L, 10.0L, [](long double x, long double, long double) { return cospi_ref(x); }},
    {MathFn::Tanpi, 1, 6, 6, -0.45L, 0.45L, [](long double x, long double, long double) { return std::tan(std::numbers::pi_v<long double> * x); }},
    {MathFn::Asin, 1, 4, 4, -1.0L, 1.0L, [](long double x, long double, long double) { return std::asin(x); }},
    {MathFn::Acos, 1, 4, 4, -1.0L, 1.0L, [](long double x, long double, long double) { return std::acos(x); }},
    {MathFn::Atan, 1, 5, 5, -100.0L, 100.0L, [](long double x, long double, long double) { return std::atan(x); }},
    {MathFn::Asinpi, 1, 5, 5, -1.0L, 1.0L, [](long double x, long double, long double) { return std::asin(x) / std::numbers::pi_v<long double>; }},
    {MathFn::Acospi, 1, 5, 5, -1.0L, 1.0L, [](long double x, long double, long double) { return std::acos(x) / std::numbers::pi_v<long double>; }},
    {MathFn::Atanpi, 1, 5, 5, -100.0L, 100.0L, [](long double x, long double, long double) { return std::atan(x) / std::numbers::pi_v<long double>; }},
    {MathFn::Sinh, 1, 4, 4, -20.0L, 20.0L, [](long double x, long double, long double) { return std::sinh(x); }},
    {MathFn::Cosh, 1, 4, 4, -20.0L, 20.0L, [](long double x, long double, long double) { return std::cosh(x); }},
    {MathFn::Tanh, 1, 5, 5, -10.0L, 10.0L, [](long double x, long double, long double) { return std::tanh(x); }},
    {MathFn::Asinh, 1, 4, 4, -1e4L, 1e4L, [](long double x, long double, long double) { return std::asinh(x); }},
    {MathFn::Acosh, 1, 4, 4, 1.0L, 1e4L, [](long double x, long double, long double) { return std::acosh(x); }},
    {MathFn::Atanh, 1, 5, 5, -0.99L, 0.99L, [](long double x, long double, long double) { return std::atanh(x); }},
    {MathFn::Erf, 1, 16, 16, -4.0L, 4.0L, [](long double x, long double, long double) { return std::erf(x); }},
    {MathFn::Erfc, 1, 16, 16, -4.0L, 9.0L, [](long double x, long double, long double) { return std::erfc(x); }},
    {MathFn::Tgamma, 1, 16, 16, 0.1L, 20.0L, [](long double x, long double, long double) { return std::tgamma(x); }},
    {MathFn::Lgamma, 1, 16, 16, 2.5L, 50.0L, [](long double x, long double, long double) { return std::lgamma(x); }},
    {MathFn::Rint, 1, 0, 0, -100.0L, 100.0L, [](long double x, long double, long double) { return std::rint(x); }},
    {MathFn::Powr, 2, 16, 16, 0.01L, 10.0L, [](long double x, long double y, long double) { return std::pow(x, y - 5.0L); }},
    {MathFn::Atan2, 2, 6, 6, -100.0L, 100.0L, [](long double x, long double y, long double) { return std::atan2(x, y); }},
    {MathFn::Atan2pi, 2, 6, 6, -100.0L, 100.0L, [](long double x, long double y, long double) { return std::atan2(x, y) / std::numbers::pi_v<long double>; }},
    {MathFn::Hypot, 2, 4, 4, -1e4L, 1e4L, [](long double x, long double y, long double) { return std::hypot(x, y); }},
    {MathFn::Fdim, 2, 0, 0, -100.0L, 100.0L, [](long double x, long double y, long double) { return std::fdim(x, y); }},
    {MathFn::Fmod, 2, 0, 0, -100.0L, 100.0L, [](long double x, long double y, long double) { return std::fmod(x, y); }},
    {MathFn::Remainder, 2, 0, 0, -100.0L, 100.0L, [](long double x, long double y, long double) { return std::remainder(x, y); }},
    {MathFn::Maxmag, 2, 0, 0, -100.0L, 100.0L, [](long double x, long double y, long double) { return maxmag_ref(x, y); }},
    {MathFn::Minmag, 2, 0, 0, -100.0L, 100.0L, [](long double x, long double y, long double) { return minmag_ref(x, y); }},
    {MathFn::Clamp, 3, 0, 0, -100.0L, 100.0L, [](long double x, long double y, long double z) { return std::min(std::max(x, std::min(y, z)), std::max(y, z)); }},
};
// clang-format on

// in(f, a, i): the a-th input of function f for sample i; every function in one kernel.
template <class T>
KernelDef all_math() {
  KernelBuilder kb(std::string("math_") + std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<T>>("out");
  auto in = kb.param<Const<T>>("in");
  auto i = kb.global_index();
  auto n = kb.ndrange();
  auto inputs = view(in, static_cast<std::int64_t>(std::size(cases)), 3, n);
  auto outputs = view(out, static_cast<std::int64_t>(std::size(cases)), n);
  kb.if_(kb.in_ndrange(), [&] {
    for (std::size_t f = 0; f < std::size(cases); ++f) {
      const auto F = static_cast<std::int64_t>(f);
      Value a = inputs(F, 0, i), b = inputs(F, 1, i), c = inputs(F, 2, i);
      if (cases[f].fn == MathFn::Pow || cases[f].fn == MathFn::Powr)
        b = binary(BinaryOp::Sub, b, constant(detail::state_of(kb), scalar_of<T>, 5.0));
      if (cases[f].fn == MathFn::Clamp) {  // clamp is undefined when lo > hi
        Value lo = math(MathFn::Fmin, {b, c}), hi = math(MathFn::Fmax, {b, c});
        b = lo;
        c = hi;
      }
      Value r = cases[f].arity == 1   ? math(cases[f].fn, {a})
                : cases[f].arity == 2 ? math(cases[f].fn, {a, b})
                                      : math(cases[f].fn, {a, b, c});
      store(outputs.data(), binary(BinaryOp::Add, binary(BinaryOp::Mul, kb.lit(F), n), i), r);
    }
  });
  return kb.finish();
}

template <class T>
void check_math(Kernel& k, std::size_t samples) {
  CAPTURE(samples);
  auto& rt = test::runtime();
  const std::size_t F = std::size(cases);
  std::vector<T> in(F * 3 * samples);
  for (std::size_t f = 0; f < F; ++f)
    for (std::size_t a = 0; a < 3; ++a)
      for (std::size_t s = 0; s < samples; ++s) {
        // A deterministic spread over [lo, hi], different for each argument.
        const long double t =
            std::fmod(static_cast<long double>(s * (a + 1)) * 0.618033988749894848L, 1.0L);
        in[(f * 3 + a) * samples + s] =
            static_cast<T>(cases[f].lo + t * (cases[f].hi - cases[f].lo));
      }
  auto In = rt.upload(in);
  auto Out = rt.zeros<T>(F * samples);
  k.launch(NDRange{samples}, Out, In);
  rt.synchronize();
  const auto got = Out.to_vector();
  for (std::size_t f = 0; f < F; ++f) {
    const MathCase& c = cases[f];
    const std::int64_t bound = std::is_same_v<T, float> ? c.ulp_f32 : c.ulp_f64;
    std::int64_t worst = 0;
    T worst_x{};
    for (std::size_t s = 0; s < samples; ++s) {
      const long double x = in[(f * 3) * samples + s], y = in[(f * 3 + 1) * samples + s],
                        z = in[(f * 3 + 2) * samples + s];
      const T expected = static_cast<T>(c.ref(x, y, z));
      const std::int64_t d = test::ulp_distance(got[f * samples + s], expected);
      if (d > worst) {
        worst = d;
        worst_x = static_cast<T>(x);
      }
    }
    CAPTURE(name(c.fn));
    CAPTURE(name(scalar_of<T>));
    CAPTURE(worst_x);
    CHECK(worst <= bound);
  }
}

}  // namespace

template <class T>
void check_math() {
  Kernel k = test::compile_checked(all_math<T>());
  for (std::size_t samples : {1u, 64u, 1021u}) check_math<T>(k, samples);  // 1021: not a multiple
}

TEST_CASE("math functions match <cmath> within the OpenCL ulp bounds (f32)") {
  check_math<float>();
}
TEST_CASE("math functions match <cmath> within the OpenCL ulp bounds (f64)") {
  check_math<double>();
}

namespace {
// Two roundings, whatever the host compiler's own contraction setting.
float unfused(float a, float b, float c) {
  volatile float product = a * b;
  return product + c;
}
}  // namespace

TEST_CASE("mul_add: one rounding where the device fuses (PoCL with FMA), scalar and vector") {
  KernelBuilder kb("mul_add_bits");
  auto out = kb.param<Global<float>>("out");
  auto in = kb.param<Const<float>>("in");
  auto i = kb.global_index();
  out[i * 2] = mul_add(in[i * 3], in[i * 3 + 1], in[i * 3 + 2]);
  kb.if_(i == 0, [&] {
    const Vec<float, 8> x = vload<8>(in, 24), y = vload<8>(in, 32), z = vload<8>(in, 40);
    const Vec<float, 8> r = mul_add(x, y, z);
    for (unsigned l = 0; l < 8; ++l) out[std::int64_t{2 * l + 1}] = r[l];
  });
  // Scalar triples in args[0, 24), vector lanes x, y, z in [24, 32), [32, 40), [40, 48); the
  // first of each is (1 + e, 1 + e, -(1 + 2e)): (1 + e)^2 - (1 + 2e) = e^2, which one rounding
  // keeps and two lose. The others are assorted values.
  const float e = 0x1p-12f;
  std::vector<float> args(48);
  for (std::size_t k = 0; k < args.size(); ++k)
    args[k] = std::sin(static_cast<float>(k) * 1.7f) * 3.1f;
  for (std::size_t first : {std::size_t{0}, std::size_t{24}}) {
    const std::size_t stride = first == 0 ? 1 : 8;
    args[first] = 1 + e;
    args[first + stride] = 1 + e;
    args[first + 2 * stride] = -(1 + 2 * e);
  }
  Kernel k = test::compile_checked(kb.finish());
  auto In = test::runtime().upload(args);
  auto Out = test::runtime().zeros<float>(16);
  k.launch(NDRange{8}, Out, In);
  test::runtime().synchronize();
  const auto got = Out.to_vector();
  const bool fused = test::runtime().device().fma_f32;
  int differing = 0;
  for (std::size_t l = 0; l < 8; ++l) {
    CAPTURE(l);
    const float a = args[3 * l], b = args[3 * l + 1], c = args[3 * l + 2];
    const float scalar = fused ? std::fma(a, b, c) : unfused(a, b, c);
    const float x = args[24 + l], y = args[32 + l], z = args[40 + l];
    const float lane = fused ? std::fma(x, y, z) : unfused(x, y, z);
    CHECK(std::bit_cast<std::uint32_t>(got[2 * l]) == std::bit_cast<std::uint32_t>(scalar));
    CHECK(std::bit_cast<std::uint32_t>(got[2 * l + 1]) == std::bit_cast<std::uint32_t>(lane));
    differing += (std::fma(a, b, c) != unfused(a, b, c)) + (std::fma(x, y, z) != unfused(x, y, z));
  }
  CHECK(differing >= 2);  // the inputs tell one rounding from two
}

TEST_CASE("mul_add: integer operands are refused by name") {
  KernelBuilder kb("mul_add_int");
  auto x = kb.lit(3);
  CHECK_THROWS_WITH_AS(mul_add(static_cast<Value>(x), static_cast<Value>(x), static_cast<Value>(x)),
                       "mul_add of kernel 'mul_add_int': not defined for i32; expected f32 or f64",
                       UserError);
}
