// Runs a shell command for tests that need a fresh process (the ICD loader and PoCL read their
// environment once per process): its exit status, with stdout and stderr appended to `out`.
// start_command and finish_command split it in two, for tests that run processes side by side.
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace spvjit::test {

/// Starts `cmd` with stdout and stderr both read through the returned stream.
inline FILE* start_command(const std::string& cmd) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  return p;
}

/// Reads a started command's output into `out` and waits for it: its exit status (-1: it did not
/// exit normally).
inline int finish_command(FILE* p, std::string& out) {
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Runs `cmd` to its end: its exit status, with its output appended to `out`.
inline int run_command(const std::string& cmd, std::string& out) {
  return finish_command(start_command(cmd), out);
}

}  // namespace spvjit::test
