// Runs a program as a child without copying the host: clone(CLONE_VM | CLONE_VFORK) and exec,
// as posix_spawn does, holding a pidfd for it. A host may ignore SIGCHLD (the kernel then reaps
// every child at once) or reap every child in its handler: the child's exit status may then be
// gone, and waiting by pid could even find another process that reused the number. Waiting on
// the pidfd waits for this child alone and says when its status was taken by someone else; a
// caller must therefore read its answer from the child's output, and treat the status as a
// diagnostic.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
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

/// A program kept running as a child to answer request after request, started as run_child
/// starts one: its standard input and output are one end of a socket pair (writes to it use
/// MSG_NOSIGNAL, so a child that died raises no SIGPIPE in the host), its standard error a pipe.
/// It is started at the first exchange, again after it ended, and again in a process forked from
/// the one that started it (which never touches its parent's). Destroying the server closes
/// the socket: the child reads the end of its input and exits. Thread-safe: one exchange at a
/// time.
class ChildServer {
 public:
  /// `goodbye`, where not empty: what the child writes, alone, when it leaves between requests
  /// of its own accord (after a while idle) having read nothing since its last answer. An
  /// exchange that reads just that and then the child's end sends its request again, once, to a
  /// new child. No whole answer may be just `goodbye`.
  ChildServer(std::string program, std::vector<std::string> args, std::string goodbye = {});
  ~ChildServer();
  ChildServer(const ChildServer&) = delete;
  ChildServer& operator=(const ChildServer&) = delete;

  /// Sends `request` and reads the child's output until `whole(output)` is true, the child ends
  /// (then it is waited for, its status in the result, and the next exchange starts another),
  /// or `timeout` passes (then it is killed). The result's `out` is this exchange's output,
  /// `err` what the child wrote to standard error meanwhile. Throws Error when the child cannot
  /// be started.
  ChildResult exchange(std::string_view request, const std::function<bool(std::string_view)>& whole,
                       std::chrono::milliseconds timeout);

  /// How many children this server has started (a test's view of restarts).
  unsigned starts() const;

 private:
  ChildResult exchange_locked(std::string_view request,
                              const std::function<bool(std::string_view)>& whole,
                              std::chrono::milliseconds timeout);
  void start();
  /// Closes the child's input, waits for it to end until `kill_at` (then kills it), and puts
  /// how it ended and what is left of its standard error in `result`.
  void stop(ChildResult* result, std::chrono::steady_clock::time_point kill_at);

  std::string program_;
  std::vector<std::string> args_;
  std::string goodbye_;
  mutable std::mutex mutex_;
  int socket_ = -1, err_ = -1, pidfd_ = -1;
  long owner_ = 0;  ///< the process that started the child
  unsigned starts_ = 0;
};

}  // namespace spvjit::detail
