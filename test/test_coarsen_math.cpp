// Coarsened = scalar, bit for bit, for every floating-point function of math.hpp at every width
// coarsening makes (2, 4, 8 lanes of float; 2, 4 of double: builtins take at most 256 bits, so
// float's tgamma and lgamma, computed in double, at 2 and 4),
// on inputs of every class: random bits, subnormals, ±0, ±inf, NaN, integers and half-integers
// (the poles and zeros of sinpi, tanpi, tgamma, lgamma), arguments of sin past 2^23, values
// near exp's overflow. On a PoCL with patch 0014 ("+spvjit-vector-math") the coarsened kernel
// calls every function's vector form once per vector; elsewhere the inexact ones per lane.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "spvjit/spvjit.hpp"
#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

// The float functions of MathFn by operand shape, in the enum's order (math.hpp groups them).
struct Shapes {
  MathFn first, last;
};
constexpr Shapes unary{MathFn::Sqrt, MathFn::Trunc};           // T -> T
constexpr Shapes binary{MathFn::Pow, MathFn::Copysign};        // (T, T) -> T
constexpr Shapes with_exponent{MathFn::Ldexp, MathFn::Rootn};  // (T, i32) -> T
constexpr Shapes tests{MathFn::Isnan, MathFn::Signbit};        // T -> bool

bool is_gamma(MathFn fn) { return fn == MathFn::Tgamma || fn == MathFn::Lgamma; }

std::vector<MathFn> range(Shapes s) {
  std::vector<MathFn> out;
  for (auto k = static_cast<unsigned>(s.first); k <= static_cast<unsigned>(s.last); ++k) {
    out.push_back(static_cast<MathFn>(k));
  }
  return out;
}

// Every result the kernel writes, in order: the float functions above, ilogb, fma, the tests.
std::size_t result_count() {
  return range(unary).size() + range(binary).size() + range(with_exponent).size() + 2 +
         range(tests).size();
}

// Z[k * n + i] = the k-th function of (X[i], Y[i], E[i]), behind the bounds check. Without
// `with_gammas`, X[i] in tgamma's and lgamma's places: in f32 they compute in f64 (ir/math.cpp),
// and a builtin takes at most 256 bits, so its calls would narrow an 8-lane kernel to 4 lanes.
template <class T>
KernelDef all_functions_kernel(bool with_gammas = true) {
  KernelBuilder kb(std::string("coarse_every_math_") + std::string(name(scalar_of<T>)) +
                   (with_gammas ? "" : "_but_gammas"));
  auto z = kb.param<Global<T>>("Z");
  auto x = kb.param<Const<T>>("X");
  auto y = kb.param<Const<T>>("Y");
  auto e = kb.param<Const<std::int32_t>>("E");
  auto n = kb.param<std::int64_t>("n");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    Val<T> xi = x[i], yi = y[i];
    Val<std::int32_t> ei = e[i];
    std::int64_t k = 0;
    auto put = [&](Val<T> v) { z[n * k++ + i] = v; };
    for (MathFn fn : range(unary)) {
      put(is_gamma(fn) && !with_gammas ? xi : Val<T>(math(fn, {Value(xi)})));
    }
    for (MathFn fn : range(binary)) put(Val<T>(math(fn, {Value(xi), Value(yi)})));
    for (MathFn fn : range(with_exponent)) put(Val<T>(math(fn, {Value(xi), Value(ei)})));
    put(cast<T>(ilogb(xi)));
    put(fma(xi, yi, xi));
    for (MathFn fn : range(tests)) {
      put(select(Val<bool>(math(fn, {Value(xi)})), kb.lit(T(1)), kb.lit(T(0))));
    }
  });
  return kb.finish();
}

// Inputs of every class, one kind per stretch of the array so that a vector sees neighbours of
// other kinds (a lane's result must not depend on its neighbours).
template <class T>
std::vector<T> inputs(std::size_t count, unsigned seed) {
  std::vector<T> v = spvjit::test::random_data<T>(count, seed);
  std::mt19937_64 gen(seed * 7 + 1);
  using L = std::numeric_limits<T>;
  const T special[] = {T(0),
                       -T(0),
                       L::infinity(),
                       -L::infinity(),
                       L::quiet_NaN(),
                       T(1),
                       T(-1),
                       T(0.5),
                       T(-0.5),
                       T(2),
                       T(-2),
                       L::min(),
                       -L::min(),
                       L::denorm_min(),
                       -L::denorm_min(),
                       L::min() / T(8),
                       L::max(),
                       -L::max(),
                       L::epsilon(),
                       T(-2.4570247)};
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint64_t r = gen();
    switch (k % 8) {
      case 0:  // a special value
        v[k] = special[r % std::size(special)];
        break;
      case 1:  // an integer or a half-integer in [-200, 200]: poles and zeros
        v[k] = T(static_cast<int>(r % 801) - 400) / T(2);
        break;
      case 2:  // moderate values
        v[k] = std::ldexp(T(static_cast<double>(r % 2000001) / 1e6 - 1.0), int(r % 16));
        break;
      case 3:  // large arguments: sin's large reduction, exp's overflow
        v[k] = std::ldexp(T(1) + T(r % 1000) / T(1000), int(r % (L::max_exponent - 1)));
        if (r & (1ull << 40)) v[k] = -v[k];
        break;
      case 4:  // subnormals
        v[k] = L::denorm_min() * T(static_cast<double>(r % 100000));
        break;
      default:  // random bits (random_data's)
        break;
    }
  }
  return v;
}

