// Compiled with -Wall -Wextra -Werror by compile_checks.sh: every public options struct takes
// designated initializers naming any subset of its members, without a warning.
#include <spvjit/algorithms.hpp>
#include <spvjit/spvjit.hpp>

using namespace spvjit;

AlgorithmOptions no_host_route() { return {.host_threshold = 0}; }
AlgorithmOptions chunking() { return {.min_chunk = 1024, .max_chunks = 16}; }
Specialization workgroup_only() { return {.workgroup = WorkGroup{256}}; }
Specialization ndrange_only() { return {.ndrange = NDRange{1000}}; }
Specialization both() { return {.workgroup = WorkGroup{16, 16}, .ndrange = NDRange{64, 64}}; }
JitOptions no_disk() { return {.disk_cache = false}; }
JitOptions some_jit() { return {.cache_dir = "/tmp/x", .coarsen = false, .coarsen_width = 4}; }
JitOptions build() { return {.build_options = "-cl-fast-relaxed-math"}; }
RuntimeOptions adaptive() { return {.dispatch = Dispatch::Adaptive}; }
RuntimeOptions threshold() { return {.inline_threshold = 4096}; }
RuntimeOptions split() { return {.inline_threads = 2u, .split_threshold = 1u << 16}; }
RuntimeOptions device() { return {.device_name_contains = "cpu"}; }
WorkGroupLimits limits() { return {.max_items = 256}; }
LocalMemory local() { return {.bytes = 1024}; }

int main() {
  return workgroup_only().workgroup->total() + ndrange_only().ndrange->total() +
             both().ndrange->total() + no_disk().disk_cache + some_jit().coarsen +
             build().build_options.size() + adaptive().inline_threads.value_or(0) +
             threshold().split_threshold.value_or(0) + split().device_name_contains.size() +
             device().inline_threshold.value_or(0) + limits().preferred_multiple + local().bytes +
             no_host_route().min_chunk + chunking().host_threshold >
         0;
}
