// Launching by number of groups (KernelAbstractions' `numworkgroups`): the ndrange is groups x
// workgroup, every work-item of every group runs once, and a warm launch allocates nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "spvjit/atomics.hpp"
#include "spvjit/index.hpp"
#include "test/lang_support.hpp"
#ifdef SPVJIT_HAVE_ALLOC_COUNTER
#include "test/alloc_counter.hpp"
#endif

using namespace spvjit;

namespace {

// Each work-item counts itself at its linear global index and records which group and which
// place in it it was, so a missing, repeated or misplaced work-item shows.
KernelDef census() {
  KernelBuilder kb("census");
  auto hits = kb.param<Global<std::uint32_t>>("hits");
  auto where = kb.param<Global<std::int64_t>>("where");
  auto [gx, gy] = group_indices<2>(kb);
  auto [lx, ly] = local_indices<2>(kb);
  auto i = global_linear(kb);
  atomic_add(hits[i], 1u);
  where[i] = (gy * num_groups(kb, 0) + gx) * 10000 + ly * kb.group_size(0) + lx;
  return kb.finish();
}

// Launches `launch` and checks every work-item of groups x workgroup ran exactly once.
template <class F>
void check_census(const Groups& groups, const WorkGroup& wg, F&& launch) {
  auto& rt = test::runtime();
  const std::size_t nx = groups[0] * wg[0], ny = groups[1] * wg[1];
  auto hits = rt.zeros<std::uint32_t>(nx * ny);
  auto where = rt.zeros<std::int64_t>(nx * ny);
  launch(hits, where);
  rt.synchronize();
  const auto h = hits.to_vector();
  const auto w = where.to_vector();
  for (std::size_t y = 0; y < ny; ++y) {
    for (std::size_t x = 0; x < nx; ++x) {
      const std::size_t i = y * nx + x;
      const auto group = (y / wg[1]) * groups[0] + x / wg[0];
      const auto local = (y % wg[1]) * wg[0] + x % wg[0];
      CAPTURE(x);
      CAPTURE(y);
      CHECK(h[i] == 1u);
      CHECK(w[i] == static_cast<std::int64_t>(group * 10000 + local));
    }
  }
}

std::string user_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("launch by Groups: 1-D and 2-D, given or static workgroup, with and without an event") {
  const KernelDef def = census();
  Kernel dynamic = test::compile_checked(def);
  check_census(Groups{5}, WorkGroup{8}, [&](auto& hits, auto& where) {
    dynamic.launch(Groups{5}, WorkGroup{8}, hits, where);
  });
  check_census(Groups{3, 4}, WorkGroup{4, 2}, [&](auto& hits, auto& where) {
    dynamic.launch(Groups{3, 4}, WorkGroup{4, 2}, hits, where);
  });
  check_census(Groups{2, 3}, WorkGroup{5}, [&](auto& hits, auto& where) {
    dynamic.launch_event(Groups{2, 3}, WorkGroup{5}, hits, where).wait();
  });
  Kernel fixed = test::compile_checked(def, test::static_workgroup(WorkGroup{4, 4}));
  check_census(Groups{3, 2}, WorkGroup{4, 4}, [&](auto& hits, auto& where) {
    fixed.launch(Groups{3, 2}, hits, where);
  });
  check_census(Groups{1, 5}, WorkGroup{4, 4}, [&](auto& hits, auto& where) {
    fixed.launch_event(Groups{1, 5}, hits, where).wait();
  });
  CHECK(fixed.ndrange_of(Groups{3, 2}, nullptr) == NDRange{12, 8});
  const WorkGroup wg{16};
  CHECK(dynamic.ndrange_of(Groups{0}, &wg) == NDRange{0});
}

TEST_CASE("launch by Groups: no workgroup, an overflowing product, a differing static workgroup") {
  const KernelDef def = census();
  Kernel dynamic = test::compile_checked(def);
  auto& rt = test::runtime();
  auto hits = rt.zeros<std::uint32_t>(64);
  auto where = rt.zeros<std::int64_t>(64);
  auto msg = user_error_of([&] { dynamic.launch(Groups{4}, hits, where); });
  CHECK(msg.find("kernel 'census'") != std::string::npos);
  CHECK(msg.find("a group count needs a workgroup size") != std::string::npos);
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;
  msg = user_error_of([&] { dynamic.launch(Groups{1, huge}, WorkGroup{1, 4}, hits, where); });
  CHECK(msg.find("overflows in dimension 1") != std::string::npos);
  Kernel fixed = test::compile_checked(def, test::static_workgroup(WorkGroup{8}));
  msg = user_error_of([&] { fixed.launch(Groups{2}, WorkGroup{4}, hits, where); });
  CHECK_FALSE(msg.empty());  // the launch's workgroup differs from the static one
  msg = user_error_of([&] { (void)Kernel().ndrange_of(Groups{1}, nullptr); });
  CHECK(msg.find("empty") != std::string::npos);
}

#ifdef SPVJIT_HAVE_ALLOC_COUNTER
TEST_CASE("launch by Groups: a warm launch allocates no more than the same launch by NDRange") {
  const KernelDef def = census();
  Kernel k = test::compile_checked(def);
  auto& rt = test::runtime();
  auto hits = rt.zeros<std::uint32_t>(256);
  auto where = rt.zeros<std::int64_t>(256);
  auto by_groups = [&] {
    k.launch(Groups{4, 2}, WorkGroup{8, 4}, hits, where);
    rt.synchronize();
  };
  auto by_ndrange = [&] {
    k.launch(NDRange{32, 8}, WorkGroup{8, 4}, hits, where);
    rt.synchronize();
  };
  for (int i = 0; i < 20; ++i) {  // warm up both
    by_groups();
    by_ndrange();
  }
  // PoCL allocates a few blocks per launch on its own: the fewest over a few rounds filters
  // its worker threads' noise out of both sides.
  auto fewest = [](auto&& launch) {
    std::uint64_t best = UINT64_MAX;
    for (int round = 0; round < 5; ++round) {
      const auto counts = support::count_allocations([&] {
        for (int i = 0; i < 50; ++i) launch();
      });
      best = std::min(best, counts.allocations);
    }
    return best;
  };
  const std::uint64_t groups = fewest(by_groups);
  const std::uint64_t ndrange = fewest(by_ndrange);
  CAPTURE(groups);
  CAPTURE(ndrange);
  CHECK(groups <= ndrange);
}
#endif
