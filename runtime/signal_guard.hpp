// SignalsDeferred: blocks asynchronous signals in the calling thread while PoCL builds a
// kernel. PoCL 6.0 links each kernel by running the linker as a child process and aborts the
// whole process when its waitpid() returns EINTR ("pocl: waitpid() failed."), so a host
// application with an interval timer (SIGALRM/SIGPROF handlers without SA_RESTART: profilers,
// watchdogs, libFuzzer's -timeout) was killed by a compile. Blocked here, a process-directed
// signal goes to another thread or waits until the build ends. Faults (SIGSEGV, SIGBUS, SIGFPE,
// SIGILL, SIGTRAP, SIGABRT) are never blocked.
#pragma once

#include <pthread.h>
#include <signal.h>

namespace spvjit::detail {

class SignalsDeferred {
 public:
  SignalsDeferred() {
    sigset_t all;
    sigfillset(&all);
    for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT}) sigdelset(&all, fault);
    active_ = pthread_sigmask(SIG_BLOCK, &all, &previous_) == 0;
  }
  ~SignalsDeferred() {
    if (active_) pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  SignalsDeferred(const SignalsDeferred&) = delete;
  SignalsDeferred& operator=(const SignalsDeferred&) = delete;

 private:
  sigset_t previous_;
  bool active_ = false;
};

}  // namespace spvjit::detail
