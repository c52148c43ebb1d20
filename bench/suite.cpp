#include "bench/suite.hpp"

#include <cstdlib>

#include <map>
#include <memory>
#include <string>

#include "spvjit/examples.hpp"

namespace spvjit::bench {

RuntimeOptions suite_runtime_options() {
  RuntimeOptions options;
  const char* dispatch = std::getenv("SPVJIT_BENCH_DISPATCH");
  if (dispatch && std::string(dispatch) == "single") return options;
  options.dispatch = Dispatch::Adaptive;
  // A fixed default rather than the start-up measurement: on 2 busy cores the measurement
  // drifts between 2^8 and 2^20 work-items from run to run, which would move whole saxpy
  // sizes between devices. 4096: KA's launch cases (16, 64 items) and small saxpy run inline,
  // coarsened saxpy from 2^17 elements on the threads.
  if (!std::getenv("SPVJIT_INLINE_THRESHOLD")) options.inline_threshold = 4096;
  return options;
}

Context& shared_context() {
  // Created on first use, not at start-up: `--benchmark_list_tests` must work without a device.
  // A failed start is not retried: every case reports the same reason.
  static std::string failure;
  static std::unique_ptr<Context> shared = [] {
    try {
      return std::make_unique<Context>();
    } catch (const std::exception& e) {
      failure = std::string("no device: ") + e.what();
      return std::unique_ptr<Context>();
    }
  }();
  if (!shared) throw Error(failure);
  return *shared;
}

Context* context(benchmark::State& state) {
  try {
    return &shared_context();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return nullptr;
  }
}

const KernelDef& scale_kernel(unsigned dims) {
  static const KernelDef one = examples::scale(Scalar::F64, 1);
  static const KernelDef three = examples::scale(Scalar::F64, 3);
  return dims == 3 ? three : one;
}

const KernelDef& saxpy_kernel(Scalar element) {
  static std::map<Scalar, KernelDef> built;
  auto it = built.find(element);
  if (it == built.end()) it = built.emplace(element, examples::saxpy(element)).first;
  return it->second;
}

double AllocMeter::report(benchmark::State& state) const {
  const auto now = support::alloc_counts();
  const double allocs =
      static_cast<double>(now.allocations - start_.allocations - excluded_.allocations);
  report_allocs(state, allocs, static_cast<double>(now.bytes - start_.bytes - excluded_.bytes));
  return state.iterations() ? allocs / static_cast<double>(state.iterations()) : 0.0;
}

void WallClock::report_bytes_per_second(benchmark::State& state, double bytes_per_iteration) const {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (seconds <= 0) return;
  state.counters["bytes_per_second"] =
      benchmark::Counter(bytes_per_iteration * static_cast<double>(state.iterations()) / seconds,
                         benchmark::Counter::kDefaults, benchmark::Counter::kIs1024);
}

void WallClock::report_us_per_step(benchmark::State& state, double steps_per_iteration) const {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double steps = steps_per_iteration * static_cast<double>(state.iterations());
  if (seconds <= 0 || steps <= 0) return;
  state.counters["us_per_step"] = seconds / steps * 1e6;
}

void report_allocs(benchmark::State& state, double allocs, double bytes) {
  state.counters["allocs"] = benchmark::Counter(allocs, benchmark::Counter::kAvgIterations);
  state.counters["bytes"] = benchmark::Counter(bytes, benchmark::Counter::kAvgIterations);
}

}  // namespace spvjit::bench
