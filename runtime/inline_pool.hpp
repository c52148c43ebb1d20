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

namespace spvjit::detail {

class InlinePool {
 public:
  /// `threads` counts the calling thread: threads - 1 workers, each with its own queue on
  /// `device`. Workers wait for work spinning for `spin`, then blocked.
  InlinePool(cl_context context, cl_device_id device, unsigned threads,
             std::chrono::microseconds spin);
  ~InlinePool();
  InlinePool(const InlinePool&) = delete;
  InlinePool& operator=(const InlinePool&) = delete;

  unsigned threads() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }

  /// Runs `kernel` over the global/local sizes given, split along dimension `dim` into
  /// `parts` runs of whole work-groups (each a launch with a global offset), on `own_queue`
  /// from the calling thread and on the workers' queues. Returns when every part has
  /// finished: CL_SUCCESS, or the first error an enqueue or finish returned. One run at a
  /// time (the caller holds the runtime's dispatch lock); the kernel's arguments must not
  /// change until it returns (the caller holds the kernel's lock).
  cl_int run(cl_kernel kernel, cl_command_queue own_queue, cl_uint dims, const std::size_t* global,
             const std::size_t* local, unsigned dim, unsigned parts) noexcept;

 private:
  struct Job {
    std::uint32_t generation = 0;
    cl_kernel kernel = nullptr;
    cl_uint dims = 1;
    std::size_t global[3] = {1, 1, 1};
    std::size_t local[3] = {1, 1, 1};
    unsigned dim = 0;
    unsigned parts = 0;
  };
  struct Worker {
    ClHandle<cl_command_queue> queue;
    std::thread thread;
  };

  void work(cl_command_queue queue);
  // Claims and runs parts of the job published as `claims_` says, until none is left.
  void run_parts(cl_command_queue queue, const Job& job) noexcept;
  bool claim(const Job& job, unsigned& part) noexcept;
  static cl_int run_part(cl_command_queue queue, const Job& job, unsigned part) noexcept;

  std::vector<Worker> workers_;
  std::chrono::microseconds spin_;
  // The job, written by the caller under job_mutex_ and copied by workers under it.
  std::mutex job_mutex_;
  Job job_;
  // generation << 32 | parts << 16 | next part: a worker claims a part by a compare-exchange
  // that fails once the caller has moved on to another job, so a late worker never runs a part
  // of a job it did not copy.
  std::atomic<std::uint64_t> claims_{0};
  std::atomic<unsigned> done_{0};
  std::atomic<cl_int> error_{0};
  std::atomic<bool> stop_{false};
  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  std::atomic<unsigned> sleepers_{0};
};

}  // namespace spvjit::detail
