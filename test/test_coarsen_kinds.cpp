// Coarsening beyond saxpy: every math builtin, every integer type, a 2D kernel indexed by
// row * m + col with a loop (matmul), and kernels that must be left alone — each compared bit
// for bit with the kernel the uncoarsened Jit builds.
#include <doctest/doctest.h>

#include <array>
#include <cstring>
#include <functional>
#include <vector>

#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"
#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

template <class T>
using Unary = std::function<Val<T>(Val<T>, Val<T>)>;

// Z[i] = f(X[i], Y[i]) behind the bounds check; the scalar parameter is unused but keeps the
// saxpy signature compare_runs launches.
template <class T>
KernelDef binary_kernel(const std::string& name, const Unary<T>& f) {
  KernelBuilder kb(name);
  auto z = kb.param<Global<T>>("Z");
  auto x = kb.param<Const<T>>("X");
  auto y = kb.param<Const<T>>("Y");
  auto a = kb.param<T>("a");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[i] = f(x[i], y[i]) + a - a; });
  return kb.finish();
}

template <class T>
void math_identical() {
  const std::pair<const char*, Unary<T>> fns[] = {
      {"sqrt", [](Val<T> x, Val<T>) { return sqrt(x); }},
      {"rsqrt", [](Val<T> x, Val<T>) { return rsqrt(x); }},
      {"exp", [](Val<T> x, Val<T>) { return exp(x); }},
      {"exp2", [](Val<T> x, Val<T>) { return exp2(x); }},
      {"log", [](Val<T> x, Val<T>) { return log(x); }},
      {"log2", [](Val<T> x, Val<T>) { return log2(x); }},
      {"log1p", [](Val<T> x, Val<T>) { return log1p(x); }},
      {"sin", [](Val<T> x, Val<T>) { return sin(x); }},
      {"cos", [](Val<T> x, Val<T>) { return cos(x); }},
      {"tan", [](Val<T> x, Val<T>) { return tan(x); }},
      {"fabs", [](Val<T> x, Val<T>) { return fabs(x); }},
      {"floor", [](Val<T> x, Val<T>) { return floor(x); }},
      {"ceil", [](Val<T> x, Val<T>) { return ceil(x); }},
      {"round", [](Val<T> x, Val<T>) { return round(x); }},
      {"trunc", [](Val<T> x, Val<T>) { return trunc(x); }},
      {"pow", [](Val<T> x, Val<T> y) { return pow(x, y); }},
      {"fmin", [](Val<T> x, Val<T> y) { return fmin(x, y); }},
      {"fmax", [](Val<T> x, Val<T> y) { return fmax(x, y); }},
      {"copysign", [](Val<T> x, Val<T> y) { return copysign(x, y); }},
      {"fma", [](Val<T> x, Val<T> y) { return fma(x, y, x); }},
      {"select", [](Val<T> x, Val<T> y) { return select(x < y, x * y, x / y); }},
      {"min", [](Val<T> x, Val<T> y) { return min(x, -y); }},
  };
  for (const auto& [fn, f] : fns) {
    const KernelDef def =
        binary_kernel<T>(std::string("coarse_") + fn + "_" + std::string(name(scalar_of<T>)), f);
    CAPTURE(std::string(fn));
    CHECK(is_coarsened(coarse_jit(), def));
    for (std::size_t n : {std::size_t{37}, std::size_t{4099}})
      compare_runs<T>(def, n, T(0), coarse_jit());
  }
}

template <class T>
void integer_identical() {
  const KernelDef def = binary_kernel<T>(
      std::string("coarse_int_") + std::string(name(scalar_of<T>)), [](Val<T> x, Val<T> y) {
        return select(x < y, (x * T(3) + y) ^ (y >> T(2)), max(x, y) - x);
      });
  CHECK(is_coarsened(coarse_jit(), def));
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{1001}}) {
    compare_runs<T>(def, n, T(5), coarse_jit());
  }
}

}  // namespace

TEST_CASE("coarsened math builtins are bit-identical (f32, f64)") {
  math_identical<float>();
  math_identical<double>();
}

