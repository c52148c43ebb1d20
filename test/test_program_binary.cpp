// A program rebuilt from its device binary (a disk cache's path) launches like the original.
#include <doctest/doctest.h>

#include <vector>

#include "runtime/launch_state.hpp"
#include "runtime/program.hpp"
#include "spvjit/examples.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

TEST_CASE("a kernel rebuilt from the program binary gives the same results") {
  auto& rt = test::runtime();
  Kernel built = test::jit().compile(examples::scale(Scalar::F64, 1));
  const auto& s = detail::KernelAccess::state(built);
  const auto binary = detail::program_binary(s.program->get());
  REQUIRE(!binary.empty());
  auto program = std::make_shared<detail::ClHandle<cl_program>>(
      detail::build_program_from_binary(*s.core, binary, "", s.facts.name));
  Kernel k(std::make_shared<detail::LaunchState>(s.core, program, s.facts));
  auto A = rt.zeros<double>(100);
  auto B = rt.upload(std::vector<double>(100, 0.25));
  k.launch(NDRange{100}, A, B);
  rt.synchronize();
  CHECK(A.to_vector() == std::vector<double>(100, 0.5));
}
