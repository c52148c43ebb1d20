// partition/<case>: the cost of turning (ndrange 1024, workgroup 16) into a launch geometry with
// spvjit::partition, KA's three cases. partition() runs the launch geometry's rules
// (common/geometry.hpp), the code every launch runs when its sizes differ from the previous
// launch's; a launch that repeats them, or has a static ndrange, reuses the geometry it
// remembered instead. Sizes that are dynamic in a case go through DoNotOptimize every iteration
// so the compiler cannot fold what a real launch could not. Unlike Julia, where an all-static
// partition folds at compile time (KA: ~1.5 ns), partition() checks the sizes against the
// static ones on every call, so the static case costs a call.
#include "bench/suite.hpp"
#include "spvjit/partition.hpp"

namespace spvjit::bench {

namespace {

// PoCL 6.0's CPU device here: 4096 work-items per group in any dimension.
constexpr WorkGroupLimits pocl_limits{4096, {4096, 4096, 4096}, 1};

void run(benchmark::State& state, Specialization statics, bool pass_workgroup) {
  NDRange ndrange{1024};
  WorkGroup workgroup{16};
  AllocMeter meter;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ndrange);
    benchmark::DoNotOptimize(workgroup);
    Partition p = partition(statics, &ndrange, pass_workgroup ? &workgroup : nullptr, pocl_limits);
    benchmark::DoNotOptimize(p);
  }
  meter.report(state);
}

void dynamic_dynamic(benchmark::State& state) { run(state, {}, true); }

void static_dynamic(benchmark::State& state) {
  run(state, {.workgroup = WorkGroup{16}, .ndrange = std::nullopt}, false);
}

void static_static(benchmark::State& state) {
  run(state, {.workgroup = WorkGroup{16}, .ndrange = NDRange{1024}}, false);
}

}  // namespace

void register_partition() {
  add_case("partition/dynamic workgroup, dynamic ndrange", dynamic_dynamic);
  add_case("partition/static workgroup, dynamic ndrange", static_dynamic);
  add_case("partition/static workgroup, static ndrange", static_static);
}

}  // namespace spvjit::bench
