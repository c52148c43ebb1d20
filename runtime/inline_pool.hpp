// InlinePool: runs one large launch on PoCL's `basic` device from several threads at once.
//
// `basic` runs a kernel inside clEnqueueNDRangeKernel, on the calling thread. Two threads, each
// enqueueing half the work-groups (with a global offset) on its own basic queue, run the halves
// at the same time. Measured on the 2-core EPYC, saxpy over 2^20 floats as float16 work-items
// (OpenCL C): one thread 159-181 us, two threads 69-89 us, PoCL's pthread device 159-244 us
// (its wake-up and scheduling cost more than the work). So an adaptive Runtime sends large
// launches of kernels that are indifferent to the offset here instead of to `pthread`.
//
// The calling thread always works too: it claims parts of the launch like the workers, so a
// worker that is asleep when the launch starts (after `spin` without work it blocks) only
// joins late, and never makes the launch slower than the calling thread alone.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/cl_handle.hpp"
#include "runtime/kernel_runner.hpp"

namespace spvjit::detail {

/// Indices (work-items times the indices each does) from which a split launch through PoCL's
/// kernel runner is cut into 8 parts per thread.
inline constexpr std::size_t many_parts_indices = std::size_t{1} << 24;

/// How many parts a launch of `indices` over `groups` work-groups (along the split dimension)
/// is split into for `threads` threads. Through the kernel runner (`direct`), a part is a call,
/// so a launch of many_parts_indices or more is cut into 8 parts per thread, which the threads
/// claim as they finish: a thread that shares its core with another's (an OpenMP runtime's
/// idle workers spin for milliseconds after each parallel region) then takes fewer of them,
/// where one half each made the launch wait for it. Measured (issue #64, docs/performance.md):
/// a copy of 2^25 doubles right after an OpenMP loop 0.65-0.70x -> 0.80-0.87x the loop, and
/// alone the same as one part per thread at 2^24-2^25; 2 per thread did not help at 2^25, and 8
/// per thread made copies of 2^20-2^22 doubles 10-15 % slower (no part one long stream). Below
/// it, and for enqueued parts (each an enqueue), one part per thread.
unsigned split_parts(std::size_t indices, std::size_t groups, unsigned threads, bool direct);

class InlinePool {
 public:
  /// `threads` counts the calling thread: threads - 1 workers, each with its own queue on
  /// `device`. Workers wait for work spinning for `spin` (0: none), then blocked. `run_groups`:
  /// PoCL's kernel runner's run (runtime/kernel_runner.hpp), for run_direct; null without it.
  InlinePool(cl_context context, cl_device_id device, unsigned threads,
             std::chrono::microseconds spin, decltype(KernelRunnerApi::run) run_groups = nullptr);
  ~InlinePool();
  InlinePool(const InlinePool&) = delete;
  InlinePool& operator=(const InlinePool&) = delete;

  unsigned threads() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }

  /// Runs `kernel` over the global/local sizes given, split along dimension `dim` into
  /// `parts` runs of whole work-groups (each a launch with a global offset), on `own_queue`
  /// from the calling thread and on the workers' queues. Returns when every part has
  /// finished: CL_SUCCESS, or the first error an enqueue returned. `basic` runs a command
  /// inside its enqueue, so no part is followed by a clFinish (each cost the part ~0.1-0.3 us
  /// and a lock of PoCL's device shared with the other parts). One run at a
  /// time (the caller holds the runtime's dispatch lock); the kernel's arguments must not
  /// change until it returns (the caller holds the kernel's lock).
  cl_int run(cl_kernel kernel, cl_command_queue own_queue, cl_uint dims, const std::size_t* global,
             const std::size_t* local, unsigned dim, unsigned parts) noexcept;

  /// The same with PoCL's kernel runner (runtime/kernel_runner.hpp; the pool was made with its
  /// run): `groups` work-groups in each dimension, split along `dim` into `parts` boxes, each
  /// run by the runner on the thread that claims it, with no command. CL_INVALID_OPERATION from
  /// a part means it ran nothing (a buffer not on the device yet), and so did every other: the
  /// caller enqueues the launch instead.
  cl_int run_direct(PoclKernelRunner runner, cl_uint dims, const std::size_t* groups, unsigned dim,
                    unsigned parts) noexcept;

 private:
  // A job as the caller and each worker hold it.
  struct Job {
    std::uint32_t generation = 0;
    cl_kernel kernel = nullptr;
    PoclKernelRunner runner = nullptr;  ///< a direct job's (then `global` counts groups)
    cl_uint dims = 1;
    std::size_t global[3] = {1, 1, 1};
    std::size_t local[3] = {1, 1, 1};
    unsigned dim = 0;
    unsigned parts = 0;
  };
  // The published job: one cache line of atomics that a worker reads without a lock after it
  // saw the claims word change (a mutex added two transfers of cache lines between the cores to
  // every hand-off). A worker that reads fields of a newer job than the claims it saw cannot
  // run them: its claim names the older generation and fails. `shape` packs the dimensions
  // (bits 0-1), the split dimension (bits 2-3), whether `target` is a kernel runner (bit 4) and
  // the number of parts (bits 16-31).
  struct alignas(64) Published {
    std::atomic<void*> target{nullptr};  ///< the cl_kernel, or the runner of a direct job
    std::atomic<std::uint32_t> shape{0};
    std::atomic<std::size_t> global[3] = {1, 1, 1};
    std::atomic<std::size_t> local[3] = {1, 1, 1};
  };
  static_assert(sizeof(Published) == 64, "the published job fills one cache line");
  struct Worker {
    ClHandle<cl_command_queue> queue;
    std::thread thread;
  };

  void work(cl_command_queue queue);
  // The job published under `claims` (read after claims_ showed its generation).
  Job read_job(std::uint64_t claims) const noexcept;
  // Claims and runs parts of the job published as `claims_` says, until none is left.
  void run_parts(cl_command_queue queue, const Job& job) noexcept;
  bool claim(const Job& job, unsigned& part) noexcept;
  cl_int run_part(cl_command_queue queue, const Job& job, unsigned part) const noexcept;
  // Publishes `job`, runs parts on this thread, waits for the workers' (run and run_direct).
  cl_int run_job(const Job& job, cl_command_queue own_queue) noexcept;

  std::vector<Worker> workers_;
  std::chrono::microseconds spin_;
  decltype(KernelRunnerApi::run) run_groups_ = nullptr;
  Published job_;
  // generation << 32 | parts << 16 | next part: a worker claims a part by a compare-exchange
  // that fails once the caller has moved on to another job, so a late worker never runs a part
  // of a job it did not copy. Its own cache line: the workers spin reading it.
  alignas(64) std::atomic<std::uint64_t> claims_{0};
  alignas(64) std::atomic<unsigned> done_{0};
  std::atomic<cl_int> error_{0};
  std::atomic<bool> stop_{false};
  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  std::atomic<unsigned> sleepers_{0};
};

}  // namespace spvjit::detail
