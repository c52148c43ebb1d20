// What every benchmark of the suite shares: one Runtime and Jit for the process, the kernels
// (built once), and the per-iteration allocation counters every case reports.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <exception>
#include <string>

#include "spvjit/spvjit.hpp"
#include "test/alloc_counter.hpp"

namespace spvjit::bench {

/// How the suite's Runtime dispatches: Dispatch::Adaptive (PoCL's inline `basic` device for
/// launches of at most SPVJIT_INLINE_THRESHOLD work-items, default 4096, else `pthread`), or
/// Dispatch::Single on `pthread` alone with SPVJIT_BENCH_DISPATCH=single (KA's setting).
RuntimeOptions suite_runtime_options();

/// The device and JIT all in-process cases use. Device start-up costs ~85 ms, so once.
struct Context {
  Runtime runtime{suite_runtime_options()};
  Jit jit{runtime};
};

/// The shared context; throws when there is no device.
Context& shared_context();
/// The shared context, or nullptr after marking `state` skipped with the reason (no device).
Context* context(benchmark::State& state);

/// KA's launch-benchmark kernel, A[i] = 2*B[i] over Float64, 1D or 3D; built once per process.
const KernelDef& scale_kernel(unsigned dims);
/// saxpy for Float16/Float32/Float64; built once per process.
const KernelDef& saxpy_kernel(Scalar element);

/// Counts whole-process heap allocations from construction to `report`, which publishes them
/// per iteration as the `allocs` and `bytes` counters (all threads: PoCL's workers included).
class AllocMeter {
 public:
  AllocMeter() : start_(support::alloc_counts()) {}
  /// Leaves out allocations made by untimed work inside the measured loop.
  void exclude(const support::AllocCounts& c) {
    excluded_.allocations += c.allocations;
    excluded_.bytes += c.bytes;
  }
  /// Sets `allocs` and `bytes`; returns allocations per iteration.
  double report(benchmark::State& state) const;

 private:
  support::AllocCounts start_;
  support::AllocCounts excluded_;
};

/// Wall-clock time of a measured loop, for throughput. Google Benchmark's kIsRate counters
/// divide by the main thread's CPU time, which for a launch that waits on PoCL's workers (or an
/// OpenMP loop) is a fraction of the wall time; UseRealTime() would fix that but appends
/// "/real_time" to the case's name, which must stay KA's.
class WallClock {
 public:
  WallClock() : start_(std::chrono::steady_clock::now()) {}
  /// Sets `bytes_per_second`: bytes moved per iteration over wall-clock seconds per iteration.
  void report_bytes_per_second(benchmark::State& state, double bytes_per_iteration) const;
  /// Sets `us_per_step`: wall-clock microseconds per step, for iterations of
  /// `steps_per_iteration` steps (the apps/* cases).
  void report_us_per_step(benchmark::State& state, double steps_per_iteration) const;

 private:
  std::chrono::steady_clock::time_point start_;
};

/// The measured loop of an apps/* case: `steps` calls of `step` per iteration, then `finish`
/// (a synchronize, or ClobberMemory for a host loop). Sets `allocs` and `bytes`, `steps`,
/// `bytes_per_second` (`bytes_per_step` moved per step) and `us_per_step`.
template <class Step, class Finish>
void measure_steps(benchmark::State& state, std::size_t steps, double bytes_per_step, Step step,
                   Finish finish) {
  AllocMeter meter;
  WallClock clock;
  for (auto _ : state) {
    for (std::size_t s = 0; s < steps; ++s) step();
    finish();
  }
  meter.report(state);  // first: setting a counter allocates
  state.counters["steps"] = static_cast<double>(steps);
  clock.report_bytes_per_second(state, bytes_per_step * static_cast<double>(steps));
  clock.report_us_per_step(state, static_cast<double>(steps));
}

/// Sets the per-iteration counters from totals measured elsewhere (a child process).
void report_allocs(benchmark::State& state, double allocs, double bytes);

/// Registers `body` (called as body(state)) as the case `name`, turning any exception into
/// SkipWithError: a case that cannot run says why in the table instead of ending the suite.
template <class F>
benchmark::internal::Benchmark* add_case(const std::string& name, F body) {
  return benchmark::RegisterBenchmark(name.c_str(), [body](benchmark::State& state) {
    try {
      body(state);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
    }
  });
}

/// The registration functions of each file, called by main in the order the table shows.
void register_launch();
void register_raw_opencl();
void register_algorithms_reduce();
void register_algorithms_compact();
void register_algorithms_sort();
void register_partition();
void register_saxpy();
void register_openmp();
void register_compile_hit();
/// throughput/*: scalar vs coarsened kernels against C++ baselines (bench_throughput.cpp).
void register_throughput();
/// apps/heat2d and apps/heat3d: a heat-diffusion step per launch against OpenMP (bench_heat.cpp).
void register_heat();
/// apps/stencil9, apps/stencil27, apps/upwind1d, apps/heat2d_rows and apps/rows_damping: more
/// stencil shapes per launch against OpenMP (bench_stencils.cpp).
void register_stencils();
/// apps/waterlily_mult: WaterLily.jl's Poisson product per launch against OpenMP
/// (bench_waterlily.cpp).
void register_waterlily();
/// apps/stream: the STREAM kernels written the KA way against OpenMP (bench_stream.cpp).
void register_stream();
/// apps/black_scholes, apps/nbody and apps/mandelbrot: compute-heavy kernels through spvjit,
/// OpenMP and raw OpenCL C, exact and with fast math (bench_compute.cpp).
void register_compute();
/// apps/docking: a molecular-docking energy kernel (private arrays, selects) through spvjit,
/// OpenMP and raw OpenCL C, exact and with fast math (bench_docking.cpp).
void register_docking();
/// baseline/openblas/*: OpenBLAS's sgemm on the matmul cases' inputs (bench_blas.cpp).
void register_blas();
/// The cases that start a child process per iteration (time_to_load, compile/cold and
/// compile/warm_process): run with a tiny --benchmark_min_time, each repetition is one process.
void register_process();

}  // namespace spvjit::bench
