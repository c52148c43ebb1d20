// partition(): KernelAbstractions' rules (ceil-divided blocks, padding with 1, bounds check when
// a dimension does not divide) and its errors, which show the static and launch values.
#include <doctest/doctest.h>

#include "common/geometry.hpp"
#include "runtime/launch_state.hpp"
#include "spvjit/examples.hpp"
#include "spvjit/partition.hpp"
#include "test/shared_runtime.hpp"
#if SPVJIT_HAVE_ALLOC_COUNTER
#include "test/alloc_counter.hpp"
#endif

using namespace spvjit;

namespace {

const WorkGroupLimits cpu{4096, {4096, 4096, 4096}, 8};
const WorkGroupLimits none{};

Specialization statics(std::optional<NDRange> nd, std::optional<WorkGroup> wg) {
  Specialization s;
  s.ndrange = nd;
  s.workgroup = wg;
  return s;
}

}  // namespace

TEST_CASE("partition ceil-divides per dimension and pads missing dimensions with 1") {
  const NDRange nd{1000, 30};
  const WorkGroup wg{64};
  const Partition p = partition({}, &nd, &wg, cpu, "k");
  CHECK(p.dims == 2);
  CHECK(p.workgroup.size == std::array<std::size_t, 3>{64, 1, 1});
  CHECK(p.blocks == std::array<std::size_t, 3>{16, 30, 1});
  CHECK(p.global == std::array<std::size_t, 3>{1024, 30, 1});
  CHECK(p.bounds_check);
  CHECK_FALSE(p.empty());
}

TEST_CASE("partition needs the bounds check exactly when some dimension does not divide") {
  struct Case {
    NDRange nd;
    WorkGroup wg;
    bool check;
  };
  const Case cases[] = {
      {NDRange{1024}, WorkGroup{64}, false},
      {NDRange{1000}, WorkGroup{64}, true},
      {NDRange{64, 64}, WorkGroup{8, 8}, false},
      {NDRange{64, 63}, WorkGroup{8, 8}, true},
      {NDRange{8, 8, 9}, WorkGroup{8, 8, 3}, false},
      {NDRange{8, 8, 9}, WorkGroup{8, 8, 2}, true},
      {NDRange{7}, WorkGroup{7}, false},
      {NDRange{1}, WorkGroup{1}, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.nd.to_string());
    CAPTURE(c.wg.to_string());
    const Partition p = partition({}, &c.nd, &c.wg, cpu);
    CHECK(p.bounds_check == c.check);
    for (unsigned d = 0; d < 3; ++d) {
      CHECK(p.blocks[d] == (c.nd.size[d] + p.workgroup.size[d] - 1) / p.workgroup.size[d]);
      CHECK(p.global[d] >= c.nd.size[d]);
      CHECK(p.global[d] % p.workgroup.size[d] == 0);
    }
  }
}

TEST_CASE("partition takes static sizes when none are given at launch") {
  const Partition p = partition(statics(NDRange{256, 4}, WorkGroup{64, 2}), nullptr, nullptr, none);
  CHECK(p.ndrange == NDRange{256, 4});
  CHECK(p.blocks == std::array<std::size_t, 3>{4, 2, 1});
  CHECK_FALSE(p.bounds_check);
  // Equal launch sizes are fine too.
  const NDRange nd{256, 4};
  const WorkGroup wg{64, 2};
  CHECK(partition(statics(nd, wg), &nd, &wg, none).global == p.global);
}

TEST_CASE("partition chooses a dynamic workgroup from the kernel's limits") {
  const NDRange small{100};
  CHECK(partition({}, &small, nullptr, cpu).workgroup == WorkGroup{100});
  const NDRange big{100000};
  const Partition p = partition({}, &big, nullptr, cpu);
  CHECK(p.workgroup == WorkGroup{4096});
  CHECK(p.bounds_check);
  // Past the maximum the group is rounded down to the preferred multiple.
  const WorkGroupLimits odd{1000, {1000, 1000, 1000}, 64};
  CHECK(partition({}, &big, nullptr, odd).workgroup == WorkGroup{960});
  // 2D: dimension 0 first, then what the budget leaves.
  const NDRange plane{2048, 2048};
  const Partition q = partition({}, &plane, nullptr, cpu);
  CHECK(q.workgroup.size == std::array<std::size_t, 3>{2048, 2, 1});
  CHECK(q.dims == 2);
}

