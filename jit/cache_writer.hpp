// CacheWriter: the disk cache's writes, run on one background thread so that a cold compile
// returns as soon as its program is built. Reading a program's binary back makes PoCL compile a
// generic work-group function and serialize the program (tens of milliseconds and a 256 MiB
// scratch allocation, measured in docs/performance.md, "Compiling (issue #16)"): none of that
// is what the caller waits for.
//
// Exit and fork: the destructor runs every queued write and joins the thread, so a Jit that is
// destroyed (return from main included) leaves its entries written. A process that ends without
// running exit handlers (_exit, a fatal signal) kills the write midway: the
// entry is written to a temporary file and renamed into place (disk_cache.hpp), so it leaves the
// whole entry or none, and a temporary file that the next writer's eviction removes once stale.
// exit() with a Jit alive runs an atexit handler that waits for the writes queued so far (each
// takes about what it took inside compile() before): the thread is never left running inside
// PoCL and LLVM while their globals are destroyed, and the entries are written.
// A child made by fork() has no writer thread: its copy neither waits for nor joins it.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace spvjit::detail {

class CacheWriter {
 public:
  CacheWriter() = default;
  CacheWriter(const CacheWriter&) = delete;
  CacheWriter& operator=(const CacheWriter&) = delete;
  /// Runs the writes still queued, then joins the thread.
  ~CacheWriter();

  /// Queues `job` for the writer thread, started on the first call with every asynchronous
  /// signal blocked (PoCL's linker child must not be interrupted, runtime/signal_guard.hpp).
  /// The job runs `delay` from now at the earliest, or as soon as wait_idle(), the destructor
  /// or exit asks. When no thread can be started, runs `job` here. A job must not throw.
  void post(std::function<void()> job, std::chrono::milliseconds delay = {});
  /// Returns once every job posted before the call has finished, running delayed ones now.
  void wait_idle();

 private:
  void run();
  bool forked() const;

  std::mutex mutex_;
  std::condition_variable work_;  // a job queued, or stopping_
  std::condition_variable idle_;  // the queue emptied and no job runs
  struct Job {
    std::function<void()> run;
    std::chrono::steady_clock::time_point not_before;
  };
  std::deque<Job> jobs_;  // in posting order, so not_before never decreases
  int hurrying_ = 0;      // wait_idle() calls under way: delays are cut short
  bool running_job_ = false;
  bool stopping_ = false;
  std::thread thread_;
  pid_t owner_ = 0;  // the process that started thread_
  std::atomic<bool> registered_{false};  // with the exit handler
};

}  // namespace spvjit::detail
