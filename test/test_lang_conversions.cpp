// cast<Integer>(float) out of the integer type's range, or of NaN, is an error with checks on
// (InexactError, as Julia's Int8(200.0) throws), where it used to wrap (200.0 to Int8 gave -56):
// the edges of every float and integer type pair, the message, the coarsened form at every
// width (a lane under a false mask does not fail), vectors, and the ways to turn it off.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

// y[i] = cast<I>(x[i]).
template <class F, class I>
KernelDef convert_kernel(const std::string& name) {
  KernelBuilder kb(name);
  auto x = kb.param<Const<F>>("x");
  auto y = kb.param<Global<I>>("y");
  auto i = kb.global_index();
  const Val<F> v = x[i];
  y[i] = cast<I>(v);
  return kb.finish();
}

// Runs `def` over `xs`; the InexactError's message, or "" with the results in `out`.
template <class F, class I>
std::string run_conversion(Jit& jit, const KernelDef& def, const std::vector<F>& xs,
                           std::vector<I>* out = nullptr) {
  auto& rt = test::runtime();
  auto x = rt.upload(xs);
  auto y = rt.zeros<I>(xs.size());
  jit.compile(def).launch(NDRange{xs.size()}, x, y);
  try {
    rt.synchronize();
  } catch (const InexactError& e) {
    CHECK(e.kernel_name() == def.name());
    CHECK(e.array_name().empty());
    return e.what();
  }
  if (out) *out = y.to_vector();
  return {};
}

// The floats beside each end of I's range: the last that converts and the first that does not.
template <class F, class I>
void check_edges() {
  constexpr int bits = std::numeric_limits<I>::digits + (std::is_signed_v<I> ? 1 : 0);
  const F top = std::ldexp(F(1), std::numeric_limits<I>::digits);  // greatest + 1
  const F inf = std::numeric_limits<F>::infinity();
  std::vector<F> inside = {std::nextafter(top, F(0)), F(0), -F(0), F(0.75), F(-0.75)};
  std::vector<F> outside = {top, inf, -inf, std::numeric_limits<F>::quiet_NaN()};
  if (std::is_signed_v<I>) {
    const F least = -top;
    // least - 1 is a float when F has the bits for it; else nothing lies between it and least.
    const bool exact = bits <= std::numeric_limits<F>::digits;
    inside.push_back(exact ? std::nextafter(least - F(1), F(0)) : least);
    outside.push_back(exact ? least - F(1) : std::nextafter(least, -inf));
  } else {
    inside.push_back(std::nextafter(F(-1), F(0)));
    outside.push_back(F(-1));
  }
  const KernelDef def = convert_kernel<F, I>("convert_edges");
  std::vector<I> got;
  CHECK(run_conversion<F, I>(test::jit(), def, inside, &got) == "");
  REQUIRE(got.size() == inside.size());
  for (std::size_t k = 0; k < inside.size(); ++k) {
    CAPTURE(inside[k]);
    CHECK(got[k] == static_cast<I>(inside[k]));
  }
  for (F v : outside) {
    CAPTURE(v);
    const std::string message = run_conversion<F, I>(test::jit(), def, std::vector<F>{F(1), v});
    CHECK(message.find("work-item 1 ") != std::string::npos);
    CHECK(message.find("cast to " + std::string(name(scalar_of<I>))) != std::string::npos);
  }
}

template <class F>
void check_edges_to_each_integer() {
  check_edges<F, std::int8_t>();
  check_edges<F, std::uint8_t>();
  check_edges<F, std::int16_t>();
  check_edges<F, std::uint16_t>();
  check_edges<F, std::int32_t>();
  check_edges<F, std::uint32_t>();
  check_edges<F, std::int64_t>();
  check_edges<F, std::uint64_t>();
}

}  // namespace

TEST_CASE(
    "conversions: cast<int8_t>(200.0f) throws InexactError naming the value, types and work-item") {
  const KernelDef def = convert_kernel<float, std::int8_t>("to_int8");
  const std::string message = run_conversion<float, std::int8_t>(
      test::jit(), def, std::vector<float>{1.5f, 127.9f, -128.9f, 200.0f, 3.0f});
  CHECK(message ==
        "kernel 'to_int8': cast to i8 of 200 (f32) is out of range: i8 holds -128 to 127 (NaN "
        "converts to no integer) (work-item 3 of ndrange (5))");
  const std::string nan = run_conversion<double, std::int8_t>(
      test::jit(), convert_kernel<double, std::int8_t>("nan_to_int8"),
      std::vector<double>{std::nan("")});
  CHECK(nan.find("cast to i8 of nan (f64)") != std::string::npos);
  // The runtime and the kernel work on.
  std::vector<std::int8_t> got;
  CHECK(run_conversion<float, std::int8_t>(test::jit(), def, {1.5f, 127.9f, -128.9f}, &got) == "");
  CHECK(got == std::vector<std::int8_t>{1, 127, -128});
}

TEST_CASE("conversions: the last float inside and the first outside each integer type's range") {
  check_edges_to_each_integer<float>();
  check_edges_to_each_integer<double>();
}

