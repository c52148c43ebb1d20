#include "common/full_stack.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>

#include "common/group_stack.hpp"
#include "spvjit/error.hpp"

namespace spvjit::detail {

namespace {

std::uint64_t full_stack_bytes() noexcept {
  static const std::uint64_t bytes = default_thread_stack_bytes();
  return bytes;
}

// A small-stack thread's companion: a thread of its own with a full stack that runs the calls
// the small thread hands it, one at a time, while the small thread waits. One per small-stack
// thread (made at its first such call, joined when it exits), so such threads still run in
// parallel and a call on one never waits for another's.
class Companion {
 public:
  Companion() = default;
  Companion(const Companion&) = delete;
  Companion& operator=(const Companion&) = delete;
  ~Companion() {
    if (!started_) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    pthread_join(thread_, nullptr);
  }

  void run(void (*job)(void*), void* context) {
    if (!started_) start();
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = job;
    context_ = context;
    error_ = nullptr;
    done_ = false;
    wake_.notify_all();
    finished_.wait(lock, [&] { return done_; });
    job_ = nullptr;
    // What the job noted (a warm lookup, a build) is this thread's scope's to weigh.
    WorkScope::adopt_noted(noted_);
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void start() {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) throw SystemError("spvjit: pthread_attr_init failed");
    const std::uint64_t stack = std::max<std::uint64_t>(full_stack_bytes(), std::uint64_t{8} << 20);
    int err = pthread_attr_setstacksize(&attr, static_cast<std::size_t>(stack));
    // The host's asynchronous signals are for the host's threads: the companion starts with
    // them blocked (faults still reach it).
    sigset_t blocked, previous;
    sigfillset(&blocked);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT})
      sigdelset(&blocked, sig);
    if (err == 0) {
      pthread_sigmask(SIG_BLOCK, &blocked, &previous);
      err = pthread_create(&thread_, &attr, &Companion::main, this);
      pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    }
    pthread_attr_destroy(&attr);
    if (err != 0) {
      throw SystemError(
          "spvjit: this thread's stack (" + std::to_string(this_thread_stack_bytes()) +
          " bytes) is smaller than a default thread's (" + std::to_string(full_stack_bytes()) +
          "), and a thread with a full stack to run the call on could not be started: " +
          std::strerror(err));
    }
    started_ = true;
  }

  static void* main(void* self) {
    static_cast<Companion*>(self)->serve();
    return nullptr;
  }

  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || (job_ && !done_); });
      if (stopping_) return;
      lock.unlock();
      try {
        const WorkScope lent(WorkScope::Lent{});  // its caller waits inside its own scope
        job_(context_);
      } catch (...) {
        error_ = std::current_exception();
      }
      const WorkScope::Noted noted = WorkScope::take_noted();
      lock.lock();
      noted_ = noted;
      done_ = true;
      finished_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable finished_;
  void (*job_)(void*) = nullptr;
  void* context_ = nullptr;
  std::exception_ptr error_;
  WorkScope::Noted noted_{};  ///< what the last job noted, for its caller's scope
  bool done_ = false;
  bool stopping_ = false;
  bool started_ = false;
  pthread_t thread_{};
};

}  // namespace

std::uint64_t this_thread_stack_bytes() noexcept {
  thread_local std::uint64_t bytes = [] {
    // The main thread's stack grows on demand up to RLIMIT_STACK's soft limit, which is where
    // glibc's default comes from; pthread_getattr_np reports it a page short (8 MiB - 4 KiB),
    // which made the main thread hand every call off.
    if (::getpid() == static_cast<pid_t>(::syscall(SYS_gettid))) {
      rlimit limit{};
      if (::getrlimit(RLIMIT_STACK, &limit) == 0) {
        return limit.rlim_cur == RLIM_INFINITY
                   ? std::max<std::uint64_t>(full_stack_bytes(), std::uint64_t{8} << 20)
                   : static_cast<std::uint64_t>(limit.rlim_cur);
      }
    }
    std::uint64_t size = 0;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      std::size_t s = 0;
      if (pthread_attr_getstacksize(&attr, &s) == 0) size = s;
      pthread_attr_destroy(&attr);
    }
    // Unknown: assume full rather than hand every call off.
    return size ? size : full_stack_bytes();
  }();
  return bytes;
}

bool this_thread_has_full_stack() noexcept {
  return this_thread_stack_bytes() >= full_stack_bytes();
}

void run_on_full_stack_thread(void (*job)(void*), void* context) {
  thread_local Companion companion;
  companion.run(job, context);
}

}  // namespace spvjit::detail
