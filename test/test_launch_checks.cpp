// What a bad launch says: each message names the kernel, the argument or size that was wrong,
// and what was expected.
#include <doctest/doctest.h>

#include <vector>

#include "spvjit/examples.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

TEST_CASE("bad launch geometry is reported with the values that conflict") {
  auto& rt = test::runtime();
  auto A = rt.zeros<double>(64);
  auto B = rt.zeros<double>(64);
  const auto def = examples::scale(Scalar::F64, 1);
  Specialization fixed;
  fixed.workgroup = WorkGroup{16};
  Kernel k16 = test::jit().compile(def, fixed);
  CHECK_THROWS_WITH_AS(k16.launch(NDRange{64}, WorkGroup{32}, A, B),
                       doctest::Contains("workgroup (32,) differs from the static workgroup (16,)"),
                       UserError);
  Kernel k = test::jit().compile(def);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{64}, WorkGroup{0}, A, B),
                       doctest::Contains("workgroup (0,) has a zero dimension"), UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{64, 64, 64}, WorkGroup{64, 64, 64}, A, B),
                       doctest::Contains("work-items; the kernel allows at most"), UserError);
  CHECK_THROWS_WITH_AS(Kernel{}.launch(NDRange{64}, A, B), doctest::Contains("the Kernel is empty"),
                       UserError);
  Buffer<double> moved = std::move(B);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{64}, A, B),
                       doctest::Contains("argument 1 'B': the buffer is empty"), UserError);
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{64}, A, 2.0),
      doctest::Contains("argument 1 'B': expected global const f64*, got a scalar f64"), UserError);
  // After the errors the kernel still launches correctly: no half-set arguments were kept.
  auto C = rt.upload(std::vector<double>(64, 1.0));
  k.launch(NDRange{64}, A, C);
  rt.synchronize();
  CHECK(A.to_vector() == std::vector<double>(64, 2.0));
}

TEST_CASE("a dynamic kernel launched over changing ndranges covers each one exactly") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(examples::scale(Scalar::F64, 1));
  auto B = rt.upload(std::vector<double>(5000, 1.5));
  // The geometry of the last chosen workgroup is reused: every change must be noticed.
  for (std::size_t n : {16, 1000, 16, 5000, 4097, 4097, 1}) {
    CAPTURE(n);
    auto A = rt.zeros<double>(5000);
    k.launch(NDRange{n}, A, B);
    rt.synchronize();
    const auto a = A.to_vector();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < a.size(); ++i) wrong += a[i] != (i < n ? 3.0 : 0.0);
    CHECK(wrong == 0);
  }
}
