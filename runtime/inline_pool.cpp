#include "runtime/inline_pool.hpp"

#include <algorithm>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SPVJIT_PAUSE() _mm_pause()
#else
#define SPVJIT_PAUSE() std::this_thread::yield()
#endif

namespace spvjit::detail {

namespace {

constexpr std::uint64_t pack(std::uint32_t generation, unsigned parts, unsigned next) {
  return std::uint64_t{generation} << 32 | std::uint64_t{parts & 0xffff} << 16 | (next & 0xffff);
}
constexpr std::uint32_t generation_of(std::uint64_t claims) {
  return static_cast<std::uint32_t>(claims >> 32);
}

}  // namespace

unsigned split_parts(std::size_t indices, std::size_t groups, unsigned threads, bool direct) {
  std::size_t parts = threads;
  if (direct && indices >= many_parts_indices) parts = std::size_t{8} * threads;
  // At most the groups there are, and what the claims word counts.
  return static_cast<unsigned>(
      std::max<std::size_t>(1, std::min({parts, groups, std::size_t{0xffff}})));
}

InlinePool::InlinePool(cl_context context, cl_device_id device, unsigned threads,
                       std::chrono::microseconds spin, decltype(KernelRunnerApi::run) run_groups)
    : spin_(spin), run_groups_(run_groups) {
  const unsigned count = threads > 1 ? threads - 1 : 0;
  workers_.resize(count);
  for (auto& w : workers_) {
    cl_int err = CL_SUCCESS;
    w.queue = ClHandle<cl_command_queue>(
        clCreateCommandQueueWithProperties(context, device, nullptr, &err));
    check_cl(err, "clCreateCommandQueueWithProperties", "inline pool");
  }
  for (auto& w : workers_) {
    cl_command_queue q = w.queue.get();
    w.thread = std::thread([this, q] { work(q); });
  }
}

InlinePool::~InlinePool() {
  stop_.store(true);
  {
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    wake_.notify_all();
  }
  for (auto& w : workers_) {
    if (w.thread.joinable()) w.thread.join();
  }
}

cl_int InlinePool::run(cl_kernel kernel, cl_command_queue own_queue, cl_uint dims,
                       const std::size_t* global, const std::size_t* local, unsigned dim,
                       unsigned parts) noexcept {
  Job job;
  job.kernel = kernel;
  job.dims = dims;
  std::copy(global, global + 3, job.global);
  std::copy(local, local + 3, job.local);
  job.dim = dim;
  job.parts = std::clamp(parts, 1u, 0xffffu);
  return run_job(job, own_queue);
}

cl_int InlinePool::run_direct(PoclKernelRunner runner, cl_uint dims, const std::size_t* groups,
                              unsigned dim, unsigned parts) noexcept {
  if (!run_groups_) return CL_INVALID_OPERATION;
  Job job;
  job.runner = runner;
  job.dims = dims;
  std::copy(groups, groups + 3, job.global);
  job.dim = dim;
  job.parts = std::clamp(parts, 1u, 0xffffu);
  return run_job(job, nullptr);
}

cl_int InlinePool::run_job(const Job& job_in, cl_command_queue own_queue) noexcept {
  Job job = job_in;
  job.generation = generation_of(claims_.load(std::memory_order_relaxed)) + 1;
  const bool direct = job.runner != nullptr;
  // Relaxed: the claims word's store below publishes them.
  job_.target.store(direct ? static_cast<void*>(job.runner) : static_cast<void*>(job.kernel),
                    std::memory_order_relaxed);
  job_.shape.store((job.dims & 3) | (job.dim & 3) << 2 | (direct ? 1u << 4 : 0u) | job.parts << 16,
                   std::memory_order_relaxed);
  for (unsigned d = 0; d < 3; ++d) {
    job_.global[d].store(job.global[d], std::memory_order_relaxed);
    job_.local[d].store(job.local[d], std::memory_order_relaxed);
  }
  done_.store(0, std::memory_order_relaxed);
  error_.store(CL_SUCCESS, std::memory_order_relaxed);
  // Publishing the claims word is what starts the workers (seq_cst: see work()).
  claims_.store(pack(job.generation, job.parts, 0));
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    wake_.notify_all();
  }
  run_parts(own_queue, job);
  // Parts a worker claimed may still be running.
  for (unsigned spins = 0; done_.load(std::memory_order_acquire) != job.parts; ++spins) {
    if (spins < 4096) {
      SPVJIT_PAUSE();
    } else {
      std::this_thread::yield();
    }
  }
  return error_.load(std::memory_order_relaxed);
}

