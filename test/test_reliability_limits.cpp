// Launches spvjit used to hand to PoCL 6.0 that took the host process down: local memory past
// the device's (SIGABRT), work-groups whose values across a barrier overflow the stack of the
// thread running them (SIGSEGV), and shared memory of another Runtime (accepted, another
// context's memory written). Each crashing case runs in spvjit_limits_probe, a process of its
// own, so that a regression fails its test instead of killing the suite.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "spvjit/examples.hpp"
#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {

// The probe's output for `args`; its exit status must be 0 (refused or ran right).
std::string probe(const std::string& args) {
  std::string out;
  const int status = test::run_command(std::string(SPVJIT_LIMITS_PROBE) + " " + args, out);
  INFO("spvjit_limits_probe " << args << ": " << out);
  CHECK(status == 0);
  return out;
}

// out[l] = tile[l] + scratch[l]: a static local array and a LocalMemory argument.
KernelDef local_sum(std::int64_t tile_floats) {
  KernelBuilder kb("limits_local_sum");
  auto out = kb.param<Global<float>>("out");
  auto scratch = kb.param<Local<float>>("scratch");
  auto tile = local_array<float>(kb, {tile_floats}, "tile");
  auto l = kb.local_index();
  tile(l) = 1.0f;
  scratch[l] = 2.0f;
  barrier(kb, Fence::Local);
  kb.if_(kb.in_ndrange(), [&] { out[kb.global_index()] = tile(l).get() + scratch[l].get(); });
  return kb.finish();
}

}  // namespace

TEST_CASE(
    "reliability: static local arrays plus LocalMemory above the device's local memory are a "
    "UserError, not SIGABRT") {
  const std::string bytes = std::to_string(test::runtime().device().local_mem_size);
  const std::string twice = std::to_string(2 * test::runtime().device().local_mem_size);
  const std::string refused =
      "refused: launch of kernel 'limits_local_sum': local memory: " + bytes +
      " bytes static (local_array) + " + bytes + " bytes LocalMemory = " + twice +
      " bytes, the device has " + bytes;
  CHECK(probe("local").find(refused) != std::string::npos);
  CHECK(probe("local adaptive").find(refused) != std::string::npos);
}

TEST_CASE(
    "reliability: local memory up to the device's is accepted, a byte more refused before PoCL "
    "sees it") {
  auto& rt = test::runtime();
  const std::uint64_t half = rt.device().local_mem_size / 2;
  Kernel k = test::jit().compile(local_sum(static_cast<std::int64_t>(half / sizeof(float))));
  auto out = rt.zeros<float>(64);
  k.launch(NDRange{64}, WorkGroup{64}, out, LocalMemory{half});  // exactly the device's
  rt.synchronize();
  for (float v : out.to_vector()) CHECK(v == 3.0f);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{64}, WorkGroup{64}, out, LocalMemory{half + 1}),
                       doctest::Contains(("local memory: " + std::to_string(half) +
                                          " bytes static (local_array) + " +
                                          std::to_string(half + 1) + " bytes LocalMemory")
                                             .c_str()),
                       UserError);
  // One LocalMemory alone above the device's, and local arrays alone above it at compile.
  CHECK_THROWS_WITH_AS(k.launch(NDRange{64}, WorkGroup{64}, out, LocalMemory{2 * half + 64}),
                       doctest::Contains(("LocalMemory of " + std::to_string(2 * half + 64) +
                                          " bytes; expected 1 to " + std::to_string(2 * half))
                                             .c_str()),
                       UserError);
  CHECK_THROWS_WITH_AS(
      test::jit().compile(local_sum(static_cast<std::int64_t>(2 * half / sizeof(float)) + 1)),
      doctest::Contains(("its local arrays take " + std::to_string(2 * half + 4) +
                         " bytes; the device has " + std::to_string(2 * half))
                            .c_str()),
      UserError);
  // The kernel lives on.
  k.launch(NDRange{64}, WorkGroup{64}, out, LocalMemory{64 * sizeof(float)});
  rt.synchronize();
  for (float v : out.to_vector()) CHECK(v == 3.0f);
}

TEST_CASE(
    "reliability: 512 floats across a barrier in a 4096-item workgroup are a UserError, not "
    "SIGSEGV") {
  const std::string advice = "hold fewer values across barrier()";
  for (const char* dispatch : {"", " adaptive"}) {
    const std::string fixed = probe(std::string("barrier-static") + dispatch);
    CHECK(fixed.find("refused: compile of kernel 'limits_barrier_live': static workgroup "
                     "(4096,) would keep 4096 x ") != std::string::npos);
    CHECK(fixed.find(advice) != std::string::npos);
    // The workgroup is spvjit's choice: it shrinks to fit, and the results are right.
    const std::string chosen = probe(std::string("barrier-chosen") + dispatch);
    CHECK(chosen.find("ran: workgroup (") != std::string::npos);
    CHECK(chosen.find("ran: workgroup (4096,)") == std::string::npos);
  }
  const std::string given = probe("barrier-given");
  CHECK(given.find("refused: launch of kernel 'limits_barrier_live': workgroup (4096,) "
                   "would keep 4096 x ") != std::string::npos);
}

TEST_CASE(
    "reliability: the group budget follows the threads' real stack (2 MiB, as under ulimit -s "
    "unlimited)") {
  // glibc gives threads 2 MiB where RLIMIT_STACK is unlimited: a fixed 4 MiB budget would
  // choose 2032-item groups there, and PoCL's worker overflowed from 1024 on (SIGSEGV).
  const std::string out = probe("barrier-chosen --thread-stack=2097152");
  CHECK(out.find("thread stack 2097152") != std::string::npos);
  // Half of 2 MiB over the 2048+ bytes each work-item holds: at most 512 (8 MiB gives 2040).
  const auto at = out.find("ran: workgroup (");
  REQUIRE(at != std::string::npos);
  const unsigned long items = std::stoul(out.substr(at + 16));
  CHECK(items > 256);
  CHECK(items <= 512);
}

TEST_CASE("reliability: a SharedArray of another Runtime is a UserError, like its buffers") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
  Runtime other;  // its own context: its shared memory means nothing to rt's kernels
  auto foreign = zeros_shared<float>(other, 8);
  auto X = zeros_shared<float>(rt, 8);
  for (auto& x : X) x = 1.0f;
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{8}, foreign, X, X, 1.0f),
      doctest::Contains("argument 0 'Z': the SharedArray belongs to another Runtime"), UserError);
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{4}, X, foreign.view(2, 4), X, 1.0f),
      doctest::Contains("argument 1 'X': the SharedArray belongs to another Runtime"), UserError);
  CHECK(foreign[0] == 0.0f);  // nothing ran
  auto Z = zeros_shared<float>(rt, 8);
  k.launch(NDRange{8}, Z, X.view(0, 8), X, 1.0f);
  rt.synchronize();
  for (float z : Z) CHECK(z == 2.0f);
}