TEST_CASE("partition errors name what is missing or conflicting, with static and launch values") {
  const NDRange nd{1000};
  const NDRange other{999};
  const WorkGroup wg{64};
  const WorkGroup wg32{32};
  CHECK_THROWS_WITH_AS(partition({}, nullptr, &wg, cpu, "saxpy"),
                       doctest::Contains("partition of kernel 'saxpy': no ndrange"), UserError);
  CHECK_THROWS_WITH_AS(partition({}, &nd, nullptr, none, "saxpy"),
                       doctest::Contains("no workgroup"), UserError);
  CHECK_THROWS_WITH_AS(
      partition(statics(nd, std::nullopt), &other, &wg, cpu, "saxpy"),
      doctest::Contains("ndrange (999,) differs from the static ndrange (1000,) it was specialized "
                        "for [ndrange static (1000,), launch (999,); workgroup static dynamic, "
                        "launch (64,)]"),
      UserError);
  CHECK_THROWS_WITH_AS(
      partition(statics(std::nullopt, wg), &nd, &wg32, cpu, "saxpy"),
      doctest::Contains(
          "workgroup (32,) differs from the static workgroup (64,) it was specialized for"),
      UserError);
  const WorkGroup zero{0};
  CHECK_THROWS_WITH_AS(partition({}, &nd, &zero, cpu), doctest::Contains("zero dimension"),
                       UserError);
  const WorkGroup flat{16, 16};
  CHECK_THROWS_WITH_AS(
      partition({}, &nd, &flat, cpu),
      doctest::Contains("workgroup (16,16) has more dimensions than the ndrange (1000,)"),
      UserError);
  const WorkGroup huge{8192};
  CHECK_THROWS_WITH_AS(partition({}, &nd, &huge, cpu),
                       doctest::Contains("maximum of 4096 in dimension 0"), UserError);
  const WorkGroup square{128, 128};
  const NDRange plane{1024, 1024};
  CHECK_THROWS_WITH_AS(partition({}, &plane, &square, cpu),
                       doctest::Contains("16384 work-items; the kernel allows at most 4096"),
                       UserError);
  const NDRange overflow{SIZE_MAX};
  CHECK_THROWS_WITH_AS(partition({}, &overflow, &wg, cpu), doctest::Contains("above 2^63-1"),
                       UserError);
  const NDRange too_many{std::size_t{1} << 40, std::size_t{1} << 40};
  const WorkGroup one{1, 1};
  CHECK_THROWS_WITH_AS(partition({}, &too_many, &one, cpu), doctest::Contains("overflows size_t"),
                       UserError);
  NDRange four{8};
  four.dims = 4;
  CHECK_THROWS_WITH_AS(partition({}, &four, &wg, cpu), doctest::Contains("4 dimensions"),
                       UserError);
}

TEST_CASE("an ndrange of 0 partitions into no blocks") {
  const NDRange nd{0, 5};
  const WorkGroup wg{64};
  const Partition p = partition({}, &nd, &wg, cpu);
  CHECK(p.empty());
  CHECK(p.global[0] == 0);
}

#if SPVJIT_HAVE_ALLOC_COUNTER  // the interposer is left out of sanitizer builds
TEST_CASE("partition allocates nothing") {
  const NDRange nd{1000, 3};
  const WorkGroup wg{64};
  std::size_t sum = 0;
  const auto counts = support::count_allocations([&] {
    for (int i = 0; i < 1000; ++i) {
      sum += partition({}, &nd, &wg, cpu, "k").global[0];
      sum += partition({}, &nd, nullptr, cpu, "k").global[1];
    }
  });
  CHECK(counts.allocations == 0);
  CHECK(sum > 0);
}
#endif

TEST_CASE("a launch enqueues the geometry partition() answers for the kernel's limits") {
  JitOptions options;
  options.coarsen = false;  // partition() knows nothing of coarsening
  options.disk_cache = false;
  Jit jit(test::runtime(), options);
  Kernel k = jit.compile(examples::saxpy(Scalar::F32));
  auto& state = detail::KernelAccess::state(k);
  auto Z = test::runtime().zeros<float>(10000);
  for (std::size_t n : {std::size_t{1}, std::size_t{100}, std::size_t{4097}, std::size_t{10000}}) {
    CAPTURE(n);
    const NDRange nd{n};
    k.launch(nd, Z, Z, Z, 1.0f);
    const Partition p = partition({}, &nd, nullptr, state.rules.limits, k.name());
    REQUIRE(state.last_geometry_valid);
    CHECK(state.last_geometry.global == p.global);
    CHECK(state.last_geometry.workgroup == p.workgroup);
    CHECK(k.workgroup_for(nd) == p.workgroup);
  }
  test::runtime().synchronize();
}