TEST_CASE("conversions: cast_sat clamps, inbounds() and bounds_checks = false turn the check off") {
  auto& rt = test::runtime();
  const std::vector<float> xs = {200.0f, -300.0f, 5.5f};
  KernelBuilder sat("to_int8_sat");
  {
    auto x = sat.param<Const<float>>("x");
    auto y = sat.param<Global<std::int8_t>>("y");
    auto i = sat.global_index();
    const Val<float> v = x[i];
    y[i] = cast_sat<std::int8_t>(v);
  }
  std::vector<std::int8_t> got;
  CHECK(run_conversion<float, std::int8_t>(test::jit(), sat.finish(), xs, &got) == "");
  CHECK(got == std::vector<std::int8_t>{127, -128, 5});

  KernelBuilder unchecked("to_int8_inbounds");
  {
    auto x = unchecked.param<Const<float>>("x");
    auto y = unchecked.param<Global<std::int8_t>>("y");
    unchecked.inbounds();
    auto i = unchecked.global_index();
    const Val<float> v = x[i];
    y[i] = cast<std::int8_t>(v);
  }
  CHECK(run_conversion<float, std::int8_t>(test::jit(), unchecked.finish(), xs, &got) == "");
  CHECK(got[2] == 5);

  JitOptions off;
  off.bounds_checks = false;
  Jit no_checks(rt, off);
  CHECK(run_conversion<float, std::int8_t>(
            no_checks, convert_kernel<float, std::int8_t>("to_int8_off"), xs, &got) == "");
  CHECK(got[2] == 5);
}

TEST_CASE("conversions: a vector cast reports its first lane out of range") {
  KernelBuilder kb("vector_to_int16");
  auto x = kb.param<Const<float>>("x");
  auto y = kb.param<Global<std::int16_t>>("y");
  auto i = kb.global_index() * std::int64_t{4};
  vstore(y, i, cast<std::int16_t>(vload<4>(x, i)));
  const KernelDef def = kb.finish();
  std::vector<float> xs(8, 2.5f);
  std::vector<std::int16_t> got;
  auto& rt = test::runtime();
  auto run = [&](const std::vector<float>& in) -> std::string {
    auto xb = rt.upload(in);
    auto yb = rt.zeros<std::int16_t>(in.size());
    test::jit().compile(def).launch(NDRange{in.size() / 4}, xb, yb);
    try {
      rt.synchronize();
    } catch (const InexactError& e) {
      return e.what();
    }
    got = yb.to_vector();
    return {};
  };
  CHECK(run(xs) == "");
  CHECK(got == std::vector<std::int16_t>(8, 2));
  xs[6] = 40000.0f;
  xs[7] = -1e9f;
  const std::string message = run(xs);
  CHECK(message.find("cast to i16 of 40000 (f32)") != std::string::npos);
  CHECK(message.find("work-item 1 ") != std::string::npos);
}

TEST_CASE("conversions: coarsened at every width, checked lane by lane, masked lanes never fail") {
  // y[i] = x[i] > 0 ? cast<int32_t>(x[i] * 4) : -1: lanes whose x is negative never convert.
  KernelBuilder kb("convert_masked");
  auto x = kb.param<Const<float>>("x");
  auto y = kb.param<Global<std::int32_t>>("y");
  auto i = kb.global_index();
  const Val<float> v = x[i];
  y[i] = std::int32_t{-1};
  kb.if_(v > 0.0f, [&] { y[i] = cast<std::int32_t>(v * 4.0f); });
  const KernelDef masked = kb.finish();
  const KernelDef plain = convert_kernel<float, std::int32_t>("convert_plain");

  const std::size_t n = 1001;
  std::vector<float> xs(n);
  for (std::size_t k = 0; k < n; ++k) {
    xs[k] = static_cast<float>(k % 2 ? -1e30 : std::sin(double(k)) * 1e6 + 2e6);
  }
  std::vector<std::int32_t> reference;
  REQUIRE(run_conversion<float, std::int32_t>(scalar_jit(), masked, xs, &reference) == "");
  for (unsigned width : {0u, 2u, 4u, 8u, 16u}) {
    CAPTURE(width);
    Jit& jit = coarse_jit(width);
    CHECK(is_coarsened(jit, masked));
    CHECK(is_coarsened(jit, plain));
    std::vector<std::int32_t> got;
    CHECK(run_conversion<float, std::int32_t>(jit, masked, xs, &got) == "");
    CHECK(got == reference);
    // An active lane out of range, in the middle of a vector: its own work-item is named.
    for (std::size_t bad : {std::size_t{0}, std::size_t{518}, n - 1}) {
      CAPTURE(bad);
      std::vector<float> with_bad = xs;
      with_bad[bad] = 1e10f;
      const std::string message = run_conversion<float, std::int32_t>(jit, masked, with_bad);
      CHECK(message.find("cast to i32 of 4e+10 (f32)") != std::string::npos);
      CHECK(message.find("(work-item " + std::to_string(bad) + " ") != std::string::npos);
      // Unmasked: every lane converts, one NaN among them.
      std::vector<float> plain_in(n, 12.75f);
      plain_in[bad] = std::numeric_limits<float>::quiet_NaN();
      const std::string unmasked = run_conversion<float, std::int32_t>(jit, plain, plain_in);
      CHECK(unmasked.find("cast to i32 of nan (f32)") != std::string::npos);
      CHECK(unmasked.find("(work-item " + std::to_string(bad) + " ") != std::string::npos);
    }
  }
}
