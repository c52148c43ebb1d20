// Kernels with barriers and a static workgroup coarsened in groups (issue #63;
// CoarsenTarget::groups, SPVJIT_COARSEN_GROUPS): each work-item stands for W consecutive
// work-items of its group, whose local ids are W times its own plus the lane. Each kernel runs
// against the scalar kernel bit for bit at several widths and group sizes: a tiled n-body step
// (the bench's apps/nbody/local), and a group's tile read at the work-item's neighbour and summed
// whole. Each case also checks that its kernels were coarsened where SPVJIT_COARSEN_GROUPS is on
// (the CTest test coarsen/groups), and left as they were where it is off (the default), and that
// an ndrange of no whole number of groups is refused either way.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/env.hpp"
#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

bool groups_on() { return detail::env_flag("SPVJIT_COARSEN_GROUPS").value_or(false); }

// Coarsened in groups, the kernel's own body goes (inlined): its SPIR-V computes with vectors of
// its data, where the scalar kernel's, which the group loops or PoCL widen later, has only the
// work-item builtins' vectors of three 64-bit ids.
bool computes_with_vectors(Jit& jit, const KernelDef& def) {
  const std::string text = spirv_text(jit, def);
  for (const char* element : {"%float ", "%double ", "%uint "}) {
    if (text.find(std::string("OpTypeVector ") + element) != std::string::npos) return true;
  }
  return false;
}

void check_coarsened(Jit& jit, const KernelDef& def) {
  CAPTURE(def.name());
  CHECK(computes_with_vectors(jit, def) == groups_on());
}

std::vector<float> moderate_floats(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  std::vector<float> out(n);
  for (auto& v : out) v = value(gen);
  return out;
}

// The bench's tiled n-body step (bench/bench_compute.cpp): each group loads a tile of `group`
// bodies into local memory between two barriers, and each work-item sums its body's
// interactions with the tile's.
KernelDef tiled_nbody(std::size_t group) {
  KernelBuilder kb("groups_nbody_" + std::to_string(group));
  kb.workgroup(WorkGroup{group});
  auto acc = kb.param<Global<float>>("acc");
  auto pos = kb.param<Const<float>>("pos");
  auto n = kb.param<std::int64_t>("n");
  auto softening2 = kb.param<float>("softening2");
  auto i = kb.global_index();
  const Val<float> xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
  auto ax = kb.var(0.0f), ay = kb.var(0.0f), az = kb.var(0.0f);
  const auto g = static_cast<std::int64_t>(group);
  auto tile = local_array<float>(kb, {static_cast<std::int64_t>(4 * group)}, "tile");
  auto lid = kb.local_index();
  kb.for_(0, n, g, [&](Val<std::int64_t> base) {
    for (int c = 0; c < 4; ++c) tile[4 * lid + c] = Val<float>(pos[4 * (base + lid) + c]);
    barrier(kb, Fence::Local);
    kb.for_(0, g, [&](Val<std::int64_t> k) {
      auto dx = tile[4 * k] - xi, dy = tile[4 * k + 1] - yi, dz = tile[4 * k + 2] - zi;
      auto r2 = dx * dx + dy * dy + dz * dz + softening2;
      auto inv = 1.0f / sqrt(r2);
      auto s = tile[4 * k + 3] * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    });
    barrier(kb, Fence::Local);
  });
  acc[3 * i] = ax.get();
  acc[3 * i + 1] = ay.get();
  acc[3 * i + 2] = az.get();
  return kb.finish();
}

// y[i] = the tile's element at the next local id (one element per lane) plus the whole tile's
// sum (a loop every work-item of the group runs alike).
template <class T>
KernelDef neighbours(std::size_t group) {
  KernelBuilder kb(std::string("groups_neighbours_") + std::string(name(scalar_of<T>)) + "_" +
                   std::to_string(group));
  kb.workgroup(WorkGroup{group});
  auto y = kb.param<Global<T>>("y");
  auto x = kb.param<Const<T>>("x");
  const auto g = static_cast<std::int64_t>(group);
  auto tile = local_array<T>(kb, {static_cast<std::int64_t>(group)}, "tile");
  auto i = kb.global_index();
  auto lid = kb.local_index();
  tile[lid] = Val<T>(x[i]);
  barrier(kb, Fence::Local);
  auto sum = kb.var(T{0});
  kb.for_(0, g, [&](Val<std::int64_t> k) { sum += tile[k]; });
  y[i] = tile[(lid + 1) % g] + sum.get();
  return kb.finish();
}

template <class T>
std::vector<T> run_neighbours(Jit& jit, const KernelDef& def, const std::vector<T>& x) {
  auto& rt = test::runtime();
  auto X = rt.upload(x);
  auto Y = rt.upload(std::vector<T>(x.size(), T{7}));
  jit.compile(def).launch(NDRange{x.size()}, Y, X);
  rt.synchronize();
  return Y.to_vector();
}

}  // namespace

