// Every floating-point function of math.hpp, f32 and f64, over its whole range: the worst error
// in ulps against a long double reference, next to OpenCL 1.2's bound (section 7.4, full
// profile), or the bound docs/language.md states where OpenCL sets none (lgamma: 16 ulps of
// max(|result|, 1)).
//   spvjit_math_sweep [--samples N] [--around X] [--approximate] [--check]
// Prints one markdown row per function. With --check, exits 1 when a function passes its bound.
// With --approximate, the kernel is built with fast math's approximate-functions flag: exp, log
// and erfc are then spvjit's inline approximations (ir/approximate_math.hpp), checked against
// their own bounds (docs/language.md, "Fast math"); the other functions are unchanged by it.
// With --around X, every input is one of the 1024 representable values either side of X.
// Inputs: log-uniform over every exponent (subnormals to the largest finite, both signs),
// [-200, 200] and [-10, 10] uniformly, and the 64 values either side of each edge (exp's
// overflow and underflow, tgamma's overflow, lgamma's zeros, the integers and half-integers
// where sinpi, cospi, tanpi and the gamma functions have zeros and poles).
// Not a timing: the ctest math/sweep runs it with --check.
#include <spvjit/spvjit.hpp>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using namespace spvjit;
using LD = long double;

namespace {

enum class Shape { Unary, Binary, Exponent };

struct SweptFunction {
  MathFn fn;
  Shape shape;
  double bound_f32, bound_f64;  // ulps; 0: exact
  LD (*ref)(LD x, LD y, int n);
  LD lo = 0, hi = 0;  // for a binary function, where the uniform samples of y lie (else none)
  // The error in ulps of max(|result|, 1): lgamma's bound (docs/language.md), which OpenCL
  // leaves open; near its negative zeros the result's own ulps are not kept.
  bool ulps_of_one_below_one = false;
};

constexpr LD pi = std::numbers::pi_v<LD>;

LD sinpi_ref(LD x) {
  const LD n = std::nearbyint(x), r = x - n;
  const LD s = std::sin(pi * r);
  return std::fmod(std::fabs(n), 2.0L) == 1.0L ? -s : s;
}
LD cospi_ref(LD x) {
  const LD n = std::nearbyint(x), r = std::fabs(x - n);
  const LD c = std::sin(pi * (0.5L - r));
  return std::fmod(std::fabs(n), 2.0L) == 1.0L ? -c : c;
}
LD rootn_ref(LD x, int n) {
  if (n == 0 || (x < 0 && n % 2 == 0)) return NAN;
  const LD r = std::pow(std::fabs(x), 1.0L / n);
  return x < 0 ? -r : r;
}
LD maxmag_ref(LD x, LD y) {
  return std::fabs(x) > std::fabs(y) ? x : std::fabs(y) > std::fabs(x) ? y : std::fmax(x, y);
}
LD minmag_ref(LD x, LD y) {
  return std::fabs(x) < std::fabs(y) ? x : std::fabs(y) < std::fabs(x) ? y : std::fmin(x, y);
}

// clang-format off
#define U(expr) [](LD x, LD, int) -> LD { return expr; }
#define B(expr) [](LD x, LD y, int) -> LD { return expr; }
#define E(expr) [](LD x, LD, int n) -> LD { return expr; }
const SweptFunction functions[] = {
    {MathFn::Sqrt, Shape::Unary, 3, 0, U(std::sqrt(x))},
    {MathFn::Rsqrt, Shape::Unary, 2, 2, U(1.0L / std::sqrt(x))},
    {MathFn::Cbrt, Shape::Unary, 2, 2, U(std::cbrt(x))},
    {MathFn::Exp, Shape::Unary, 3, 3, U(std::exp(x))},
    {MathFn::Exp2, Shape::Unary, 3, 3, U(std::exp2(x))},
    {MathFn::Exp10, Shape::Unary, 3, 3, U(std::pow(10.0L, x))},
    {MathFn::Expm1, Shape::Unary, 3, 3, U(std::expm1(x))},
    {MathFn::Log, Shape::Unary, 3, 3, U(std::log(x))},
    {MathFn::Log2, Shape::Unary, 3, 3, U(std::log2(x))},
    {MathFn::Log10, Shape::Unary, 3, 3, U(std::log10(x))},
    {MathFn::Log1p, Shape::Unary, 2, 2, U(std::log1p(x))},
    {MathFn::Logb, Shape::Unary, 0, 0, U(std::logb(x))},
    {MathFn::Sin, Shape::Unary, 4, 4, U(std::sin(x))},
    {MathFn::Cos, Shape::Unary, 4, 4, U(std::cos(x))},
    {MathFn::Tan, Shape::Unary, 5, 5, U(std::tan(x))},
    {MathFn::Sinpi, Shape::Unary, 4, 4, U(sinpi_ref(x))},
    {MathFn::Cospi, Shape::Unary, 4, 4, U(cospi_ref(x))},
    {MathFn::Tanpi, Shape::Unary, 6, 6, U(sinpi_ref(x) / cospi_ref(x))},
    {MathFn::Asin, Shape::Unary, 4, 4, U(std::asin(x))},
    {MathFn::Acos, Shape::Unary, 4, 4, U(std::acos(x))},
    {MathFn::Atan, Shape::Unary, 5, 5, U(std::atan(x))},
    {MathFn::Asinpi, Shape::Unary, 5, 5, U(std::asin(x) / pi)},
    {MathFn::Acospi, Shape::Unary, 5, 5, U(std::acos(x) / pi)},
    {MathFn::Atanpi, Shape::Unary, 5, 5, U(std::atan(x) / pi)},
    {MathFn::Sinh, Shape::Unary, 4, 4, U(std::sinh(x))},
    {MathFn::Cosh, Shape::Unary, 4, 4, U(std::cosh(x))},
    {MathFn::Tanh, Shape::Unary, 5, 5, U(std::tanh(x))},
    {MathFn::Asinh, Shape::Unary, 4, 4, U(std::asinh(x))},
    {MathFn::Acosh, Shape::Unary, 4, 4, U(std::acosh(x))},
    {MathFn::Atanh, Shape::Unary, 5, 5, U(std::atanh(x))},
    {MathFn::Erf, Shape::Unary, 16, 16, U(std::erf(x))},
    {MathFn::Erfc, Shape::Unary, 16, 16, U(std::erfc(x))},
    {MathFn::Tgamma, Shape::Unary, 16, 16, U(std::tgamma(x))},
    {MathFn::Lgamma, Shape::Unary, 16, 16, U(std::lgamma(x)), 0, 0, true},
    {MathFn::Fabs, Shape::Unary, 0, 0, U(std::fabs(x))},
    {MathFn::Floor, Shape::Unary, 0, 0, U(std::floor(x))},
    {MathFn::Ceil, Shape::Unary, 0, 0, U(std::ceil(x))},
    {MathFn::Round, Shape::Unary, 0, 0, U(std::round(x))},
    {MathFn::Rint, Shape::Unary, 0, 0, U(std::rint(x))},
    {MathFn::Trunc, Shape::Unary, 0, 0, U(std::trunc(x))},
    {MathFn::Pow, Shape::Binary, 16, 16, B(std::pow(x, y)), -40, 40},
    {MathFn::Powr, Shape::Binary, 16, 16, B(x < 0 ? LD(NAN) : std::pow(x, y)), -40, 40},
    {MathFn::Atan2, Shape::Binary, 6, 6, B(std::atan2(x, y))},
    {MathFn::Atan2pi, Shape::Binary, 6, 6, B(std::atan2(x, y) / pi)},
    {MathFn::Hypot, Shape::Binary, 4, 4, B(std::hypot(x, y))},
    {MathFn::Fmin, Shape::Binary, 0, 0, B(std::fmin(x, y))},
    {MathFn::Fmax, Shape::Binary, 0, 0, B(std::fmax(x, y))},
    {MathFn::Fdim, Shape::Binary, 0, 0, B(std::fdim(x, y))},
    {MathFn::Fmod, Shape::Binary, 0, 0, B(std::fmod(x, y)), -100, 100},
    {MathFn::Remainder, Shape::Binary, 0, 0, B(std::remainder(x, y)), -100, 100},
    {MathFn::Maxmag, Shape::Binary, 0, 0, B(maxmag_ref(x, y))},
    {MathFn::Minmag, Shape::Binary, 0, 0, B(minmag_ref(x, y))},
    {MathFn::Copysign, Shape::Binary, 0, 0, B(std::copysign(x, y))},
    {MathFn::Ldexp, Shape::Exponent, 0, 0, E(std::ldexp(x, n))},
    {MathFn::Pown, Shape::Exponent, 16, 16, E(std::pow(x, LD(n)))},
    {MathFn::Rootn, Shape::Exponent, 16, 16, E(rootn_ref(x, n))},
};
#undef U
#undef B
#undef E
// clang-format on

// The values a sample of each kind is drawn near, as T: where functions overflow, underflow,
// have zeros and poles.
template <class T>
std::vector<T> edges() {
  using L = std::numeric_limits<T>;
  const LD max = L::max(), tiny = L::denorm_min();
  std::vector<T> out = {T(std::log(max)),
                        T(std::log(tiny)),
                        T(std::log2(max)),
                        T(std::log10(max)),
                        T(std::log10(tiny)),
                        T(std::acosh(max)),
                        T(L::max_exponent),
                        T(L::min_exponent - L::digits),
                        T(-2.4570247382208006L),
                        T(-2.7476826467274127L),
                        T(-3.1435636740570383L),
                        T(-3.9552942848585784L),
                        T(-4.0390553900929L),
                        T(1),
                        T(2),
                        T(0.5),
                        T(171.6243769563027L),
                        T(35.040096L),
                        T(-172.99999999999997L),
                        T(-37.9999962L),
                        T(0),
                        L::min(),
                        T(1e-300L)};
  for (int k = -200; k <= 200; k += 7) out.push_back(T(k) + T(0.5));
  for (int k = -200; k <= 0; k += 3) out.push_back(T(k));
  return out;
}

// --around X: every input within `samples / 2` representable values of X instead.
std::optional<LD> around;
// --approximate: the kernel built with FastMath::approximate_functions.
bool approximate = false;

// The bound of `fn`'s f32 or f64 results, in ulps: OpenCL's, or under --approximate that of
// spvjit's approximation where it has one.
double bound_of(const SweptFunction& fn, bool f64) {
  if (approximate) {
    switch (fn.fn) {
      case MathFn::Exp:
        return 2;
      case MathFn::Log:
        return 3;
      case MathFn::Erfc:
        return 8;
      default:
        break;
    }
  }
  return f64 ? fn.bound_f64 : fn.bound_f32;
}

template <class T>
T draw(std::mt19937_64& gen, std::size_t kind, const std::vector<T>& near) {
  using L = std::numeric_limits<T>;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::uint64_t r = gen();
  if (around) {
    T v = static_cast<T>(*around);
    const int steps = static_cast<int>(r % 2049) - 1024;
    for (int s = 0; s < std::abs(steps); ++s)
      v = std::nextafter(v, steps < 0 ? -L::max() : L::max());
    return v;
  }
  const bool negative = r & 1;
  switch (kind % 8) {
    case 0:  // the neighbourhood of an edge: up to 64 representable values away
    {
      T v = near[(r >> 1) % near.size()];
      const int steps = static_cast<int>((r >> 20) % 129) - 64;
      for (int s = 0; s < std::abs(steps); ++s)
        v = std::nextafter(v, steps < 0 ? -L::max() : L::max());
      return v;
    }
    case 1:
      return static_cast<T>(unit(gen) * 400.0 - 200.0);
    case 2:
      return static_cast<T>(unit(gen) * 20.0 - 10.0);
    default:  // log-uniform over every exponent, subnormals included
    {
      const int lo = L::min_exponent - L::digits, hi = L::max_exponent;
      const int e = lo + static_cast<int>((r >> 1) % static_cast<std::uint64_t>(hi - lo));
      const T v = std::ldexp(static_cast<T>(1.0 + unit(gen)), e - 1);
      return negative ? -v : v;
    }
  }
}

// |got - ref| in units of T's spacing at ref (the subnormal spacing below the normals);
// infinity where a NaN or an infinity disagrees.
template <class T>
LD ulps(T got, LD ref) {
  using L = std::numeric_limits<T>;
  const T rounded = static_cast<T>(ref);
  if (std::isnan(ref) || std::isnan(got)) {
    return std::isnan(ref) && std::isnan(got) ? 0 : L::infinity();
  }
  if (std::isinf(got) || std::isinf(rounded)) {
    if (got == rounded) return 0;
    if (std::isinf(ref)) return L::infinity();
    // A finite reference that rounds to infinity, or an infinite result of a finite one: how
    // far past the largest finite value, in its spacing.
    const LD top = L::max(), spacing = top - std::nextafter(L::max(), T(0));
    const LD g = std::isinf(got) ? std::copysign(top + spacing, LD(got)) : LD(got);
    return std::fabs(g - ref) / spacing;
  }
  const LD a = std::fabs(ref);
  const int e = a < LD(L::min()) ? L::min_exponent : std::ilogb(a) + 1;
  const LD spacing = std::ldexp(1.0L, e - L::digits);
  return std::fabs(LD(got) - ref) / spacing;
}

struct Worst {
  LD ulps = 0;
  LD x = 0, y = 0;
  int n = 0;
};

template <class T>
std::vector<Worst> sweep(Runtime& rt, Jit& jit, std::size_t samples) {
  const std::size_t F = std::size(functions);
  KernelBuilder kb(std::string("math_sweep_") + std::string(name(scalar_of<T>)));
  if (approximate) kb.fastmath(FastMath::approximate_functions);
  auto z = kb.param<Global<T>>("Z");
  auto x = kb.param<Const<T>>("X");
  auto y = kb.param<Const<T>>("Y");
  auto e = kb.param<Const<std::int32_t>>("E");
  auto n = kb.param<std::int64_t>("n");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    for (std::size_t f = 0; f < F; ++f) {
      const auto k = static_cast<std::int64_t>(f);
      const Value xi = x[n * k + i], yi = y[n * k + i], ei = e[n * k + i];
      const SweptFunction& fn = functions[f];
      z[n * k + i] = Val<T>(fn.shape == Shape::Unary    ? math(fn.fn, {xi})
                            : fn.shape == Shape::Binary ? math(fn.fn, {xi, yi})
                                                        : math(fn.fn, {xi, ei}));
    }
  });
  Kernel kernel = jit.compile(kb.finish());

  std::mt19937_64 gen(std::is_same_v<T, float> ? 32 : 64);
  const std::vector<T> near = edges<T>();
  std::vector<T> xs(F * samples), ys(F * samples);
  std::vector<std::int32_t> es(F * samples);
  for (std::size_t f = 0; f < F; ++f) {
    const SweptFunction& fn = functions[f];
    for (std::size_t s = 0; s < samples; ++s) {
      const std::size_t at = f * samples + s;
      xs[at] = draw<T>(gen, s, near);
      ys[at] = fn.hi > fn.lo && s % 2 == 0
                   ? static_cast<T>(fn.lo + (fn.hi - fn.lo) * (gen() % 1000001) / 1e6L)
                   : draw<T>(gen, s / 2 + 3, near);
      const int span = fn.fn == MathFn::Ldexp ? 2 * 1200 : fn.fn == MathFn::Pown ? 2 * 64 : 2 * 12;
      es[at] = static_cast<std::int32_t>(gen() % static_cast<std::uint64_t>(span + 1)) - span / 2;
      if (fn.fn == MathFn::Pow && s % 4 == 1) xs[at] = std::fabs(xs[at]);
    }
  }
  auto X = rt.upload(xs), Y = rt.upload(ys);
  auto Es = rt.upload(es);
  auto Z = rt.zeros<T>(F * samples);
  kernel.launch(NDRange{samples}, Z, X, Y, Es, static_cast<std::int64_t>(samples));
  rt.synchronize();
  const std::vector<T> got = Z.to_vector();

  std::vector<Worst> worst(F);
  for (std::size_t f = 0; f < F; ++f) {
    for (std::size_t s = 0; s < samples; ++s) {
      const std::size_t at = f * samples + s;
      const LD ref = functions[f].ref(xs[at], ys[at], es[at]);
      LD u = ulps<T>(got[at], ref);
      if (functions[f].ulps_of_one_below_one && std::fabs(ref) < 1 && std::isfinite(u)) {
        u = std::fabs(LD(got[at]) - ref) / LD(std::numeric_limits<T>::epsilon());
      }
      if (u > worst[f].ulps) worst[f] = {u, xs[at], ys[at], es[at]};
    }
  }
  return worst;
}

