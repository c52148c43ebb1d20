// saxpy end to end for every storage type, size and workgroup shape of the foundation issue.
#include <doctest/doctest.h>

#include <vector>

#include "spvjit/examples.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {

// Values small enough to be exact in half precision, so every type can be compared exactly.
template <class T>
T make(double v) {
  if constexpr (std::is_same_v<T, half>) {
    return to_half(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}
template <class T>
double value(T v) {
  if constexpr (std::is_same_v<T, half>) {
    return to_float(v);
  } else {
    return static_cast<double>(v);
  }
}

template <class T>
void run_saxpy(std::size_t n, std::optional<std::size_t> workgroup, bool static_workgroup) {
  using A = arithmetic_t<T>;
  auto& rt = test::runtime();
  Specialization spec;
  if (static_workgroup && workgroup) spec.workgroup = WorkGroup{*workgroup};
  Kernel k = test::jit().compile(examples::saxpy(scalar_of<T>), spec);
  std::vector<T> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = make<T>(static_cast<double>(i % 17));
    y[i] = make<T>(static_cast<double>(i % 13) * 0.5);
  }
  auto X = rt.upload(x);
  auto Y = rt.upload(y);
  auto Z = rt.zeros<T>(n);
  const A a = A(2);
  if (workgroup && !static_workgroup) {
    k.launch(NDRange{n}, WorkGroup{*workgroup}, Z, X, Y, a);
  } else {
    k.launch(NDRange{n}, Z, X, Y, a);
  }
  rt.synchronize();
  auto z = Z.to_vector();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double expected = 2.0 * value(x[i]) + value(y[i]);
    if (value(z[i]) != expected) {
      if (wrong++ < 3) FAIL_CHECK("Z[" << i << "] = " << value(z[i]) << ", expected " << expected);
    }
  }
  CHECK_MESSAGE(wrong == 0, wrong << " wrong elements of " << n);
}

template <class T>
void saxpy_matrix() {
  // Plain loops, not doctest SUBCASEs: a SUBCASE inside a loop runs for one iteration only.
  const std::size_t sizes[] = {1, 64, 1000, 1024, 65537, 1048576};
  for (std::size_t n : sizes) {
    CAPTURE(n);
    run_saxpy<T>(n, std::nullopt, false);  // dynamic workgroup
    for (std::size_t wg : {std::size_t{64}, std::size_t{1024}}) {
      CAPTURE(wg);
      run_saxpy<T>(n, wg, false);  // given at launch
      run_saxpy<T>(n, wg, true);   // static (specialized)
    }
    if (n <= 65537) run_saxpy<T>(n, 1, false);  // 2^20 one-item groups: see the test below
  }
}

}  // namespace

TEST_CASE("saxpy Float16 matches the CPU reference") { saxpy_matrix<half>(); }
TEST_CASE("saxpy Float32 matches the CPU reference") { saxpy_matrix<float>(); }
TEST_CASE("saxpy Float64 matches the CPU reference") { saxpy_matrix<double>(); }

TEST_CASE("saxpy with workgroup 1 over 2^20 items") { run_saxpy<float>(1048576, 1, false); }

TEST_CASE("a second compile of the same kernel and specialization does not recompile") {
  auto& jit = test::jit();
  auto def = examples::saxpy(Scalar::F32);
  Specialization spec;
  spec.workgroup = WorkGroup{32};
  Kernel first = jit.compile(def, spec);
  const auto after_first = jit.compile_count();
  Kernel second = jit.compile(examples::saxpy(Scalar::F32), spec);  // rebuilt def, same content
  CHECK(jit.compile_count() == after_first);
  Specialization other;
  other.workgroup = WorkGroup{16};
  Kernel third = jit.compile(def, other);
  CHECK(jit.compile_count() == after_first + 1);
}

TEST_CASE("static ndrange: the bounds check folds away and results stay exact") {
  auto& rt = test::runtime();
  for (std::size_t n : {std::size_t{1000}, std::size_t{1024}}) {
    Specialization spec;
    spec.ndrange = NDRange{n};
    spec.workgroup = WorkGroup{64};
    Kernel k = test::jit().compile(examples::saxpy(Scalar::F32), spec);
    std::vector<float> x(n, 1.0f), y(n, 3.0f);
    auto X = rt.upload(x);
    auto Y = rt.upload(y);
    auto Z = rt.zeros<float>(n);
    k.launch(NDRange{n}, Z, X, Y, 2.0f);
    rt.synchronize();
    for (float z : Z.to_vector()) CHECK(z == 5.0f);
    CHECK_THROWS_AS(k.launch(NDRange{n + 1}, Z, X, Y, 2.0f), UserError);
  }
}

// Issue #51: KernelAbstractions' `kernel(args...)` for a kernel with a static ndrange needs no
// ndrange at launch; without one, the call says what to pass.
TEST_CASE(
    "static ndrange: k(args...) launches over it, and a dynamic kernel says to pass an NDRange") {
  auto& rt = test::runtime();
  const std::size_t n = 1000;
  Specialization spec;
  spec.ndrange = NDRange{n};
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32), spec);
  auto X = rt.upload(std::vector<float>(n, 1.0f));
  auto Y = rt.upload(std::vector<float>(n, 3.0f));
  auto Z = rt.upload(std::vector<float>(n + 8, -1.0f));
  k(Z, X, Y, 2.0f);
  rt.synchronize();
  const auto z = Z.to_vector();
  for (std::size_t i = 0; i < n; ++i) CHECK(z[i] == 5.0f);
  for (std::size_t i = n; i < n + 8; ++i) CHECK(z[i] == -1.0f);  // the ndrange, not the buffer
  Kernel dynamic = test::jit().compile(examples::saxpy(Scalar::F32));
  CHECK_THROWS_WITH_AS(dynamic(Z, X, Y, 2.0f),
                       doctest::Contains("compiled without a static ndrange; launch it with one "
                                         "(k.launch(NDRange{n}, args...))"),
                       UserError);
}

TEST_CASE("launch arguments are checked against the signature") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
  auto Zf = rt.zeros<float>(8);
  auto Zd = rt.zeros<double>(8);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{8}, Zf, Zf, Zf),
                       doctest::Contains("3 arguments given, expected 4"), UserError);
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{8}, Zf, Zd, Zf, 1.0f),
      doctest::Contains("argument 1 'X': expected global const f32*, got Buffer<f64>"), UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{8}, Zf, Zf, Zf, 1.0),
                       doctest::Contains("argument 3 'a': expected f32, got a scalar f64"),
                       UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{8}, WorkGroup{8192}, Zf, Zf, Zf, 1.0f),
                       doctest::Contains("exceeds the device's maximum"), UserError);
}
