// Kernels with private arrays, coarsened: arrays indexed by C++ constants only (a work-item's
// poses, KA's MArray with its loop unrolled by the builder) become registers, so a kernel that
// scores several poses per work-item over a loop every work-item runs alike — sin and cos of its
// angles, gathers of its poses, scatters of its scores — is coarsened and bit-identical to the
// scalar kernel. An array indexed by a computed value keeps the kernel as written.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "spvjit/spvjit.hpp"
#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

constexpr std::int64_t poses_per_item = 4;

// energies[4 i + j] = sum over the n atoms of a score of pose 4 i + j (angles[4 i + j] and the
// atom's x, y), each pose's rotation kept in a private array.
KernelDef poses_kernel(bool fast) {
  KernelBuilder kb(fast ? "private_poses_fast" : "private_poses");
  if (fast) kb.fastmath();
  auto energies = kb.param<Global<float>>("energies");
  auto angles = kb.param<Const<float>>("angles");
  auto atoms = kb.param<Const<float>>("atoms");
  auto n = kb.param<std::int64_t>("n");
  auto i = kb.global_index();
  auto rotation = private_array<float>(kb, {poses_per_item, 2});
  auto total = private_array<float>(kb, {poses_per_item});
  kb.if_(kb.in_ndrange(), [&] {
    for (std::int64_t j = 0; j < poses_per_item; ++j) {
      const Val<float> angle = angles[poses_per_item * i + j];
      rotation(j, 0) = cos(angle);
      rotation(j, 1) = sin(angle);
      total(j) = 0.0f;
    }
    kb.for_(0, n, [&](Val<std::int64_t> a) {
      const Val<float> x = atoms[2 * a], y = atoms[2 * a + 1];
      for (std::int64_t j = 0; j < poses_per_item; ++j) {
        Val<float> rx = rotation(j, 0) * x - rotation(j, 1) * y;
        Val<float> ry = rotation(j, 1) * x + rotation(j, 0) * y;
        Val<float> d = sqrt(rx * rx + ry * ry + 0.25f);
        total(j) = Val<float>(total(j)) + select(d < 1.0f, 1.0f - d, 0.5f / d);
      }
    });
    for (std::int64_t j = 0; j < poses_per_item; ++j) {
      energies[poses_per_item * i + j] = Val<float>(total(j));
    }
  });
  return kb.finish();
}

}  // namespace

TEST_CASE(
    "a kernel scoring poses in private arrays over a uniform loop is coarsened, bit-identical") {
  auto& rt = test::runtime();
  const std::int64_t atoms_count = 37;
  for (bool fast : {false, true}) {
    CAPTURE(fast);
    const KernelDef def = poses_kernel(fast);
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
