// Fast math's approximate functions (ir/approximate_math.hpp): calls to exp, log and erfc with
// the `afn` flag become inline arithmetic. Their accuracy over the whole range is the sweep's
// (the ctest math/sweep_approximate); here: the calls leave the SPIR-V exactly when the step is
// on and the kernel asked for approximations, a coarsened kernel gives the scalar kernel's bits
// at every width, and the special values come out as C's.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/env.hpp"
#include "spvjit/debug.hpp"
#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

// What the compiles in this process do (SPVJIT_APPROXIMATE_FUNCTIONS, read once by the Jit).
bool approximating() { return detail::env_flag("SPVJIT_APPROXIMATE_FUNCTIONS").value_or(true); }

// Z[i], Z[n + i], Z[2n + i] = exp, log, erfc of X[i], built with `flags`.
template <class T>
KernelDef exp_log_erfc(FastMath flags) {
  KernelBuilder kb(std::string("exp_log_erfc_") + std::string(name(scalar_of<T>)) +
                   (flags == FastMath::none ? "" : "_fast"));
  if (flags != FastMath::none) kb.fastmath(flags);
  auto z = kb.param<Global<T>>("Z");
  auto x = kb.param<Const<T>>("X");
  auto n = kb.param<std::int64_t>("n");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    const Val<T> xi = x[i];
    z[i] = exp(xi);
    z[n + i] = log(xi);
    z[n * 2 + i] = erfc(xi);
  });
  return kb.finish();
}

template <class T>
std::vector<T> run(Jit& jit, const KernelDef& def, const std::vector<T>& xs) {
  auto& rt = test::runtime();
  Kernel kernel = jit.compile(def);
  auto X = rt.upload(xs);
  auto Z = rt.zeros<T>(3 * xs.size());
  kernel.launch(NDRange{xs.size()}, Z, X, static_cast<std::int64_t>(xs.size()));
  rt.synchronize();
  return Z.to_vector();
}

// Random bits of every class, then each function's interesting stretch: erfc's two formulas
// meet at |x| = 1/2, exp overflows and underflows, log's subnormals and its switch at sqrt(2).
template <class T>
std::vector<T> inputs() {
  std::vector<T> out = spvjit::test::random_data<T>(4099, 11);
  using L = std::numeric_limits<T>;
  const T edges[] = {T(0.5),        T(-0.5),  T(1),    T(-1),    T(0.70710678),
                     T(1.41421356), T(9.9),   T(10.1), T(27.2),  T(88.7),
                     T(-103.9),     T(709.7), T(-745), L::min(), L::denorm_min(),
                     T(1e-3),       T(-1e-3), T(3)};
  for (T edge : edges) {
    T v = edge;
    for (int k = 0; k < 64; ++k) v = std::nextafter(v, L::infinity());
    for (int k = 0; k < 128; ++k) out.push_back(v = std::nextafter(v, -L::infinity()));
  }
  for (int k = -4000; k <= 4000; ++k) out.push_back(T(k) / T(100));
  return out;
}

template <class T>
void check_coarsened_bits() {
  const KernelDef def = exp_log_erfc<T>(FastMath::approximate_functions);
  const std::vector<T> xs = inputs<T>();
  const std::vector<T> scalar = run(scalar_jit(), def, xs);
  for (unsigned width :
       std::is_same_v<T, float> ? std::vector<unsigned>{2, 4, 8} : std::vector<unsigned>{2, 4}) {
    CAPTURE(width);
    REQUIRE(is_coarsened(coarse_jit(width), def));
    check_same_bits(scalar, run(coarse_jit(width), def, xs));
  }
}

// The value of each function at `x` as the kernel computes it, in the order exp, log, erfc.
template <class T>
std::vector<T> at(T x) {
  static const KernelDef def = exp_log_erfc<T>(FastMath::approximate_functions);
  return run(test::jit(), def, std::vector<T>{x});
}

template <class T>
void check_special_values() {
  using L = std::numeric_limits<T>;
  const T inf = L::infinity(), nan = L::quiet_NaN();
  struct Case {
    T x, exp, log, erfc;
  };
  const bool f32 = std::is_same_v<T, float>;
  const Case cases[] = {
      {T(0), T(1), -inf, T(1)},
      {-T(0), T(1), -inf, T(1)},
      {T(1), T(std::exp(1.0L)), T(0), T(std::erfc(1.0L))},
      {inf, inf, inf, T(0)},
      {-inf, T(0), nan, T(2)},
      {T(-1), T(std::exp(-1.0L)), nan, T(std::erfc(-1.0L))},
      {f32 ? T(89) : T(710), inf, T(std::log(f32 ? 89.0L : 710.0L)), T(0)},
      {f32 ? T(-104) : T(-746), T(0), nan, T(2)},
      {L::denorm_min(), T(1), T(std::log(static_cast<long double>(L::denorm_min()))), T(1)},
  };
  for (const Case& c : cases) {
    CAPTURE(c.x);
    const std::vector<T> got = at(c.x);
    const T want[3] = {c.exp, c.log, c.erfc};
    for (int f = 0; f < 3; ++f) {
      CAPTURE(f);
      if (std::isnan(want[f])) {
        CHECK(std::isnan(got[f]));
      } else if (std::isinf(want[f]) || want[f] == 0 || want[f] == 1 || want[f] == 2) {
        CHECK(got[f] == want[f]);
      } else {
        // Within the bounds of docs/language.md (2, 3 and 8 ulps), in ulps of the result.
        const T spacing = std::nextafter(std::fabs(want[f]), inf) - std::fabs(want[f]);
        CHECK(std::fabs(got[f] - want[f]) <= T(8) * spacing);
      }
    }
  }
  const std::vector<T> nan_in = at(nan);
  for (T v : nan_in) CHECK(std::isnan(v));
}

}  // namespace

TEST_CASE("approximate functions: exp, log and erfc calls leave the SPIR-V under afn alone") {
  for (const FastMath flags :
       {FastMath::none, FastMath::contract, FastMath::approximate_functions, FastMath::all}) {
    CAPTURE(static_cast<unsigned>(flags));
    const std::string text = spirv_text(scalar_jit(), exp_log_erfc<float>(flags));
    const bool approximated = approximating() && has(flags, FastMath::approximate_functions);
    for (const char* call : {" exp ", " log ", " erfc "}) {
      CAPTURE(call);
      CHECK((text.find(call) == std::string::npos) == approximated);
    }
  }
}

TEST_CASE("approximate functions: a coarsened kernel gives the scalar kernel's bits, f32") {
  check_coarsened_bits<float>();
}

TEST_CASE("approximate functions: a coarsened kernel gives the scalar kernel's bits, f64") {
  check_coarsened_bits<double>();
}

TEST_CASE("approximate functions: special values and the ends of the range") {
  check_special_values<float>();
  check_special_values<double>();
}
