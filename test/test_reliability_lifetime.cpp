// Object lifetimes an embedding application gets wrong or relies on: buffers dropped while a
// launch is queued, kernels that outlive their Jit, buffers of another Runtime.
#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "spvjit/examples.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

TEST_CASE("reliability: buffers destroyed while their launch is queued stay alive until it ends") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
  auto Z = rt.zeros<float>(4096);
  for (int round = 0; round < 20; ++round) {
    auto X = rt.upload(std::vector<float>(4096, 1.0f));
    auto Y = rt.upload(std::vector<float>(4096, 2.0f));
    k.launch(NDRange{4096}, Z, X, Y, 3.0f);
  }  // X and Y released here, before the queue drained: OpenCL keeps them for the command
  rt.synchronize();
  for (float z : Z.to_vector()) CHECK(z == 5.0f);
}

TEST_CASE("reliability: a Kernel outlives the Jit that compiled it") {
  auto& rt = test::runtime();
  std::optional<Kernel> k;
  {
    Jit jit(rt);
    k = jit.compile(examples::saxpy(Scalar::F32));
  }
  auto X = rt.upload(std::vector<float>(8, 1.0f));
  auto Z = rt.zeros<float>(8);
  k->launch(NDRange{8}, Z, X, X, 1.0f);
  rt.synchronize();
  for (float z : Z.to_vector()) CHECK(z == 2.0f);
}

TEST_CASE("reliability: a buffer of another Runtime is an exception, not a crash") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
  Runtime other;  // its own context: its buffers mean nothing to rt's kernels
  auto foreign = other.zeros<float>(8);
  auto X = rt.zeros<float>(8);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{8}, foreign, X, X, 1.0f),
                       doctest::Contains("argument 0 'Z': the buffer belongs to another Runtime"),
                       UserError);
  auto Z = rt.zeros<float>(8);
  k.launch(NDRange{8}, Z, X, X, 1.0f);
  rt.synchronize();
  for (float z : Z.to_vector()) CHECK(z == 0.0f);
}

TEST_CASE("reliability: empty kernels and buffers answer with exceptions, not crashes") {
  Kernel empty;
  CHECK_FALSE(empty.valid());
  CHECK_THROWS_WITH_AS(empty.name(), doctest::Contains("the Kernel is empty"), UserError);
  CHECK_THROWS_AS(empty.params(), UserError);
  CHECK_THROWS_AS(empty.specialization(), UserError);
  CHECK_THROWS_AS(empty.workgroup_for(NDRange{8}), UserError);
  CHECK_THROWS_AS(empty.launch(NDRange{8}), UserError);
  CHECK_THROWS_WITH_AS(test::jit().compile(KernelDef{}),
                       doctest::Contains("KernelDef: the KernelDef is empty"), UserError);

  auto& rt = test::runtime();
  Buffer<float> none;
  auto zero_sized = rt.allocate<float>(0);
  auto four = rt.zeros<float>(4);
  CHECK_THROWS_WITH_AS(none.copy_to(zero_sized), doctest::Contains("buffer is empty"), UserError);
  CHECK_THROWS_WITH_AS(four.copy_to(none), doctest::Contains("buffer is empty"), UserError);
  Runtime other;
  auto foreign = other.zeros<float>(4);
  CHECK_THROWS_WITH_AS(four.copy_to(foreign), doctest::Contains("different Runtimes"), UserError);
  auto copy = rt.allocate<float>(4);
  four.copy_to(copy);
  CHECK(copy.to_vector() == std::vector<float>(4, 0.0f));
}

TEST_CASE("reliability: a moved-from Runtime answers with exceptions, not crashes") {
  Runtime first;
  Runtime second = std::move(first);
  CHECK_THROWS_WITH_AS(first.device(), doctest::Contains("moved from"), UserError);
  CHECK_THROWS_AS(first.synchronize(), UserError);
  CHECK_THROWS_AS(first.zeros<float>(4), UserError);
  CHECK_THROWS_AS(first.upload(std::vector<int>(4, 1)), UserError);
  CHECK_THROWS_AS(Jit{first}, UserError);
  auto b = second.zeros<float>(4);
  second.synchronize();
  CHECK(b.to_vector() == std::vector<float>(4, 0.0f));
}

TEST_CASE("reliability: a moved-from Jit answers with exceptions, not crashes") {
  Jit first(test::runtime());
  Jit second(std::move(first));
  CHECK_THROWS_WITH_AS(first.compile(examples::saxpy(Scalar::F32)), doctest::Contains("moved from"),
                       UserError);
  CHECK_THROWS_AS(first.spirv(examples::saxpy(Scalar::F32)), UserError);
  CHECK_THROWS_AS(first.stats(), UserError);
  CHECK_THROWS_AS(first.cache_dir(), UserError);
  CHECK(second.compile(examples::saxpy(Scalar::F32)).valid());
}
