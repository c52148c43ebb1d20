// Grid-stride loops coarsened (issue #66; CoarsenTarget::grid_stride_loops): a loop whose counter
// starts at get_global_id(0) and steps by a uniform value is consecutive across a work-item's W
// lanes, and the exit `for_` adds before a counter stepped by a run-time value would overflow is
// folded into the loop's test (jit/coarsen/masked_loops.hpp). Each kernel runs against the scalar
// kernel bit for bit, and against the host, over launches of 1 to 1029 work-items and n below, at
// and past 5x the work-items, at several widths: the triad written grid-stride, a private sum per
// work-item written after its loop, a uniform counter with each lane's own end, and counters
// that reach the type's limit and leave by the overflow exit. Each case also checks that its
// kernels were coarsened (on by default), or with SPVJIT_COARSEN_GRID_STRIDE=off (the CTest test
// coarsen/grid_stride_off) that they were left as they were.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/env.hpp"
#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

bool grid_stride_on() { return detail::env_flag("SPVJIT_COARSEN_GRID_STRIDE").value_or(true); }

void check_coarsened(Jit& jit, const KernelDef& def) {
  CAPTURE(def.name());
  CHECK(is_coarsened(jit, def) == grid_stride_on());
}

const std::size_t launches[] = {1, 7, 64, 1029};

std::vector<std::size_t> lengths(std::size_t items) { return {items / 2, items, 5 * items + 7}; }

template <class T>
std::string named(const char* what) {
  return std::string("grid_stride_") + what + "_" + std::string(name(scalar_of<T>));
}

// a[j] = b[j] + s * c[j] for j = gid, gid + G, ... below n.
template <class T>
KernelDef triad() {
  KernelBuilder kb(named<T>("triad"));
  auto a = kb.param<Global<T>>("a");
  auto b = kb.param<Const<T>>("b");
  auto c = kb.param<Const<T>>("c");
  auto s = kb.param<T>("s");
  auto n = kb.param<std::int64_t>("n");
  kb.for_(kb.global_index(), n, kb.ndrange(), [&](Val<std::int64_t> j) { a[j] = b[j] + s * c[j]; });
  return kb.finish();
}

// out[gid] = x[gid] + x[gid + G] + ... below n, summed in that order: the sum leaves the loop by
// whichever exit a lane takes.
template <class T>
KernelDef strided_sum() {
  KernelBuilder kb(named<T>("sum"));
  auto out = kb.param<Global<T>>("out");
  auto x = kb.param<Const<T>>("x");
  auto n = kb.param<std::int64_t>("n");
  auto sum = kb.var(T(0));
  kb.for_(kb.global_index(), n, kb.ndrange(), [&](Val<std::int64_t> j) { sum += x[j]; });
  out[kb.global_index()] = sum;
  return kb.finish();
}

// out[gid] = 1 + 1 x[0] + (1 + step) x[step] + ... below ends[gid], in that order: the counter the
// same in every lane, each lane its own end, the step known at run time (so for_ adds its
// overflow exit).
template <class T>
KernelDef own_ends() {
  KernelBuilder kb(named<T>("own_ends"));
  auto out = kb.param<Global<T>>("out");
  auto x = kb.param<Const<T>>("x");
  auto ends = kb.param<Const<std::int64_t>>("ends");
  auto step = kb.param<std::int64_t>("step");
  auto gid = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto sum = kb.var(T(1));
    kb.for_(kb.lit(std::int64_t{0}), Val<std::int64_t>(ends[gid]), step,
            [&](Val<std::int64_t> k) { sum = sum + x[k] * cast<T>(k + std::int64_t{1}); });
    out[gid] = sum;
  });
  return kb.finish();
}

// From first + gid up to the largest int64 by `step`: each lane leaves by the exit before its
// counter would overflow, after its own number of passes.
KernelDef to_the_limit() {
  KernelBuilder kb("grid_stride_to_the_limit");
  auto count = kb.param<Global<std::int64_t>>("count");
  auto last = kb.param<Global<std::int64_t>>("last");
  auto first = kb.param<std::int64_t>("first");
  auto step = kb.param<std::int64_t>("step");
  auto gid = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto passes = kb.var(std::int64_t{0});
    auto seen = kb.var(std::int64_t{-1});
    kb.for_(first + gid, kb.lit(std::numeric_limits<std::int64_t>::max()), step,
            [&](Val<std::int64_t> j) {
              passes += 1;
              seen = j;
            });
    count[gid] = passes;
    last[gid] = seen;
  });
  return kb.finish();
}

template <class T>
std::vector<unsigned> widths_for() {
  if constexpr (sizeof(T) == 8) return {0, 2, 4};
  return {0, 4, 16};
}

template <class T>
T from_index(std::size_t i) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(0.5 + static_cast<double>(i % 97) * 0.03125);
  } else {
    return static_cast<T>(i % 1013) - 400;
  }
}

template <class T>
std::vector<T> values(std::size_t n, std::size_t seed) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = from_index<T>(i * 7 + seed);
  return out;
}

// What `run(jit)` returns (a launch's output) from the scalar Jit and from the coarsening one at
// `width`.
template <class Run>
auto scalar_and_coarse(unsigned width, Run run) {
  return std::array{run(scalar_jit()), run(coarse_jit(width))};
}

