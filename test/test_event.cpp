// Events only on request: launch_event returns one that completes with its launch.
#include <doctest/doctest.h>

#include <vector>

#include "spvjit/examples.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

TEST_CASE("launch_event returns an event that completes with the launch") {
  auto& rt = test::runtime();
  auto A = rt.zeros<double>(1024);
  auto B = rt.upload(std::vector<double>(1024, 4.0));
  Kernel k = test::jit().compile(examples::scale(Scalar::F64, 1));
  Event e = k.launch_event(NDRange{1024}, A, B);
  REQUIRE(e.handle() != nullptr);
  e.wait();
  CHECK(e.complete());
  CHECK(A.to_vector() == std::vector<double>(1024, 8.0));
  Event none = k.launch_event(NDRange{0}, A, B);  // nothing to run: an empty event
  CHECK(none.handle() == nullptr);
  none.wait();
  CHECK(none.complete());
}
