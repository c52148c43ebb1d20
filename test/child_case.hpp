// Runs a test case again in a child process of the test binary, for cases that need PoCL started
// with their own environment: PoCL reads POCL_DEVICES once per process, and in a process that runs
// many cases (the ASan run, sanitizers/check.sh) another case has started it before.
#pragma once

#include <doctest/doctest.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "test/run_command.hpp"
#include "test/skip.hpp"

namespace spvjit::test {

/// In the child (SPVJIT_TEST_CHILD set) returns true: the case's body runs here. Otherwise runs
/// this binary's cases matching `filter` (doctest's --test-case, wildcards allowed) in a child
/// with `env` (shell assignments) before it, checks that exactly one case ran and passed or
/// skipped, and returns false.
inline bool in_child_process(const std::string& filter, const std::string& env) {
  if (std::getenv("SPVJIT_TEST_CHILD")) return true;
  char self[PATH_MAX] = {};
  const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
  REQUIRE_MESSAGE(length > 0, "cannot read /proc/self/exe");
  std::string out;
  const int code = run_command("SPVJIT_TEST_CHILD=1 " + env + " '" + std::string(self, length) +
                                   "' '--test-case=" + filter + "'",
                               out);
  int ran = -1;
  const auto at = out.find("test cases:");
  if (at != std::string::npos) std::sscanf(out.c_str() + at, "test cases: %d", &ran);
  REQUIRE_MESSAGE(ran == 1, "the child ran " << ran << " cases for '" << filter << "':\n" << out);
  if (code == 77) {
    skip("in the child process:\n" + out);
  } else {
    CHECK_MESSAGE(code == 0, out);
  }
  return false;
}

}  // namespace spvjit::test
