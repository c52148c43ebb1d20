// A rate over wall-clock time, for cases whose work runs on other threads (PoCL's, OpenMP's,
// OpenBLAS's, Halide's): Google Benchmark's kIsRate counters divide by the main thread's CPU
// time, a fraction of the wall time there. Header-only and free of spvjit, so that the Halide
// baseline binary can use it too.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>

namespace spvjit::bench {

class WallRate {
 public:
  /// Sets `counter` to `per_iteration` units (flops, bytes) per wall-clock second since
  /// construction, and `wall_us` to the wall time per iteration.
  void report(benchmark::State& state, const char* counter, double per_iteration) const {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double iterations = static_cast<double>(state.iterations());
    if (seconds <= 0 || iterations <= 0) return;
    state.counters["wall_us"] = seconds / iterations * 1e6;
    state.counters[counter] =
        benchmark::Counter(per_iteration * iterations / seconds, benchmark::Counter::kDefaults,
                           benchmark::Counter::kIs1024);
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace spvjit::bench
