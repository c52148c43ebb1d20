#include "jit/cache_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <string>
#include <system_error>
#include <vector>

#include "common/log.hpp"
#include "runtime/signal_guard.hpp"

namespace spvjit::detail {

namespace {

void run_guarded(const std::function<void()>& job) {
  // A write that fails leaves the kernel uncached, never the compile that asked for it failed.
  try {
    job();
  } catch (const std::exception& e) {
    warn_once("cache-writer", std::string("a kernel cache write failed (") + e.what() +
                                  "); that kernel is not cached on disk");
  } catch (...) {
    warn_once("cache-writer", "a kernel cache write failed; that kernel is not cached on disk");
  }
}

// The writers that have posted, for the exit handler. Never destroyed: a Jit may outlive static
// destruction's turn for this file.
struct Live {
  std::mutex mutex;
  std::vector<CacheWriter*> writers;
};
Live& live_writers() {
  static Live* live = new Live;
  return *live;
}

// exit() with a Jit alive: the writes queued so far finish before static destructors run, as
// they finished inside compile() before the writer existed. Without it the thread would be
// inside PoCL and LLVM while their globals are destroyed.
void finish_writes_at_exit() {
  auto& live = live_writers();
  std::lock_guard<std::mutex> lock(live.mutex);
  for (CacheWriter* w : live.writers) w->wait_idle();
}

void register_writer(CacheWriter* w) {
  static const bool registered = std::atexit(finish_writes_at_exit) == 0;
  (void)registered;
  auto& live = live_writers();
  std::lock_guard<std::mutex> lock(live.mutex);
  live.writers.push_back(w);
}

void unregister_writer(CacheWriter* w) {
  auto& live = live_writers();
  std::lock_guard<std::mutex> lock(live.mutex);
  std::erase(live.writers, w);
}

}  // namespace

bool CacheWriter::forked() const { return thread_.joinable() && owner_ != ::getpid(); }

CacheWriter::~CacheWriter() {
  if (registered_.load(std::memory_order_relaxed)) unregister_writer(this);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  if (forked()) {
    // The thread exists in the parent only: this copy's handle names nothing to join.
    thread_.detach();
    return;
  }
  work_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void CacheWriter::post(std::function<void()> job, std::chrono::milliseconds delay) {
  // Before the thread exists, and outside mutex_ (the exit handler takes the registry's lock,
  // then each writer's), so that no exit finds a thread it does not wait for.
  if (!registered_.exchange(true, std::memory_order_relaxed)) register_writer(this);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (forked()) {
      lock.unlock();
      run_guarded(job);  // a forked child: its parent's thread does not run here
      return;
    }
    if (!thread_.joinable()) {
      try {
        const SignalsDeferred blocked;  // the thread inherits the mask
        thread_ = std::thread([this] { run(); });
        owner_ = ::getpid();
      } catch (const std::system_error&) {
        lock.unlock();
        run_guarded(job);  // no thread to be had: write here, as before
        return;
      }
    }
    jobs_.push_back({std::move(job), std::chrono::steady_clock::now() + delay});
  }
  work_.notify_one();
}

void CacheWriter::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (forked()) return;
  ++hurrying_;
  work_.notify_all();
  idle_.wait(lock, [this] { return jobs_.empty() && !running_job_; });
  --hurrying_;
}

void CacheWriter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping, and every write done
    // Until it is due, or asked for now. Only this thread pops: the front stays the front.
    work_.wait_until(lock, jobs_.front().not_before,
                     [this] { return stopping_ || hurrying_ > 0; });
    std::function<void()> job = std::move(jobs_.front().run);
    jobs_.pop_front();
    running_job_ = true;
    lock.unlock();
    run_guarded(job);
    job = nullptr;  // what the job held (a program, its SPIR-V) goes before the next waits
    lock.lock();
    running_job_ = false;
    if (jobs_.empty()) idle_.notify_all();
  }
}

}  // namespace spvjit::detail
