// Kernels with private arrays, coarsened: arrays indexed by C++ constants only (a work-item's
// poses, KA's MArray with its loop unrolled by the builder) become registers, so a kernel that
// scores several poses per work-item over a loop every work-item runs alike — sin and cos of its
// angles, gathers of its poses, scatters of its scores — is coarsened and bit-identical to the
// scalar kernel. So are arrays indexed by the counters of `kb.for_` loops of a few trips (KA's
// `@simd for j in 1:PPWI`), which the compile unrolls. An array indexed by a computed value, or
// by a loop of more trips than the unrolling takes, keeps the kernel as written.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "spvjit/spvjit.hpp"
#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

constexpr std::int64_t poses_per_item = 4;

// energies[4 i + j] = sum over the n atoms of a score of pose 4 i + j (angles[4 i + j] and the
// atom's x, y), each pose's rotation kept in a private array.
// `loops`: the poses visited by `kb.for_` loops, as KA writes `@simd for j in 1:PPWI`, rather
// than by C++ loops the builder unrolls.
KernelDef poses_kernel(bool fast, bool loops) {
  KernelBuilder kb(std::string("private_poses") + (fast ? "_fast" : "") + (loops ? "_loops" : ""));
  if (fast) kb.fastmath();
  auto energies = kb.param<Global<float>>("energies");
  auto angles = kb.param<Const<float>>("angles");
  auto atoms = kb.param<Const<float>>("atoms");
  auto n = kb.param<std::int64_t>("n");
  auto i = kb.global_index();
  auto rotation = private_array<float>(kb, {poses_per_item, 2});
  auto total = private_array<float>(kb, {poses_per_item});
  // Each pose j, as a C++ number or as a loop's counter.
  auto each_pose = [&](auto&& body) {
    if (loops) {
      kb.for_(0, poses_per_item, [&](Val<std::int64_t> j) { body(j); });
    } else {
      for (std::int64_t j = 0; j < poses_per_item; ++j) body(j);
    }
  };
  kb.if_(kb.in_ndrange(), [&] {
    each_pose([&](auto j) {
      const Val<float> angle = angles[poses_per_item * i + j];
      rotation(j, 0) = cos(angle);
      rotation(j, 1) = sin(angle);
      total(j) = 0.0f;
    });
    kb.for_(0, n, [&](Val<std::int64_t> a) {
      const Val<float> x = atoms[2 * a], y = atoms[2 * a + 1];
      each_pose([&](auto j) {
        Val<float> rx = rotation(j, 0) * x - rotation(j, 1) * y;
        Val<float> ry = rotation(j, 1) * x + rotation(j, 0) * y;
        Val<float> d = sqrt(rx * rx + ry * ry + 0.25f);
        total(j) = Val<float>(total(j)) + select(d < 1.0f, 1.0f - d, 0.5f / d);
      });
    });
    each_pose([&](auto j) { energies[poses_per_item * i + j] = Val<float>(total(j)); });
  });
  return kb.finish();
}

// out[i] = the sum over j < rows and k < 3 of (j + 1) (k + 1) x[i], its terms kept in a private
// rows x 3 array filled and summed by nested `kb.for_` loops.
KernelDef nested_loops_kernel(std::int64_t rows) {
  KernelBuilder kb("private_nested_loops_" + std::to_string(rows));
  auto out = kb.param<Global<float>>("out");
  auto x = kb.param<Const<float>>("x");
  auto i = kb.global_index();
  auto terms = private_array<float>(kb, {rows, 3});
  kb.if_(kb.in_ndrange(), [&] {
    const Val<float> xi = x[i];
    kb.for_(0, rows, [&](Val<std::int64_t> j) {
      kb.for_(0, 3,
              [&](Val<std::int64_t> k) { terms(j, k) = xi * cast<float>((j + 1) * (k + 1)); });
    });
    auto sum = kb.var(0.0f);
    kb.for_(0, rows, [&](Val<std::int64_t> j) {
      kb.for_(0, 3, [&](Val<std::int64_t> k) { sum = Val<float>(sum) + Val<float>(terms(j, k)); });
    });
    out[i] = Val<float>(sum);
  });
  return kb.finish();
}

}  // namespace

