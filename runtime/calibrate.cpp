// Where PoCL's pthread device, and the inline threads splitting a launch, overtake basic alone
// on this machine: a Float64 scale kernel (the launch benchmark's), timed each way at growing
// sizes, each the way its launches run (through PoCL's kernel runner where the runtime has it).
// It runs once, when an adaptive Runtime of the process starts without a threshold given. Measured
// on the 2-core EPYC under a load of 8: adaptive Runtime start ~40 ms with SPVJIT_INLINE_THRESHOLD
// set, 90-110 ms with calibration (basic kept winning up to 2^19-2^20 items there, so every size
// was timed).
#include <algorithm>
#include <chrono>
#include <mutex>
#include <vector>

#include "runtime/core.hpp"
#include "common/log.hpp"

namespace spvjit::detail {

namespace {

// OpenCL C, not spvjit's builder: the runtime layer knows no LLVM, and PoCL compiles C itself.
constexpr const char* kScaleSource =
    "__kernel void spvjit_calibrate(__global double* a, __global const double* b) {\n"
    "  size_t i = get_global_id(0);\n"
    "  a[i] = 2.0 * b[i];\n"
    "}\n";

using Clock = std::chrono::steady_clock;

constexpr double not_timed = 1e300;

// The fastest of `reps` runs of `run`, in microseconds: the minimum, not the median, since other
// processes on the machine only ever add time. `run` returns false for a run that must not count;
// not_timed when none counted.
template <class Run>
double fastest_of(int reps, Run run) {
  double best = not_timed;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    const bool counts = run();
    const auto t1 = Clock::now();
    if (counts) best = std::min(best, std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  return best;
}

// The fastest of `reps` launch + finish over `n` work-items enqueued on `q`.
double fastest_us(cl_command_queue q, cl_kernel k, std::size_t n, int reps) {
  const std::size_t local = std::min<std::size_t>(n, 256);
  return fastest_of(reps, [&] {
    check_cl(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, &local, 0, nullptr, nullptr),
             "clEnqueueNDRangeKernel", "inline threshold calibration");
    check_cl(clFinish(q), "clFinish", "inline threshold calibration");
    return true;
  });
}

// PoCL's kernel runner for `n` work-items in groups of up to 256 (runtime/kernel_runner.hpp),
// one per size, timed alone and split and released after: where the runtime has one, launches
// on basic and split parts run through it (runtime/launch.cpp), so the thresholds are measured
// that way too. Null where the runtime has none or PoCL refuses it.
class CalibrationRunner {
 public:
  CalibrationRunner(RuntimeCore& core, cl_kernel k, std::size_t n) : api_(core.kernel_runner) {
    if (!api_.create) return;
    const std::size_t local = std::min<std::size_t>(n, 256);
    cl_int err = CL_SUCCESS;
    runner_ = api_.create(core.inline_queue.get(), k, 1, &n, &local, &err);
    groups_ = n / local;
  }
  ~CalibrationRunner() {
    if (runner_) api_.release(runner_);
  }
  CalibrationRunner(const CalibrationRunner&) = delete;
  CalibrationRunner& operator=(const CalibrationRunner&) = delete;
  PoclKernelRunner get() const { return runner_; }
  std::size_t groups() const { return groups_; }