std::vector<std::int32_t> exponents(std::size_t count, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<std::int32_t> out(count);
  for (auto& e : out) e = static_cast<std::int32_t>(gen() % 2301) - 1150;
  for (std::size_t k = 0; k < count; k += 5) out[k] = static_cast<std::int32_t>(k % 7) - 3;
  return out;
}

// The body of the SPIR-V function named `name` (its OpFunction .. OpFunctionEnd); the
// disassembler names its id after it, with '_' for '.'.
std::string function_text(const std::string& spirv, std::string name) {
  std::replace(name.begin(), name.end(), '.', '_');
  const std::size_t begin = spirv.find("%" + name + " = OpFunction ");
  if (begin == std::string::npos) return {};
  return spirv.substr(begin, spirv.find("OpFunctionEnd", begin) - begin);
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

bool pocl_vector_math() {
  return test::runtime().device().platform_version.find("+spvjit-vector-math") != std::string::npos;
}

template <class T>
void every_function_identical(unsigned width) {
  // f32 tgamma and lgamma at 8 lanes would make 8-lane f64 calls: checked at 2 and 4 lanes instead.
  const bool with_gammas = !(std::is_same_v<T, float> && width > 4);
  const KernelDef def = all_functions_kernel<T>(with_gammas);
  Jit& coarse = coarse_jit(width);
  CAPTURE(width);
  REQUIRE(is_coarsened(coarse, def));
  const std::string spirv = spirv_text(coarse, def);
  const std::string body = function_text(spirv, def.name() + ".vector.w" + std::to_string(width));
  REQUIRE(!body.empty());
  // Scalar OpenCL.std calls left in the vector body: the functions called once per lane.
  const std::string scalar_type = std::is_same_v<T, float> ? "%float " : "%double ";
  const std::size_t per_lane = count_of(body, "OpExtInst " + scalar_type);
  if (pocl_vector_math()) {
    CHECK(per_lane == 0);
  } else {
    CHECK(per_lane > 0);  // exp, sin, ... once per lane: their vector forms differ
  }

  const std::size_t n = 4099;  // a tail after the last whole vector at every width
  const auto x = inputs<T>(n, 11), y = inputs<T>(n, 12);
  const auto e = exponents(n, 13);
  auto& rt = test::runtime();
  std::vector<T> outputs[2];
  Jit* jits[2] = {&scalar_jit(), &coarse};
  for (int k = 0; k < 2; ++k) {
    auto X = rt.upload(x), Y = rt.upload(y);
    auto E = rt.upload(e);
    auto Z = rt.template zeros<T>(n * result_count());
    jits[k]->compile(def).launch(NDRange{n}, Z, X, Y, E, static_cast<std::int64_t>(n));
    rt.synchronize();
    outputs[k] = Z.to_vector();
  }
  // One function at a time, so that a failure names it.
  std::size_t k = 0;
  auto check_next = [&](std::string_view fn) {
    CAPTURE(std::string(fn));
    const std::vector<T> scalar_out(outputs[0].begin() + k * n, outputs[0].begin() + (k + 1) * n);
    const std::vector<T> coarse_out(outputs[1].begin() + k * n, outputs[1].begin() + (k + 1) * n);
    check_same_bits(scalar_out, coarse_out, x, y);
    ++k;
  };
  for (MathFn fn : range(unary)) {
    if (is_gamma(fn) && !with_gammas) {
      ++k;  // X[i], not the gamma function
      continue;
    }
    check_next(name(fn));
  }
  for (MathFn fn : range(binary)) check_next(name(fn));
  for (MathFn fn : range(with_exponent)) check_next(name(fn));
  check_next("ilogb");
  check_next("fma");
  for (MathFn fn : range(tests)) check_next(name(fn));
  CHECK(k == result_count());
}

}  // namespace

TEST_CASE("every math function of float is bit-identical coarsened, at 2, 4 and 8 lanes") {
  for (unsigned width : {2u, 4u, 8u}) every_function_identical<float>(width);
}

TEST_CASE("every math function of double is bit-identical coarsened, at 2 and 4 lanes") {
  for (unsigned width : {2u, 4u}) every_function_identical<double>(width);
}