TEST_CASE("coarsened in groups: a tiled n-body step gives the scalar kernel's bits") {
  // Groups of 512: their slots once per group, not once per work-item, on the group's stack
  // (counted per work-item, a group of 512 lanes' slots would not fit an 8 MiB stack).
  const std::size_t n = 1024;
  std::vector<float> pos = moderate_floats(4 * n, 11);
  for (std::size_t b = 0; b < n; ++b) pos[4 * b + 3] = std::fabs(pos[4 * b + 3]) + 0.5f;
  for (std::size_t group : {16u, 64u, 512u}) {
    for (unsigned width : {0u, 4u, 8u}) {
      CAPTURE(group);
      CAPTURE(width);
      const KernelDef def = tiled_nbody(group);
      std::vector<float> outputs[2];
      Jit* jits[2] = {&scalar_jit(), &coarse_jit(width)};
      for (int k = 0; k < 2; ++k) {
        auto& rt = test::runtime();
        auto P = rt.upload(pos);
        auto A = rt.upload(std::vector<float>(3 * n, 0.0f));
        jits[k]->compile(def).launch(NDRange{n}, A, P, static_cast<std::int64_t>(n), 0.01f);
        rt.synchronize();
        outputs[k] = A.to_vector();
      }
      check_same_bits(outputs[0], outputs[1]);
      check_coarsened(coarse_jit(width), def);
      CHECK_FALSE(computes_with_vectors(scalar_jit(), def));
    }
  }
}

TEST_CASE("coarsened in groups: a tile read at the neighbour and summed whole, every type") {
  // Groups of 8 at 16 lanes run 8 lanes: the widest that divides the group.
  for (std::size_t group : {8u, 32u}) {
    for (unsigned width : {0u, 2u, 4u, 16u}) {
      CAPTURE(group);
      CAPTURE(width);
      const std::size_t n = 8 * group;
      {
        const KernelDef def = neighbours<float>(group);
        const auto x = moderate_floats(n, 5);
        check_same_bits(run_neighbours(scalar_jit(), def, x),
                        run_neighbours(coarse_jit(width), def, x));
        check_coarsened(coarse_jit(width), def);
      }
      {
        const KernelDef def = neighbours<std::int32_t>(group);
        const auto x = test::random_data<std::int32_t>(n, 6);
        check_same_bits(run_neighbours(scalar_jit(), def, x),
                        run_neighbours(coarse_jit(width), def, x));
        check_coarsened(coarse_jit(width), def);
      }
      {
        const KernelDef def = neighbours<double>(group);
        const auto x = test::random_data<double>(n, 7);
        check_same_bits(run_neighbours(scalar_jit(), def, x),
                        run_neighbours(coarse_jit(width), def, x), {}, {},
                        /*nan_payloads_may_differ=*/true);
        check_coarsened(coarse_jit(width), def);
      }
    }
  }
}

TEST_CASE("coarsened in groups: an ndrange of no whole number of groups is still refused") {
  // 63 of groups of 64 would be 8 whole coarsened work-items of 8 lanes: the launch must see
  // the kernel's groups, not the coarsened ones.
  const KernelDef def = neighbours<float>(64);
  auto& rt = test::runtime();
  for (std::size_t n : {63u, 100u, 130u}) {
    CAPTURE(n);
    for (Jit* jit : {&scalar_jit(), &coarse_jit(8)}) {
      Kernel kernel = jit->compile(def);
      auto X = rt.upload(std::vector<float>(n, 1.0f));
      auto Y = rt.upload(std::vector<float>(n, 0.0f));
      CHECK_THROWS_WITH_AS(kernel.launch(NDRange{n}, Y, X), doctest::Contains("(64"), UserError);
    }
  }
  rt.synchronize();
}

TEST_CASE(
    "coarsened in groups: a barrier beside a branch the lanes may disagree on is left alone") {
  // The lanes would take the guard's two sides under masks: refused, and the kernel computes
  // as written.
  KernelBuilder kb("groups_guarded");
  kb.workgroup(WorkGroup{16});
  auto y = kb.param<Global<float>>("y");
  auto x = kb.param<Const<float>>("x");
  auto n = kb.param<std::int64_t>("n");
  auto tile = local_array<float>(kb, {16}, "tile");
  auto i = kb.global_index();
  auto lid = kb.local_index();
  tile[lid] = Val<float>(x[i]);
  barrier(kb, Fence::Local);
  kb.if_(i < n, [&] { y[i] = tile[15 - lid]; });
  const KernelDef def = kb.finish();
  const std::size_t items = 64;
  const auto xs = moderate_floats(items, 9);
  auto& rt = test::runtime();
  std::vector<float> outputs[2];
  Jit* jits[2] = {&scalar_jit(), &coarse_jit(8)};
  for (int k = 0; k < 2; ++k) {
    auto X = rt.upload(xs);
    auto Y = rt.upload(std::vector<float>(items, -1.0f));
    jits[k]->compile(def).launch(NDRange{items}, Y, X, std::int64_t{50});
    rt.synchronize();
    outputs[k] = Y.to_vector();
  }
  check_same_bits(outputs[0], outputs[1]);
  for (std::size_t j = 0; j < items; ++j) {
    CHECK(outputs[1][j] == (j < 50 ? xs[j / 16 * 16 + 15 - j % 16] : -1.0f));
  }
  CHECK_FALSE(computes_with_vectors(coarse_jit(8), def));
}
