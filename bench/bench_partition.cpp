// partition/<case>: the cost of turning (ndrange 1024, workgroup 16) into a launch geometry,
// KA's three cases. Sizes that are dynamic in a case go through DoNotOptimize every iteration so
// the compiler cannot fold what a real launch could not.
#include "bench/ka_partition.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

constexpr ka::Extent ndrange_1024{1024, 1, 1};
constexpr ka::Extent workgroup_16{16, 1, 1};

void static_static(benchmark::State& state) {
  constexpr ka::StaticSizes kernel{workgroup_16, ndrange_1024};
  AllocMeter meter;
  for (auto _ : state) {
    // All sizes static: the partition is a compile-time constant, as in Julia.
    constexpr ka::Partition p = ka::partition(kernel, std::nullopt, std::nullopt);
    benchmark::DoNotOptimize(p);
  }
  meter.report(state);
}

void static_dynamic(benchmark::State& state) {
  constexpr ka::StaticSizes kernel{workgroup_16, std::nullopt};
  ka::Extent ndrange = ndrange_1024;
  AllocMeter meter;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ndrange);
    ka::Partition p = ka::partition(kernel, ndrange, std::nullopt);
    benchmark::DoNotOptimize(p);
  }
  meter.report(state);
}

void dynamic_dynamic(benchmark::State& state) {
  ka::StaticSizes kernel{};
  ka::Extent ndrange = ndrange_1024;
  ka::Extent workgroup = workgroup_16;
  AllocMeter meter;
  for (auto _ : state) {
    benchmark::DoNotOptimize(kernel);
    benchmark::DoNotOptimize(ndrange);
    benchmark::DoNotOptimize(workgroup);
    ka::Partition p = ka::partition(kernel, ndrange, workgroup);
    benchmark::DoNotOptimize(p);
  }
  meter.report(state);
}

}  // namespace

void register_partition() {
  add_case("partition/dynamic workgroup, dynamic ndrange", dynamic_dynamic);
  add_case("partition/static workgroup, dynamic ndrange", static_dynamic);
  add_case("partition/static workgroup, static ndrange", static_static);
}

}  // namespace spvjit::bench