InlinePool::Job InlinePool::read_job(std::uint64_t claims) const noexcept {
  Job job;
  job.generation = generation_of(claims);
  void* target = job_.target.load(std::memory_order_relaxed);
  const std::uint32_t shape = job_.shape.load(std::memory_order_relaxed);
  if (shape >> 4 & 1) {
    job.runner = static_cast<PoclKernelRunner>(target);
  } else {
    job.kernel = static_cast<cl_kernel>(target);
  }
  job.dims = shape & 3;
  job.dim = shape >> 2 & 3;
  job.parts = shape >> 16;
  for (unsigned d = 0; d < 3; ++d) {
    job.global[d] = job_.global[d].load(std::memory_order_relaxed);
    job.local[d] = job_.local[d].load(std::memory_order_relaxed);
  }
  return job;
}

bool InlinePool::claim(const Job& job, unsigned& part) noexcept {
  std::uint64_t claims = claims_.load(std::memory_order_acquire);
  for (;;) {
    const unsigned next = static_cast<unsigned>(claims & 0xffff);
    if (generation_of(claims) != job.generation || next >= job.parts) return false;
    if (claims_.compare_exchange_weak(claims, claims + 1, std::memory_order_acq_rel)) {
      part = next;
      return true;
    }
  }
}

void InlinePool::run_parts(cl_command_queue queue, const Job& job) noexcept {
  unsigned part = 0;
  while (claim(job, part)) {
    const cl_int err = run_part(queue, job, part);
    if (err != CL_SUCCESS) {
      cl_int expected = CL_SUCCESS;
      error_.compare_exchange_strong(expected, err);
    }
    done_.fetch_add(1, std::memory_order_release);
  }
}

cl_int InlinePool::run_part(cl_command_queue queue, const Job& job, unsigned part) const noexcept {
  const unsigned d = job.dim;
  const std::size_t groups = job.runner ? job.global[d] : job.global[d] / job.local[d];
  const std::size_t first = groups * part / job.parts;
  const std::size_t last = groups * (part + 1) / job.parts;
  if (first == last) return CL_SUCCESS;
  if (job.runner) {
    // The runner runs the box on this thread, no command: absolute group ids of the whole
    // launch, all groups of the other dimensions.
    std::size_t begin[3] = {0, 0, 0};
    std::size_t end[3] = {job.global[0], job.global[1], job.global[2]};
    begin[d] = first;
    end[d] = last;
    return run_groups_(job.runner, begin, end);
  }
  std::size_t offset[3] = {0, 0, 0};
  std::size_t global[3] = {job.global[0], job.global[1], job.global[2]};
  offset[d] = first * job.local[d];
  global[d] = (last - first) * job.local[d];
  // basic runs the command inside the enqueue (in order, after the queue's previous command,
  // which ran the same way): when it returns, the part is done.
  return clEnqueueNDRangeKernel(queue, job.kernel, job.dims, offset, global, job.local, 0, nullptr,
                                nullptr);
}

void InlinePool::work(cl_command_queue queue) {
  std::uint32_t seen = 0;
  for (;;) {
    // Spin for a while after each job (bounded: `spin_`, SPVJIT_INLINE_SPIN_US), so launches in
    // a loop find the worker awake; then block, so an idle program spends no core.
    const auto until = std::chrono::steady_clock::now() + spin_;
    std::uint64_t claims = claims_.load();
    unsigned spins = 0;
    while (generation_of(claims) == seen && !stop_.load(std::memory_order_relaxed)) {
      if ((++spins & 63) == 0 && std::chrono::steady_clock::now() >= until) break;
      SPVJIT_PAUSE();
      claims = claims_.load();
    }
    if (generation_of(claims) == seen && !stop_.load()) {
      std::unique_lock<std::mutex> lock(sleep_mutex_);
      sleepers_.fetch_add(1);  // seq_cst with run()'s store of claims_: no wake-up is lost
      wake_.wait(lock, [&] { return stop_.load() || generation_of(claims_.load()) != seen; });
      sleepers_.fetch_sub(1);
    }
    if (stop_.load()) return;
    // The job published with the claims read here (acquire): if the caller has moved on to a
    // newer one meanwhile, the fields may be newer than the claims, and the claims fail.
    claims = claims_.load();
    seen = generation_of(claims);
    const Job job = read_job(claims);
    run_parts(queue, job);
  }
}

}  // namespace spvjit::detail
