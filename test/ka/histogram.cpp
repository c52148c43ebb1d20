// KernelAbstractions' examples/histogram.jl ported line for line, with KA's own three test
// inputs (one with a group size of 6) and a larger one, against the C++ reference.
//
// The KA kernel, quoted from JuliaGPU/KernelAbstractions.jl, examples/histogram.jl at commit
// 9bf8fd59 (MIT license, Copyright (c) 2018-2021: Valentin Churavy, and other contributors);
// the long comment on shared-memory blocks is left out:
/*
function histogram_kernel!(histogram_output, input, ::Val{gs}) where {gs}
    gid = KI.get_group_id().x
    lid = KI.get_local_id().x

    tid = (gid - 1) * gs + lid
    N = length(histogram_output)

    shared_histogram = KI.localmemory(eltype(input), gs)

    for min_element in 1:gs:N

        # Setting shared_histogram to 0
        @inbounds shared_histogram[lid] = 0
        KI.barrier()

        max_element = min_element + gs
        if max_element > N
            max_element = N + 1
        end

        # Defining bin on shared memory and writing to it if possible
        bin = tid <= length(input) ? input[tid] : 0
        if bin >= min_element && bin < max_element
            bin -= min_element - 1
            @atomic shared_histogram[bin] += 1
        end

        KI.barrier()

        if ((lid + min_element - 1) <= N)
            @atomic histogram_output[lid + min_element - 1] += shared_histogram[lid]
        end

    end
    return
end

function histogram!(histogram_output, input, groupsize = 256)
    backend = get_backend(histogram_output)
    # Need static block size
    KI.@kernel backend workgroupsize = groupsize numworkgroups = cld(length(input), groupsize)
histogram_kernel!(histogram_output, input, Val(groupsize)) return end
*/
// Indices are 0-based here: gid, lid, tid and every array index are one less than KA's. The
// input's values stay KA's bin numbers 1..N (data, not indices), so min_element runs over
// 1:gs:N as in KA.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

using i32 = std::int32_t;
using i64 = std::int64_t;

// ::Val{gs} is static in KA: here a C++ number, and the Specialization's workgroup.
KernelDef histogram_kernel(i64 gs) {
  KernelBuilder kb("histogram_kernel");
  auto histogram_output = kb.param<Global<i32>>("histogram_output");
  auto input = kb.param<Global<i32>>("input");
  auto gid = kb.group_index(0);  // KI.get_group_id().x
  auto lid = kb.local_index(0);  // KI.get_local_id().x

  auto tid = gid * gs + lid;  // (gid - 1) * gs + lid
  auto N = length(histogram_output);

  auto shared_histogram = local_array<i32>(kb, {gs}, "shared_histogram");

  kb.for_(range(1, gs, N), [&](Val<i64> min_element) {
    // Setting shared_histogram to 0
    inbounds(shared_histogram)(lid) = 0;
    barrier(kb, Fence::Local);

    auto max_element = kb.var(min_element + gs);
    kb.if_(max_element > N, [&] { max_element = N + 1; });

    // Defining bin on shared memory and writing to it if possible. Julia promotes the Int32
    // element to the Int64 bounds it is compared with; C++ casts.
    auto bin = kb.var(kb.ternary(
        tid < length(input), [&] { return cast<i64>(input[tid]); }, [] { return 0; }));
    kb.if_(bin >= min_element && bin < max_element, [&] {
      bin -= min_element;  // bin -= min_element - 1: bin becomes a 0-based index
      atomic_add(shared_histogram(bin), 1);
    });

    barrier(kb, Fence::Local);

    kb.if_(lid + min_element - 1 < N, [&] {  // (lid + min_element - 1) <= N
      atomic_add(histogram_output[lid + min_element - 1], shared_histogram(lid));
    });
  });
  return kb.finish();
}

// KA's create_histogram: bins 1..maximum(input).
std::vector<i32> create_histogram(const std::vector<i32>& input) {
  std::vector<i32> histogram_output(
      static_cast<std::size_t>(*std::max_element(input.begin(), input.end())), 0);
  for (i32 i : input) histogram_output[static_cast<std::size_t>(i - 1)] += 1;
  return histogram_output;
}

// KA's histogram!: one kernel per static group size, launched by number of groups.
std::vector<i32> histogram(const std::vector<i32>& input, i64 groupsize = 256) {
  auto& rt = test::runtime();
  Kernel k =
      test::compile_checked(histogram_kernel(groupsize),
                            test::static_workgroup(WorkGroup{static_cast<std::size_t>(groupsize)}));
  auto in = rt.upload(input);
  auto out = rt.zeros<i32>(static_cast<std::size_t>(*std::max_element(input.begin(), input.end())));
  const auto groups = (input.size() + static_cast<std::size_t>(groupsize) - 1) /
                      static_cast<std::size_t>(groupsize);
  k.launch(Groups{groups}, out, in);  // numworkgroups = cld(length(input), groupsize)
  rt.synchronize();
  return out.to_vector();
}

std::vector<i32> random_ints(std::size_t n, i32 max, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<i32> dist(1, max);
  std::vector<i32> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

}  // namespace

TEST_CASE("KA port histogram.jl: KA's three inputs, group sizes 6 and 256") {
  const auto rand_input = random_ints(1000, 128, 1);  // Int32.(rand(1:128, 1000))
  std::vector<i32> linear_input(1024);                // Int32.(1:1024)
  for (std::size_t k = 0; k < linear_input.size(); ++k) linear_input[k] = static_cast<i32>(k + 1);
  const std::vector<i32> all_two(512, 2);  // fill(Int32(2), 512)

  CHECK(histogram(rand_input, 6) == create_histogram(rand_input));
  CHECK(histogram(linear_input) == create_histogram(linear_input));
  CHECK(histogram(all_two) == create_histogram(all_two));
}

TEST_CASE("KA port histogram.jl: 100003 values in 300 bins, several shared blocks per group") {
  // N = 300 bins need two 256-bin shared blocks; 100003 inputs leave the last group partial.
  const auto input = random_ints(100003, 300, 2);
  CHECK(histogram(input) == create_histogram(input));
}