TEST_CASE("a kernel that cannot pad: chosen workgroups divide the ndrange, given ones must") {
  const Specialization none;
  detail::GeometryRules rules;
  rules.statics = &none;
  rules.limits = cpu;
  rules.pads = false;
  const NDRange nd{10000};
  Partition p = detail::plan(rules, &nd, nullptr, {"launch", "k"});
  REQUIRE_FALSE(p.empty());
  CHECK(p.workgroup.size[0] == 2500);  // 4096 would pad; 2500 divides 10000
  CHECK_FALSE(p.bounds_check);
  const WorkGroup four{4};
  const NDRange ten{10};
  CHECK_THROWS_WITH_AS(detail::plan(rules, &ten, &four, {"launch", "k"}),
                       doctest::Contains("workgroup (4,) does not divide ndrange (10,)"),
                       UserError);
  // Empty: nothing runs, so nothing pads, whatever the workgroup.
  const NDRange empty{0, 5};
  const WorkGroup two{1, 2};
  CHECK(detail::plan(rules, &empty, &two, {"launch", "k"}).empty());
  // A coarsened launch runs ceil(n / W) work-items in dimension 0.
  rules.pads = true;
  rules.coarsen = 16;
  const NDRange wide{1000, 3};
  p = detail::plan(rules, &wide, nullptr, {"launch", "k"});
  REQUIRE_FALSE(p.empty());
  CHECK(p.global[0] == 63);
  CHECK(p.ndrange == wide);
  // Coarsened in dimension 1 (jit/coarsen/swap_dimensions.hpp): ceil(n / W) there, one row of
  // dimension 1 per chosen group, so that a group runs its vectors along a row.
  rules.coarsen_dimension = 1;
  const NDRange rows{3, 1000};
  p = detail::plan(rules, &rows, nullptr, {"launch", "k"});
  REQUIRE_FALSE(p.empty());
  CHECK(p.global[0] == 3);
  CHECK(p.global[1] == 63);
  CHECK(p.workgroup.size == std::array<std::size_t, 3>{1, 63, 1});
  CHECK(p.ndrange == rows);
  // Rows of one vector each: the rows share groups.
  const NDRange narrow{300, 16};
  p = detail::plan(rules, &narrow, nullptr, {"launch", "k"});
  REQUIRE_FALSE(p.empty());
  CHECK(p.global[1] == 1);
  CHECK(p.workgroup.size == std::array<std::size_t, 3>{300, 1, 1});
}

TEST_CASE("a chosen workgroup leaves min_groups groups where the ndrange has the work-items") {
  WorkGroupLimits spread = cpu;
  spread.min_groups = 2;
  // The 256 x 256 stencil coarsened by 16: one group of 16 x 256 without the rule.
  CHECK(choose_workgroup(NDRange{16, 256}, cpu).size == std::array<std::size_t, 3>{16, 256, 1});
  const WorkGroup two = choose_workgroup(NDRange{16, 256}, spread);
  CHECK(two.size == std::array<std::size_t, 3>{16, 128, 1});
  // 1-D: the only dimension is cut; an odd extent leaves a padded second group.
  CHECK(choose_workgroup(NDRange{4096}, spread).size[0] == 2048);
  CHECK(choose_workgroup(NDRange{1001}, spread).size[0] == 501);
  // Enough groups already, or one work-item: unchanged.
  CHECK(choose_workgroup(NDRange{8192}, spread).size[0] == 4096);
  CHECK(choose_workgroup(NDRange{1}, spread).size[0] == 1);
  // Sizes whose group count overflows, and empty ones: no division by zero.
  const std::size_t big = std::size_t{1} << 40;
  CHECK(choose_workgroup(NDRange{big, big}, spread).size == std::array<std::size_t, 3>{4096, 1, 1});
  CHECK(choose_workgroup(NDRange{0, 5}, spread).size[1] == 3);
  // Three compute units over a 3-D range: the outermost dimension with more than one item.
  spread.min_groups = 3;
  CHECK(choose_workgroup(NDRange{8, 8, 1}, spread).size == std::array<std::size_t, 3>{8, 3, 1});
}
