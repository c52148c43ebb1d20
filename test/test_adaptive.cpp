// Adaptive dispatch (PoCL basic + pthread in one context). The checks run in a child process
// (test/adaptive_probe.cpp): PoCL reads POCL_DEVICES once per process, and this process opened
// the pthread device alone.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {
int run(const std::string& cmd, std::string& out) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
}  // namespace

TEST_CASE("adaptive dispatch: same bits on both devices, ordered across queues, thread-safe, "
          "no allocations; spvjit sets POCL_DEVICES when it is unset") {
  std::string out;
  const int code = run("env -u POCL_DEVICES " SPVJIT_ADAPTIVE_PROBE, out);
  CHECK_MESSAGE(code == 0, out);
  CHECK(out.find("FAIL") == std::string::npos);
  CHECK(out.find("POCL_DEVICES=basic pthread") != std::string::npos);
}

TEST_CASE("adaptive dispatch takes its threshold from SPVJIT_INLINE_THRESHOLD and rejects junk") {
  std::string out;
  CHECK(run("POCL_DEVICES='basic pthread' SPVJIT_INLINE_THRESHOLD=123 " SPVJIT_ADAPTIVE_PROBE,
            out) == 0);
  CHECK_MESSAGE(out.find("threshold 123;") != std::string::npos, out);
  std::string bad;
  CHECK(run("SPVJIT_INLINE_THRESHOLD=12k " SPVJIT_ADAPTIVE_PROBE, bad) == 1);
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