 private:
  const KernelRunnerApi& api_;
  PoclKernelRunner runner_ = nullptr;
  std::size_t groups_ = 0;
};

// A run through the kernel runner that ran no group (CL_INVALID_OPERATION: a command on the
// pthread device has taken a buffer since) does not count: an enqueue on basic places the
// buffers again, as launch.cpp's fallback does. Other errors throw.
bool ran_through_runner(RuntimeCore& core, cl_kernel k, std::size_t n, cl_int err) {
  if (err != CL_INVALID_OPERATION) {
    check_cl(err, "clRunKernelGroupsPOCL", "threshold calibration");
    return true;
  }
  fastest_us(core.inline_queue.get(), k, n, 1);
  return false;
}

// Basic alone: through the runner where there is one, else enqueued on the inline queue.
double fastest_inline_us(RuntimeCore& core, const CalibrationRunner& runner, cl_kernel k,
                         std::size_t n, int reps) {
  double best = not_timed;
  if (runner.get()) {
    const std::size_t begin[3] = {0, 0, 0}, end[3] = {runner.groups(), 1, 1};
    best = fastest_of(reps, [&] {
      return ran_through_runner(core, k, n, core.kernel_runner.run(runner.get(), begin, end));
    });
  }
  return best != not_timed ? best : fastest_us(core.inline_queue.get(), k, n, reps);
}

// Split over the inline threads: through the runner where there is one, else enqueued parts.
double fastest_split_us(RuntimeCore& core, const CalibrationRunner& runner, cl_kernel k,
                        std::size_t n, int reps) {
  const std::size_t global[3] = {n, 1, 1};
  const std::size_t local[3] = {std::min<std::size_t>(n, 256), 1, 1};
  const unsigned parts =
      static_cast<unsigned>(std::min<std::size_t>(n / local[0], core.inline_pool->threads()));
  double best = not_timed;
  if (runner.get()) {
    const std::size_t groups[3] = {runner.groups(), 1, 1};
    best = fastest_of(reps, [&] {
      return ran_through_runner(core, k, n,
                                core.inline_pool->run_direct(runner.get(), 1, groups, 0, parts));
    });
  }
  if (best == not_timed) {
    best = fastest_of(reps, [&] {
      check_cl(core.inline_pool->run(k, core.inline_queue.get(), 1, global, local, 0, parts),
               "clEnqueueNDRangeKernel", "split threshold calibration");
      return true;
    });
  }
  core.count_launch();  // the next synchronize finishes the inline queue, as after any launch
  return best;
}

Thresholds measure_now(RuntimeCore& core) {
  cl_int err = CL_SUCCESS;
  const char* source = kScaleSource;
  ClHandle<cl_program> program(
      clCreateProgramWithSource(core.context.get(), 1, &source, nullptr, &err));
  check_cl(err, "clCreateProgramWithSource", "inline threshold calibration");
  const auto devices = core.devices();
  check_cl(clBuildProgram(program.get(), static_cast<cl_uint>(devices.size()), devices.data(), "",
                          nullptr, nullptr),
           "clBuildProgram", "inline threshold calibration");
  ClHandle<cl_kernel> kernel(clCreateKernel(program.get(), "spvjit_calibrate", &err));
  check_cl(err, "clCreateKernel", "inline threshold calibration");

  constexpr std::size_t smallest = std::size_t{1} << 8, largest = std::size_t{1} << 20;
  const std::size_t bytes = largest * sizeof(double);
  ClHandle<cl_mem> a(clCreateBuffer(core.context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err));
  check_cl(err, "clCreateBuffer", "inline threshold calibration");
  ClHandle<cl_mem> b(clCreateBuffer(core.context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err));
  check_cl(err, "clCreateBuffer", "inline threshold calibration");
  const double zero = 0.0;
  check_cl(clEnqueueFillBuffer(core.queue.get(), b.get(), &zero, sizeof(zero), 0, bytes, 0, nullptr,
                               nullptr),
           "clEnqueueFillBuffer", "inline threshold calibration");
  check_cl(clFinish(core.queue.get()), "clFinish", "inline threshold calibration");
  cl_mem args[2] = {a.get(), b.get()};
  for (cl_uint i = 0; i < 2; ++i) {
    check_cl(clSetKernelArg(kernel.get(), i, sizeof(cl_mem), &args[i]), "clSetKernelArg",
             "inline threshold calibration");
  }
  // Warm both devices; the enqueue also places the buffers on basic, as the kernel runner needs.
  fastest_us(core.inline_queue.get(), kernel.get(), smallest, 2);
  fastest_us(core.queue.get(), kernel.get(), smallest, 2);

  // Basic's time grows with n from ~1 us; pthread's starts at its wake-up cost (~20-30 us) and
  // grows 1/cores as fast; the inline threads' split starts at a few microseconds of hand-off.
  // Each threshold is the largest size basic alone still wins.
  Thresholds t{0, core.inline_pool ? 0 : SIZE_MAX};
  bool pthread_won = false, split_won = !core.inline_pool;
  for (std::size_t n = smallest; n <= largest && !(pthread_won && split_won); n *= 2) {
    const int reps = n <= (std::size_t{1} << 14) ? 9 : n <= (std::size_t{1} << 17) ? 5 : 3;
    const CalibrationRunner runner(core, kernel.get(), n);
    const double inline_us = fastest_inline_us(core, runner, kernel.get(), n, reps);
    double pthread_us = 0, split_us = 0;
    // The split before pthread: PoCL's pthread workers keep a core busy for a while after
    // their launch, which a split timed right after them shares.
    if (!split_won) {
      // One group is no split at all (the caller runs it alone): compare from two on.
      if (n / std::min<std::size_t>(n, 256) >= 2) {
        split_us = fastest_split_us(core, runner, kernel.get(), n, reps);
        split_won = split_us < inline_us;
      }
      if (!split_won) t.split_items = n;
    }
    if (!pthread_won) {
      pthread_us = fastest_us(core.queue.get(), kernel.get(), n, reps);
      pthread_won = pthread_us < inline_us;
      if (!pthread_won) t.inline_items = n;
    }
    SPVJIT_LOG_DEBUG(
        "calibration: " + std::to_string(n) + " work-items: basic " + std::to_string(inline_us) +
        " us, pthread " + std::to_string(pthread_us) + " us, split " + std::to_string(split_us) +
        " us (0: not timed)" +
        (core.kernel_runner.create ? "; basic and split through PoCL's kernel runner" : ""));
  }
  return t;
}

}  // namespace

Thresholds measure_thresholds(RuntimeCore& core) {
  // Once per process: the machine does not change between runtimes. (The split threshold is
  // the first adaptive runtime's, with its number of inline threads.)
  static std::once_flag once;
  static Thresholds measured;
  std::call_once(once, [&] { measured = measure_now(core); });
  Thresholds t = measured;  // a copy: runtimes start in several threads at once
  if (!core.inline_pool) t.split_items = SIZE_MAX;
  return t;
}

}  // namespace spvjit::detail