std::string describe(const Worst& w, Shape shape, int digits) {
  char buffer[160];
  if (w.ulps == 0) return "0";
  if (std::isinf(w.ulps)) {
    std::snprintf(buffer, sizeof buffer, "special (x = %.*Lg", digits, w.x);
  } else if (w.ulps < 0.001L) {  // a result of 0 against a reference below the subnormals
    std::snprintf(buffer, sizeof buffer, "<0.001 (x = %.*Lg", digits, w.x);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3Lg (x = %.*Lg", w.ulps, digits, w.x);
  }
  std::string out = buffer;
  if (shape == Shape::Binary) {
    std::snprintf(buffer, sizeof buffer, ", y = %.*Lg", digits, w.y);
    out += buffer;
  } else if (shape == Shape::Exponent) {
    out += ", n = " + std::to_string(w.n);
  }
  return out + ")";
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t samples = 100000;
  bool check = false;
  for (int a = 1; a < argc; ++a) {
    const std::string_view arg = argv[a];
    if (arg == "--check") {
      check = true;
    } else if (arg == "--approximate") {
      approximate = true;
    } else if (arg == "--around" && a + 1 < argc) {
      around = std::strtold(argv[++a], nullptr);
    } else if (arg == "--samples" && a + 1 < argc) {
      samples = std::strtoull(argv[++a], nullptr, 10);
    } else {
      std::fprintf(stderr,
                   "usage: spvjit_math_sweep [--samples N] [--around X] [--approximate] "
                   "[--check]\n");
      return 2;
    }
  }
  try {
    Runtime rt;
    Jit jit(rt);
    const auto f32 = sweep<float>(rt, jit, samples);
    const auto f64 = sweep<double>(rt, jit, samples);
    std::printf("%zu inputs per function and type on %s (spvjit %s)\n\n", samples,
                rt.device().name.c_str(), version());
    std::printf("| function | bound f32 / f64 | worst f32 (ulp) | worst f64 (ulp) |\n");
    std::printf("| --- | --- | --- | --- |\n");
    int failed = 0;
    for (std::size_t f = 0; f < std::size(functions); ++f) {
      const SweptFunction& fn = functions[f];
      // OpenCL's bound is the error against the exact result; 0 (exact) allows the rounding's half.
      const double bound_f32 = bound_of(fn, false), bound_f64 = bound_of(fn, true);
      const bool over =
          f32[f].ulps > std::max(bound_f32, 0.5) || f64[f].ulps > std::max(bound_f64, 0.5);
      failed += over;
      std::printf("| %s | %g / %g | %s | %s |%s\n", std::string(name(fn.fn)).c_str(), bound_f32,
                  bound_f64, describe(f32[f], fn.shape, 9).c_str(),
                  describe(f64[f], fn.shape, 17).c_str(), over ? " over" : "");
    }
    if (check && failed != 0) {
      std::fprintf(stderr, "%d functions past their bound\n", failed);
      return 1;
    }
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "spvjit_math_sweep: %s\n", e.what());
    return 1;
  }
}
