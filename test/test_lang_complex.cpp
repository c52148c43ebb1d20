// Complex numbers (complex.hpp) against std::complex on the host: arithmetic and functions on
// edge values (±0, ±1, halves, ±inf, NaN, the largest finite, subnormals) and on random
// values, float and double; arrays of std::complex as buffers, by-value parameters, elements,
// variables and reals beside complex numbers; and a radix-2 FFT written the KernelAbstractions
// way against a direct DFT.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;

template <class T>
std::vector<T> edge_parts() {
  using L = std::numeric_limits<T>;
  return {T(0),
          -T(0),
          T(1),
          T(-1),
          T(0.5),
          T(2.5),
          T(-3),
          L::infinity(),
          -L::infinity(),
          L::quiet_NaN(),
          L::max(),
          -L::max(),
          L::denorm_min(),
          T(1e-30)};
}

template <class T>
std::vector<std::complex<T>> edge_values() {
  std::vector<std::complex<T>> out;
  for (T re : edge_parts<T>()) {
    for (T im : edge_parts<T>()) out.emplace_back(re, im);
  }
  return out;
}

// Whether `got` is `want` within `ulps` of the result's magnitude (at least of `floor`), part by
// part: NaN where NaN, the same infinity, a zero where zero (of either sign).
template <class T>
bool close(T got, T want, T magnitude, T ulps, T floor) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  if (want == 0 && got == 0) return true;
  if (std::isnan(got) || std::isinf(got)) return false;
  const T scale = std::max(std::isfinite(magnitude) ? magnitude : std::abs(want), floor);
  return std::abs(got - want) <= ulps * std::numeric_limits<T>::epsilon() * scale;
}
template <class T>
bool close(std::complex<T> got, std::complex<T> want, T ulps,
           T floor = std::numeric_limits<T>::min()) {
  // Annex G's infinity: a complex number with an infinite part, whatever the other (NaN + inf i
  // is one). Where an operation's result overflows, implementations reach different ones.
  auto infinite = [](std::complex<T> z) { return std::isinf(z.real()) || std::isinf(z.imag()); };
  if (infinite(want) || infinite(got)) {
    auto same_where_both = [](T g, T w) { return !(std::isinf(g) && std::isinf(w)) || g == w; };
    return infinite(want) && infinite(got) && same_where_both(got.real(), want.real()) &&
           same_where_both(got.imag(), want.imag());
  }
  const T magnitude = std::hypot(want.real(), want.imag());
  return close(got.real(), want.real(), magnitude, ulps, floor) &&
         close(got.imag(), want.imag(), magnitude, ulps, floor);
}

// out[k * n + i] = the k-th function of (a[i], b[i]); reals go to the real part.
constexpr unsigned function_count = 15;

template <class T>
KernelDef complex_functions() {
  KernelBuilder kb(std::is_same_v<T, float> ? "complex_functions_f32" : "complex_functions_f64");
  auto a = kb.param<Const<std::complex<T>>>("a");
  auto b = kb.param<Const<std::complex<T>>>("b");
  auto out = kb.param<Global<std::complex<T>>>("out");
  auto n = kb.param<i64>("n");
  auto i = kb.global_index();
  const Complex<T> x = a[i], y = b[i];
  auto put = [&](unsigned k, const Complex<T>& v) { out[n * i64{k} + i] = v; };
  put(0, x + y);
  put(1, x - y);
  put(2, x * y);
  put(3, x / y);
  put(4, exp(x));
  put(5, log(x));
  put(6, sqrt(x));
  put(7, conj(x));
  put(8, Complex<T>(abs(x)));
  put(9, Complex<T>(arg(x)));
  put(10, Complex<T>(norm(x)));
  put(11, x * real(y));  // complex times real: each part scaled
  put(12, real(y) / x);  // real over complex: a full division
  put(13, -x);
  put(14, Complex<T>(select(x == y, kb.lit(T(1)), kb.lit(T(0)))));
  return kb.finish();
}

template <class T>
std::complex<T> host_function(unsigned k, std::complex<T> x, std::complex<T> y) {
  switch (k) {
    case 0:
      return x + y;
    case 1:
      return x - y;
    case 2:
      return x * y;
    // Division in long double, rounded once: libgcc's __divdc3 gives NaN + NaN i for some
    // quotients that overflow ((1 + i) / (4.9e-324 i)), where Annex G's is an infinity.
    case 3:
      return std::complex<T>(std::complex<long double>(x) / std::complex<long double>(y));
    case 4:
      return std::exp(x);
    case 5:
      return std::log(x);
    case 6:
      return std::sqrt(x);
    case 7:
      return std::conj(x);
    case 8:
      return std::abs(x);
    case 9:
      return std::arg(x);
    case 10:
      return std::norm(x);
    case 11:
      return x * y.real();
    case 12:
      return std::complex<T>(static_cast<long double>(y.real()) / std::complex<long double>(x));
    case 13:
      return -x;
    default:
      return x == y ? T(1) : T(0);
  }
}