TEST_CASE("coarsened integer kernels are bit-identical for every integer type") {
  integer_identical<std::int8_t>();
  integer_identical<std::uint8_t>();
  integer_identical<std::int16_t>();
  integer_identical<std::uint16_t>();
  integer_identical<std::int32_t>();
  integer_identical<std::uint32_t>();
  integer_identical<std::int64_t>();
  integer_identical<std::uint64_t>();
}

TEST_CASE("a 2D kernel with a loop (matmul, row * m + col) is coarsened and bit-identical") {
  const KernelDef def = examples::naive_matmul();
  CHECK(is_coarsened(coarse_jit(), def));
  auto& rt = runtime();
  const std::size_t n = 19, p = 23, m = 37;  // m not a multiple of any width: a tail per row
  const std::vector<float> a = spvjit::test::random_data<float>(n * p, 4);
  const std::vector<float> b = spvjit::test::random_data<float>(p * m, 5);
  std::vector<float> out[2];
  Jit* jits[2] = {&scalar_jit(), &coarse_jit()};
  for (int k = 0; k < 2; ++k) {
    Kernel kernel = jits[k]->compile(def);
    auto A = rt.upload(a);
    auto B = rt.upload(b);
    auto C = rt.zeros<float>(n * m);
    kernel.launch(NDRange{m, n}, C, A, B, std::int64_t(n), std::int64_t(p), std::int64_t(m));
    rt.synchronize();
    out[k] = C.to_vector();
  }
  // Bits must agree, except between two NaNs: LLVM keeps no NaN payload promise (it may
  // commute the operands of an fadd in one build and not in the other), and with random bits
  // as inputs some sums meet two NaNs.
  std::size_t differ = 0;
  for (std::size_t i = 0; i < out[0].size(); ++i) {
    const bool both_nan = out[0][i] != out[0][i] && out[1][i] != out[1][i];
    if (!both_nan && std::memcmp(&out[0][i], &out[1][i], sizeof(float)) != 0) ++differ;
  }
  CHECK(differ == 0);
}

TEST_CASE("kernels that are not element-wise are left alone and stay correct") {
  // Reads a neighbour: not indexed by exactly the global index.
  const KernelDef shifted =
      binary_kernel<float>("coarse_not_shift", [](Val<float> x, Val<float>) { return x; });
  (void)shifted;
  auto gather = [] {
    KernelBuilder kb("coarse_not_gather");
    auto z = kb.param<Global<float>>("Z");
    auto x = kb.param<Const<float>>("X");
    auto y = kb.param<Const<float>>("Y");
    auto a = kb.param<float>("a");
    auto i = kb.global_index();
    kb.if_(kb.in_ndrange(), [&] { z[i] = x[(i * 7) % kb.ndrange(0)] + y[i] * a; });
    return kb.finish();
  }();
  auto unguarded = [] {
    KernelBuilder kb("coarse_not_unguarded");
    auto z = kb.param<Global<float>>("Z");
    auto x = kb.param<Const<float>>("X");
    auto y = kb.param<Const<float>>("Y");
    auto a = kb.param<float>("a");
    auto i = kb.global_index();
    auto last = kb.ndrange(0) - std::int64_t(1);
    auto j = select(i < last, i, last);  // clamps instead of checking bounds
    z[j] = x[j] + y[j] * a;
    return kb.finish();
  }();
  auto local = [] {
    KernelBuilder kb("coarse_not_local");
    auto z = kb.param<Global<float>>("Z");
    auto x = kb.param<Const<float>>("X");
    auto y = kb.param<Const<float>>("Y");
    auto a = kb.param<float>("a");
    auto i = kb.global_index();
    kb.if_(kb.in_ndrange(), [&] { z[i] = x[i] + y[i] * a + cast<float>(kb.local_index()); });
    return kb.finish();
  }();
  auto atomic = [] {
    KernelBuilder kb("coarse_not_atomic");
    auto z = kb.param<Global<float>>("Z");
    auto x = kb.param<Const<float>>("X");
    auto y = kb.param<Const<float>>("Y");
    auto a = kb.param<float>("a");
    auto i = kb.global_index();
    kb.if_(kb.in_ndrange(), [&] { atomic_add(z[i], x[i] + y[i] * a); });
    return kb.finish();
  }();
  // A table lookup and a clamped index would be one element per lane (gathers and scatters),
  // with no loop to pay for them (test_coarsen_gather.cpp has kernels that do).
  for (const KernelDef* def : {&gather, &unguarded, &local, &atomic}) {
    CAPTURE(def->name());
    CHECK_FALSE(is_coarsened(coarse_jit(), *def));
    for (std::size_t n : {std::size_t{1}, std::size_t{100}})
      compare_runs<float>(*def, n, 0.25f, coarse_jit());
  }
}