template <class T>
void check_triad() {
  const KernelDef def = triad<T>();
  auto& rt = test::runtime();
  const T s = T(3);
  for (unsigned width : widths_for<T>()) {
    CAPTURE(width);
    check_coarsened(coarse_jit(width), def);
    for (std::size_t items : launches) {
      for (std::size_t n : lengths(items)) {
        CAPTURE(items);
        CAPTURE(n);
        const std::size_t size = std::max<std::size_t>(n, 1);
        const auto b = values<T>(size, 1), c = values<T>(size, 2);
        const auto out = scalar_and_coarse(width, [&](Jit& jit) {
          auto a = rt.upload(test::random_data<T>(size, 5));  // past n: untouched
          jit.compile(def).launch(NDRange{items}, a, rt.upload(b), rt.upload(c), s,
                                  static_cast<std::int64_t>(n));
          rt.synchronize();
          return a.to_vector();
        });
        check_same_bits(out[0], out[1], b, c);
        if constexpr (!std::is_floating_point_v<T>) {
          std::vector<T> expected = test::random_data<T>(size, 5);
          for (std::size_t j = 0; j < n; ++j) expected[j] = static_cast<T>(b[j] + s * c[j]);
          CHECK(out[1] == expected);
        }
      }
    }
  }
}

template <class T>
void check_sum() {
  const KernelDef def = strided_sum<T>();
  auto& rt = test::runtime();
  for (unsigned width : widths_for<T>()) {
    CAPTURE(width);
    check_coarsened(coarse_jit(width), def);
    for (std::size_t items : launches) {
      for (std::size_t n : lengths(items)) {
        CAPTURE(items);
        CAPTURE(n);
        const auto x = values<T>(std::max<std::size_t>(n, 1), 3);
        std::vector<T> expected(items, T(0));
        for (std::size_t g = 0; g < items; ++g) {
          for (std::size_t j = g; j < n; j += items)
            expected[g] = static_cast<T>(expected[g] + x[j]);
        }
        const auto out = scalar_and_coarse(width, [&](Jit& jit) {
          auto o = rt.upload(test::random_data<T>(items, 6));
          jit.compile(def).launch(NDRange{items}, o, rt.upload(x), static_cast<std::int64_t>(n));
          rt.synchronize();
          return o.to_vector();
        });
        check_same_bits(out[0], out[1]);
        CHECK(out[1] == expected);
      }
    }
  }
}

template <class T>
void check_own_ends() {
  const KernelDef def = own_ends<T>();
  auto& rt = test::runtime();
  const std::size_t size = 300;
  const auto x = values<T>(size, 4);
  for (unsigned width : widths_for<T>()) {
    CAPTURE(width);
    check_coarsened(coarse_jit(width), def);
    for (std::size_t items : launches) {
      for (std::int64_t step : {1, 3, 64}) {
        CAPTURE(items);
        CAPTURE(step);
        std::vector<std::int64_t> ends(items);
        for (std::size_t g = 0; g < items; ++g)
          ends[g] = static_cast<std::int64_t>((g * 37) % size);
        std::vector<T> expected(items);
        for (std::size_t g = 0; g < items; ++g) {
          T sum = T(1);
          for (std::int64_t k = 0; k < ends[g]; k += step) {
            sum = static_cast<T>(sum + x[k] * static_cast<T>(k + 1));
          }
          expected[g] = sum;
        }
        const auto out = scalar_and_coarse(width, [&](Jit& jit) {
          auto o = rt.upload(test::random_data<T>(items, 6));
          jit.compile(def).launch(NDRange{items}, o, rt.upload(x), rt.upload(ends), step);
          rt.synchronize();
          return o.to_vector();
        });
        check_same_bits(out[0], out[1]);
        if constexpr (!std::is_floating_point_v<T>) CHECK(out[1] == expected);
      }
    }
  }
}

}  // namespace

TEST_CASE("coarsen grid-stride: the triad written grid-stride, against the scalar kernel") {
  check_triad<float>();
  check_triad<double>();
  check_triad<std::int32_t>();
}

TEST_CASE("coarsen grid-stride: a private sum per work-item, written after its loop") {
  check_sum<float>();
  check_sum<double>();
  check_sum<std::int64_t>();
}

TEST_CASE("coarsen grid-stride: a uniform counter, each lane its own end, a run-time step") {
  check_own_ends<float>();
  check_own_ends<std::int32_t>();
}

TEST_CASE("coarsen grid-stride: counters that reach the largest int64 leave before overflowing") {
  const KernelDef def = to_the_limit();
  auto& rt = test::runtime();
  constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
  for (unsigned width : {0u, 4u, 8u}) {
    CAPTURE(width);
    check_coarsened(coarse_jit(width), def);
    for (std::size_t items : launches) {
      for (std::int64_t step : {std::int64_t{1000}, std::int64_t{1} << 40, max}) {
        CAPTURE(items);
        CAPTURE(step);
        const std::int64_t first = max - 5000;
        std::vector<std::int64_t> expected_count(items), expected_last(items);
        for (std::size_t g = 0; g < items; ++g) {
          std::int64_t passes = 0, seen = -1;
          for (std::int64_t j = first + static_cast<std::int64_t>(g); j < max;) {
            ++passes;
            seen = j;
            if (j > max - step) break;
            j += step;
          }
          expected_count[g] = passes;
          expected_last[g] = seen;
        }
        const auto out = scalar_and_coarse(width, [&](Jit& jit) {
          auto c = rt.zeros<std::int64_t>(items);
          auto l = rt.zeros<std::int64_t>(items);
          jit.compile(def).launch(NDRange{items}, c, l, first, step);
          rt.synchronize();
          return std::pair{c.to_vector(), l.to_vector()};
        });
        for (const auto& [counts, lasts] : out) {
          CHECK(counts == expected_count);
          CHECK(lasts == expected_last);
        }
      }
    }
  }
}
