// The polynomial of erfc's approximation (ir/approximate_math.cpp): for t = 1 / (1 + p x),
// erfc(x) e^(x^2) = t P(t) on [x_low, x_high]. P interpolates g(t) = erfc(x) e^(x^2) / t at the
// Chebyshev nodes of t's interval, in long double (glibc's erfcl and expl), and is printed as
// monomial coefficients in t, lowest degree first, as C hex floats (double; the f32 form rounds
// them). Also printed: the worst relative error over 400001 points of [x_low, x_high], of the
// series itself and of its evaluation in float and in double (t from x in that type, Horner's
// rule with FMAs), in units of 2^-24 and 2^-53.
//
//   g++ -O2 -o fit_erfc tools/math_fits/fit_erfc.cpp
//   ./fit_erfc 0.5 0.5 10.1 9    # float: p, x_low, x_high, degree
//   ./fit_erfc 0.3 0.5 27.3 19   # double
//
// Not part of the build: run it when the approximation changes, and paste its output.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <vector>

using LD = long double;

namespace {

LD scaled_erfc(LD x) { return erfcl(x) * expl(x * x); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: fit_erfc p x_low x_high degree\n");
    return 2;
  }
  const LD p = std::strtold(argv[1], nullptr), x_low = std::strtold(argv[2], nullptr),
           x_high = std::strtold(argv[3], nullptr);
  const int n = std::atoi(argv[4]);
  const LD pi = std::numbers::pi_v<LD>;
  // t's interval [a, b] (t falls as x grows) and g over it.
  const LD a = 1 / (1 + p * x_high), b = 1 / (1 + p * x_low);
  const auto g = [&](LD t) { return scaled_erfc((1 / t - 1) / p) / t; };
  // Chebyshev coefficients c_k of g on [a, b], u = (2t - a - b) / (b - a).
  std::vector<LD> values(n + 1), c(n + 1);
  for (int j = 0; j <= n; ++j) {
    const LD u = std::cos(pi * (j + 0.5L) / (n + 1));
    values[j] = g((a + b) / 2 + (b - a) / 2 * u);
  }
  for (int k = 0; k <= n; ++k) {
    LD sum = 0;
    for (int j = 0; j <= n; ++j) sum += values[j] * std::cos(k * pi * (j + 0.5L) / (n + 1));
    c[k] = 2 * sum / (n + 1);
  }
  // The series as a polynomial in u (T_k by its recurrence), then in t = (u - beta) / alpha.
  std::vector<LD> in_u(n + 1, 0), previous(n + 1, 0), current(n + 1, 0), next(n + 1, 0);
  previous[0] = 1;
  in_u[0] = c[0] / 2;
  if (n >= 1) {
    current[1] = 1;
    in_u[1] = c[1];
  }
  for (int k = 2; k <= n; ++k) {
    for (int i = 0; i <= n; ++i) next[i] = (i ? 2 * current[i - 1] : 0) - previous[i];
    for (int i = 0; i <= n; ++i) in_u[i] += c[k] * next[i];
    previous = current;
    current = next;
  }
  const LD alpha = 2 / (b - a), beta = -(a + b) / (b - a);
  std::vector<LD> in_t(n + 1, 0);
  for (int i = 0; i <= n; ++i) {
    LD binomial = 1;
    for (int j = 0; j <= i; ++j) {
      in_t[j] += in_u[i] * binomial * std::pow(alpha, LD(j)) * std::pow(beta, LD(i - j));
      binomial = binomial * (i - j) / (j + 1);
    }
  }
  // The worst errors.
  std::vector<float> as_float(n + 1);
  std::vector<double> as_double(n + 1);
  for (int i = 0; i <= n; ++i) {
    as_float[i] = static_cast<float>(in_t[i]);
    as_double[i] = static_cast<double>(in_t[i]);
  }
  LD worst_series = 0, worst_float = 0, worst_double = 0;
  for (int s = 0; s <= 400000; ++s) {
    const LD x = x_low + (x_high - x_low) * s / 400000;
    const float xf = static_cast<float>(x);
    const double xd = static_cast<double>(x);
    const LD t = 1 / (1 + p * x);
    LD series = 0;
    for (int k = n; k >= 0; --k) series = series * t + in_t[k];
    worst_series = std::fmax(worst_series, std::fabs(series * t / scaled_erfc(x) - 1));
    const float tf = 1.0f / std::fma(static_cast<float>(p), xf, 1.0f);
    float pf = 0;
    for (int k = n; k >= 0; --k) pf = std::fma(pf, tf, as_float[k]);
    worst_float = std::fmax(worst_float, std::fabs(pf * tf / scaled_erfc(xf) - 1));
    const double td = 1.0 / std::fma(static_cast<double>(p), xd, 1.0);
    double pd = 0;
    for (int k = n; k >= 0; --k) pd = std::fma(pd, td, as_double[k]);
    worst_double = std::fmax(worst_double, std::fabs(pd * td / scaled_erfc(xd) - 1));
  }
  std::printf(
      "p = %Lg, x in [%Lg, %Lg], degree %d: series %.3Lg, float %.2Lf x 2^-24, "
      "double %.2Lf x 2^-53\n",
      p, x_low, x_high, n, worst_series, worst_float / 0x1p-24L, worst_double / 0x1p-53L);
  for (int k = 0; k <= n; ++k) std::printf("%a,\n", static_cast<double>(in_t[k]));
}
