// What the compute cases' three ways share when measured (bench/bench_compute.cpp,
// bench/bench_docking.cpp): the way's name in messages and the measured loop of one launch.
#pragma once

#include <benchmark/benchmark.h>

#include "bench/suite.hpp"

namespace spvjit::bench::compute {

/// The three ways of a compute case: a builder kernel through spvjit, the OpenMP loop, the
/// same kernel as OpenCL C through raw OpenCL.
enum class Way { spvjit, openmp, opencl };

inline const char* to_string(Way way) {
  switch (way) {
    case Way::spvjit:
      return "spvjit";
    case Way::openmp:
      return "OpenMP";
    case Way::opencl:
      return "OpenCL";
  }
  return "";
}

/// One launch (or loop) untimed, then measure_steps with one per iteration; items_per_second
/// from its wall-clock us_per_step.
template <class Step, class Finish>
void measure(benchmark::State& state, double items, double bytes, Step step, Finish finish) {
  step();  // the first launch (or the thread pool's start), out of the measurement
  finish();
  measure_steps(state, 1, bytes, step, finish);
  const auto us = state.counters.find("us_per_step");
  if (us != state.counters.end() && us->second.value > 0) {
    state.counters["items_per_second"] =
        benchmark::Counter(items / (us->second.value * 1e-6), benchmark::Counter::kDefaults,
                           benchmark::Counter::kIs1000);
  }
}

}  // namespace spvjit::bench::compute
