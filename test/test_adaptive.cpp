// Adaptive dispatch (PoCL basic + pthread in one context). The checks run in a child process
// (test/adaptive_probe.cpp): PoCL reads POCL_DEVICES once per process, and this process opened
// the pthread device alone.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;


TEST_CASE("adaptive dispatch: same bits on both devices, ordered across queues, thread-safe, "
          "no allocations; spvjit sets POCL_DEVICES when it is unset") {
  std::string out;
  const int code = test::run_command("env -u POCL_DEVICES " SPVJIT_ADAPTIVE_PROBE, out);
  CHECK_MESSAGE(code == 0, out);
  CHECK(out.find("FAIL") == std::string::npos);
  CHECK(out.find("POCL_DEVICES=basic pthread") != std::string::npos);
}

TEST_CASE("adaptive dispatch takes its threshold from SPVJIT_INLINE_THRESHOLD and rejects junk") {
  std::string out;
  CHECK(test::run_command("POCL_DEVICES='basic pthread' SPVJIT_INLINE_THRESHOLD=123 " SPVJIT_ADAPTIVE_PROBE,
            out) == 0);
  CHECK_MESSAGE(out.find("threshold 123;") != std::string::npos, out);
  std::string bad;
  CHECK(test::run_command("SPVJIT_INLINE_THRESHOLD=12k " SPVJIT_ADAPTIVE_PROBE, bad) == 1);
  CHECK_MESSAGE(bad.find("SPVJIT_INLINE_THRESHOLD='12k': expected a number of work-items") !=
                    std::string::npos,
                bad);
}

TEST_CASE("adaptive dispatch without PoCL's basic device says how to get it") {
  test::runtime();  // PoCL has started in this process with POCL_DEVICES unset: pthread only
  RuntimeOptions options;
  options.dispatch = Dispatch::Adaptive;
  CHECK_THROWS_WITH_AS(Runtime{options}, doctest::Contains("POCL_DEVICES=\"basic pthread\""),
                       DeviceNotFoundError);
}