const char* function_name(unsigned k) {
  static const char* names[] = {"+",   "-",   "*",    "/",   "exp", "log",    "sqrt", "conj",
                                "abs", "arg", "norm", "z*x", "x/z", "negate", "=="};
  return names[k];
}

// Tolerances in ulps of the result's magnitude: arithmetic a few, functions OpenCL's bounds of
// the real functions they call plus the rounding of the steps between.
double tolerance(unsigned k) {
  switch (k) {
    case 2:
    case 3:
    case 11:
    case 12:
      return 8;
    case 4:
    case 5:
    case 6:
    case 8:
    case 9:
      return 16;
    default:
      return 2;
  }
}

template <class T>
void run_functions(const std::vector<std::complex<T>>& as, const std::vector<std::complex<T>>& bs,
                   bool edges) {
  auto& rt = test::runtime();
  static const KernelDef def = complex_functions<T>();
  const std::size_t n = as.size();
  auto a = rt.upload(as), b = rt.upload(bs);
  auto out = rt.zeros<std::complex<T>>(n * function_count);
  test::jit().compile(def).launch(NDRange{n}, a, b, out, static_cast<i64>(n));
  rt.synchronize();
  const auto got = out.to_vector();
  for (unsigned k = 0; k < function_count; ++k) {
    unsigned failures = 0;
    for (std::size_t i = 0; i < n && failures < 3; ++i) {
      const std::complex<T> want = host_function(k, as[i], bs[i]);
      const std::complex<T> have = got[k * n + i];
      // log's real part near |z| = 1 is exact to a few ulps of 1, not of itself.
      const T floor = k == 5 ? T(1) : std::numeric_limits<T>::min();
      if (!close(have, want, static_cast<T>(tolerance(k)), floor)) {
        ++failures;
        FAIL_CHECK(std::string(function_name(k))
                   << " of (" << as[i] << ", " << bs[i] << "): spvjit " << have << ", std::complex "
                   << want << (edges ? " (edge values)" : ""));
      }
    }
  }
}

template <class T>
void check_against_std_complex() {
  // Edge values: each against each for the operators, itself for the functions.
  const auto edges = edge_values<T>();
  std::vector<std::complex<T>> as, bs;
  for (const auto& x : edges) {
    for (const auto& y : edges) {
      as.push_back(x);
      bs.push_back(y);
    }
  }
  run_functions<T>(as, bs, true);
  // Random values over 24 binades either side of 1, either sign.
  std::mt19937_64 gen(48);
  std::uniform_real_distribution<T> exponent(-24, 24), unit(-1, 1);
  auto draw = [&] { return std::copysign(std::exp2(exponent(gen)), unit(gen)); };
  as.assign(4096, {});
  bs.assign(4096, {});
  for (std::size_t k = 0; k < as.size(); ++k) {
    as[k] = {draw(), draw()};
    bs[k] = {draw(), draw()};
  }
  run_functions<T>(as, bs, false);
}

}  // namespace

TEST_CASE("complex: arithmetic and functions match std::complex, edge and random values, float") {
  check_against_std_complex<float>();
}

TEST_CASE("complex: arithmetic and functions match std::complex, edge and random values, double") {
  check_against_std_complex<double>();
}

TEST_CASE("complex: pow and polar match std::complex on random values") {
  auto& rt = test::runtime();
  KernelBuilder kb("complex_pow");
  auto a = kb.param<Const<std::complex<double>>>("a");
  auto b = kb.param<Const<std::complex<double>>>("b");
  auto out = kb.param<Global<std::complex<double>>>("out");
  auto i = kb.global_index();
  const Complex<double> x = a[i], y = b[i];
  out[i * i64{4}] = pow(x, y);
  out[i * i64{4} + i64{1}] = pow(x, real(y));
  out[i * i64{4} + i64{2}] = pow(abs(y), x);
  out[i * i64{4} + i64{3}] = polar(abs(x), imag(y));
  const KernelDef def = kb.finish();
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> part(-3, 3);
  std::vector<std::complex<double>> as(1000), bs(1000);
  for (std::size_t k = 0; k < as.size(); ++k) {
    as[k] = {part(gen), part(gen)};
    bs[k] = {part(gen) / 2, part(gen) / 2};
  }
  auto ab = rt.upload(as), bb = rt.upload(bs);
  auto ob = rt.zeros<std::complex<double>>(4 * as.size());
  test::jit().compile(def).launch(NDRange{as.size()}, ab, bb, ob);
  rt.synchronize();
  const auto got = ob.to_vector();
  for (std::size_t k = 0; k < as.size(); ++k) {
    CAPTURE(as[k]);
    CAPTURE(bs[k]);
    CHECK(close(got[4 * k], std::pow(as[k], bs[k]), 256.0));
    CHECK(close(got[4 * k + 1], std::pow(as[k], bs[k].real()), 256.0));
    CHECK(close(got[4 * k + 2], std::pow(std::abs(bs[k]), as[k]), 256.0));
    CHECK(close(got[4 * k + 3], std::polar(std::abs(as[k]), bs[k].imag()), 16.0));
  }
}

