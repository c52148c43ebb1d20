// Runs a program as a child without copying the host: clone(CLONE_VM | CLONE_VFORK) and exec,
// as posix_spawn does, holding a pidfd for it. A host may ignore SIGCHLD (the kernel then reaps
// every child at once) or reap every child in its handler: the child's exit status may then be
// gone, and waiting by pid could even find another process that reused the number. Waiting on
// the pidfd waits for this child alone and says when its status was taken by someone else; a
// caller must therefore read its answer from the child's output, and treat the status as a
// diagnostic.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace spvjit::detail {

struct ChildResult {
  bool status_known = true;  ///< false: the host's SIGCHLD handling collected it first
  bool exited = false;       ///< it called exit; else it was killed (timed_out, or a signal)
  int exit_code = 0;         ///< with exited
  int signal = 0;            ///< the signal that ended it, without exited
  bool timed_out = false;    ///< killed by us after `timeout`
  std::string out;           ///< its standard output
  std::string err;           ///< its standard error
};

/// Runs `program` with `args` (argv[1..]) and this process's environment; `input` is its
/// standard input. Throws Error when the program cannot be started (naming why).
ChildResult run_child(const std::string& program, const std::vector<std::string>& args,
                      std::string_view input, std::chrono::milliseconds timeout);

}  // namespace spvjit::detail