TEST_CASE("KA's 3D scale kernel (x + nx * (y + ny * z)) is coarsened along x, bit-identical") {
  const KernelDef def = examples::scale(Scalar::F64, 3);
  CHECK(is_coarsened(coarse_jit(), def));
  auto& rt = runtime();
  for (auto [nx, ny, nz] :
       {std::array<std::size_t, 3>{4, 4, 4}, std::array<std::size_t, 3>{13, 5, 3},
        std::array<std::size_t, 3>{33, 2, 7}}) {
    const std::size_t n = nx * ny * nz;
    const std::vector<double> b = spvjit::test::random_data<double>(n, 6);
    std::vector<double> out[2];
    Jit* jits[2] = {&scalar_jit(), &coarse_jit()};
    for (int k = 0; k < 2; ++k) {
      auto B = rt.upload(b);
      auto A = rt.zeros<double>(n);
      jits[k]->compile(def).launch(NDRange{nx, ny, nz}, A, B);
      rt.synchronize();
      out[k] = A.to_vector();
    }
    CAPTURE(nx);
    CHECK(std::memcmp(out[0].data(), out[1].data(), n * sizeof(double)) == 0);
  }
}

TEST_CASE("elementwise(): a declared kernel is coarsened, or compiling it says why not") {
  // The refused one reads its local index in dimension 0, which differs between the lanes of
  // one coarsened work-item in a way the vector body cannot give.
  auto build = [](bool local) {
    KernelBuilder kb(local ? "declared_local_index" : "declared_saxpy");
    auto z = kb.param<Global<float>>("Z");
    auto x = kb.param<Const<float>>("X");
    auto a = kb.param<float>("a");
    kb.elementwise();
    auto i = kb.global_index();
    kb.if_(kb.in_ndrange(), [&] {
      z[i] = a * x[i] + (local ? cast<float>(kb.local_index()) * 0.0f : kb.lit(0.0f));
    });
    return kb.finish();
  };
  const KernelDef good = build(false), refused = build(true);
  CHECK(is_coarsened(coarse_jit(), good));
  CHECK_THROWS_WITH_AS(coarse_jit().compile(refused),
                       doctest::Contains("declared elementwise() but cannot be coarsened: it "
                                         "reads _Z12get_local_idj(0)"),
                       UserError);
  // Where coarsening is off the declaration asks nothing, and the kernel runs as written.
  auto& rt = test::runtime();
  auto X = rt.upload(std::vector<float>(64, 1.5f));
  auto Z = rt.zeros<float>(32);
  scalar_jit().compile(refused).launch(NDRange{32}, WorkGroup{8}, Z, X, 2.0f);
  coarse_jit().compile(good).launch(NDRange{17}, Z, X, 4.0f);
  rt.synchronize();
  const auto z = Z.to_vector();
  for (std::size_t k = 0; k < 32; ++k) CHECK(z[k] == (k < 17 ? 6.0f : 3.0f));
  // The declaration is part of the IR, so of every cache key.
  KernelBuilder plain("declared_saxpy");
  auto pz = plain.param<Global<float>>("Z");
  auto px = plain.param<Const<float>>("X");
  auto pa = plain.param<float>("a");
  auto pi = plain.global_index();
  plain.if_(plain.in_ndrange(), [&] { pz[pi] = pa * px[pi]; });
  CHECK(plain.finish().hash() != good.hash());
}