TEST_CASE(
    "a kernel scoring poses in private arrays over a uniform loop is coarsened, bit-identical") {
  auto& rt = test::runtime();
  const std::int64_t atoms_count = 37;
  for (auto [fast, loops] : {std::pair{false, false}, std::pair{true, false},
                             std::pair{false, true}, std::pair{true, true}}) {
    CAPTURE(fast);
    CAPTURE(loops);
    const KernelDef def = poses_kernel(fast, loops);
    CHECK(is_coarsened(coarse_jit(), def));
    for (std::size_t items : {std::size_t{1}, std::size_t{13}, std::size_t{260}}) {
      CAPTURE(items);
      const auto angles = spvjit::test::random_data<float>(poses_per_item * items, 7);
      std::vector<float> atoms(2 * atoms_count);
      for (std::size_t k = 0; k < atoms.size(); ++k) atoms[k] = 0.01f * float(k % 97) - 0.4f;
      std::vector<float> out[2];
      Jit* jits[2] = {&scalar_jit(), &coarse_jit()};
      for (int k = 0; k < 2; ++k) {
        auto E = rt.upload(spvjit::test::random_data<float>(poses_per_item * items, 8));
        auto A = rt.upload(angles), X = rt.upload(atoms);
        jits[k]->compile(def).launch(NDRange{items}, E, A, X, atoms_count);
        rt.synchronize();
        out[k] = E.to_vector();
      }
      if (!fast) {
        check_same_bits(out[0], out[1], angles);
        continue;
      }
      // Fast math lets PoCL compile the scalar and the vector body differently (contracted,
      // reassociated): the same scores to a few ulps of the sum, not bit for bit.
      for (std::size_t k = 0; k < out[0].size(); ++k) {
        CAPTURE(k);
        const bool both_nan = out[0][k] != out[0][k] && out[1][k] != out[1][k];
        CHECK((both_nan ||
               std::fabs(out[0][k] - out[1][k]) <= 1e-4f * std::max(1.0f, std::fabs(out[0][k]))));
      }
    }
  }
}

TEST_CASE("a private array indexed by a computed value keeps the kernel scalar, and right") {
  KernelBuilder kb("private_computed_index");
  auto z = kb.param<Global<float>>("Z");
  auto x = kb.param<Const<float>>("X");
  auto i = kb.global_index();
  auto table = private_array<float>(kb, {4});
  kb.if_(kb.in_ndrange(), [&] {
    for (std::int64_t k = 0; k < 4; ++k) table(k) = Val<float>(x[i]) * float(k + 1);
    z[i] = Val<float>(table(i % 4));
  });
  const KernelDef def = kb.finish();
  CHECK_FALSE(is_coarsened(coarse_jit(), def));
  auto& rt = test::runtime();
  const std::size_t n = 103;
  const auto xs = spvjit::test::random_data<float>(n, 9);
  auto X = rt.upload(xs);
  auto Z = rt.zeros<float>(n);
  coarse_jit().compile(def).launch(NDRange{n}, Z, X);
  rt.synchronize();
  const auto zs = Z.to_vector();
  for (std::size_t k = 0; k < n; ++k) {
    const float want = xs[k] * float(k % 4 + 1);
    CHECK(std::memcmp(&zs[k], &want, sizeof want) == 0);
  }
}

TEST_CASE("nested loops over a private array are unrolled up to 16 trips, and right either way") {
  auto& rt = test::runtime();
  const std::size_t n = 45;
  const auto xs = spvjit::test::random_data<float>(n, 10);
  // 16 rows: each loop within the limit, the array made registers and the kernel coarsened;
  // 17: the row loops are not unrolled and the kernel stays scalar.
  for (std::int64_t rows : {std::int64_t{2}, std::int64_t{16}, std::int64_t{17}}) {
    CAPTURE(rows);
    const KernelDef def = nested_loops_kernel(rows);
    CHECK(is_coarsened(coarse_jit(), def) == (rows <= 16));
    std::vector<float> out[2];
    Jit* jits[2] = {&scalar_jit(), &coarse_jit()};
    for (int k = 0; k < 2; ++k) {
      auto X = rt.upload(xs);
      auto Z = rt.zeros<float>(n);
      jits[k]->compile(def).launch(NDRange{n}, Z, X);
      rt.synchronize();
      out[k] = Z.to_vector();
    }
    check_same_bits(out[0], out[1], xs);
    // The scalar kernel against the host's sum in the same order.
    for (std::size_t e = 0; e < n; ++e) {
      CAPTURE(e);
      float want = 0.0f;
      for (std::int64_t j = 0; j < rows; ++j) {
        for (std::int64_t k = 0; k < 3; ++k) want += xs[e] * float((j + 1) * (k + 1));
      }
      const bool both_nan = want != want && out[0][e] != out[0][e];
      CHECK((both_nan || std::memcmp(&out[0][e], &want, sizeof want) == 0));
    }
  }
}