TEST_CASE("complex: by-value parameters, elements, variables, parts and compound assignment") {
  auto& rt = test::runtime();
  // z[i] = sum_j c[j] w^j by Horner's rule; z[i] *= w; re[i] = z[i].real() + 1
  KernelBuilder kb("complex_horner");
  auto c = kb.param<Const<std::complex<float>>>("c");
  auto z = kb.param<Global<std::complex<float>>>("z");
  auto parts = kb.param<Global<float>>("parts");
  auto w = kb.param<std::complex<float>>("w");
  auto m = kb.param<i64>("m");
  auto i = kb.global_index();
  auto acc = kb.var(Complex<float>(kb, {0.0f, 0.0f}));
  kb.for_(i64{0}, m, [&](Val<i64> j) { acc = acc * w + c[m - j - i64{1}]; });
  z[i] = acc;
  z[i] *= w;
  z[i] += std::complex<float>(0.0f, 1.0f);
  z[i] -= 2.0f;
  parts[i] = z[i].real() + 1.0f;
  z[i].imag() = z[i].imag() * cast<float>(i);
  const KernelDef def = kb.finish();

  const std::vector<std::complex<float>> coefficients = {{1, 2}, {-0.5f, 0.25f}, {3, -1}};
  const std::complex<float> wv(0.5f, -0.75f);
  auto cb = rt.upload(coefficients);
  auto zb = rt.zeros<std::complex<float>>(8);
  auto pb = rt.zeros<float>(8);
  test::jit().compile(def).launch(NDRange{8}, cb, zb, pb, wv, i64{3});
  rt.synchronize();
  std::complex<float> horner(0, 0);
  for (std::size_t j = coefficients.size(); j-- > 0;) horner = horner * wv + coefficients[j];
  const auto zs = zb.to_vector();
  const auto ps = pb.to_vector();
  for (std::size_t k = 0; k < 8; ++k) {
    CAPTURE(k);
    std::complex<float> want = horner * wv + std::complex<float>(0, 1) - 2.0f;
    CHECK(close(std::complex<float>(ps[k] - 1.0f, 0), std::complex<float>(want.real(), 0), 8.0f));
    want.imag(want.imag() * static_cast<float>(k));
    CHECK(close(zs[k], want, 8.0f));
  }
  // A Buffer<float> is no array of complex numbers.
  auto floats = rt.zeros<float>(16);
  CHECK_THROWS_AS(test::jit().compile(def).launch(NDRange{8}, cb, floats, pb, wv, i64{3}),
                  UserError);
  rt.synchronize();
}

namespace {

// One stage of an iterative radix-2 FFT (decimation in time, input in bit-reversed order), as a
// KernelAbstractions user writes it:
/*
@kernel function butterfly!(x, half)
    k = @index(Global, Linear) - 1          # one butterfly per work-item
    group = k ÷ half
    j = k % half
    top = group * 2half + j + 1
    w = cis(-π * j / half)
    t = w * x[top + half]
    u = x[top]
    x[top] = u + t
    x[top + half] = u - t
end
*/
KernelDef butterfly() {
  KernelBuilder kb("butterfly");
  auto x = kb.param<Global<std::complex<double>>>("x");
  auto half = kb.param<i64>("half");
  auto k = kb.global_index();
  auto group = k / half;
  auto j = k % half;
  auto top = group * (half + half) + j;
  const Complex<double> w =
      polar(1.0, -std::numbers::pi * cast<double>(j) / cast<double>(half));  // cis(-π j / half)
  const Complex<double> t = w * x[top + half];
  const Complex<double> u = x[top];
  x[top] = u + t;
  x[top + half] = u - t;
  return kb.finish();
}

}  // namespace

TEST_CASE("complex: a radix-2 FFT, one launch per stage, matches a direct DFT") {
  auto& rt = test::runtime();
  constexpr unsigned bits = 10;
  constexpr std::size_t n = std::size_t{1} << bits;
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> part(-1, 1);
  std::vector<std::complex<double>> signal(n);
  for (auto& s : signal) s = {part(gen), part(gen)};
  std::vector<std::complex<double>> reversed(n);
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t r = 0;
    for (unsigned b = 0; b < bits; ++b) r |= ((k >> b) & 1) << (bits - 1 - b);
    reversed[r] = signal[k];
  }
  auto x = rt.upload(reversed);
  Kernel stage = test::compile_checked(butterfly());
  for (i64 half = 1; half < static_cast<i64>(n); half *= 2) stage.launch(NDRange{n / 2}, x, half);
  rt.synchronize();
  const auto got = x.to_vector();
  double worst = 0;
  for (std::size_t f = 0; f < n; ++f) {
    std::complex<double> want = 0;
    for (std::size_t k = 0; k < n; ++k) {
      want += signal[k] * std::polar(1.0, -2 * std::numbers::pi * double(f * k % n) / double(n));
    }
    worst = std::max(worst, std::abs(got[f] - want));
  }
  CAPTURE(worst);
  CHECK(worst < 1e-11);
}
