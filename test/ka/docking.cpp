// A docking score written the KernelAbstractions way and ported line for line (issue #68): an
// array of structs walked with `for atom in ligand`, private arrays of poses (an `MArray` of
// `SVector`s), `? :` on numbers, `abs` of a float and `x^2`. Against the same arithmetic on the
// host, within float rounding of the sums.
//
// The Julia, written for this test in KernelAbstractions' style (each work-item scores PPWI poses
// of a 2-D rigid rotation of the ligand against every protein atom):
/*
struct Atom
    x::Float32
    y::Float32
    z::Float32
    type::Int32
end
const Vec4f32 = SVector{4, Float32}

@kernel function score!(energies, @Const(ligand), @Const(protein), @Const(angles),
                        ::Val{PPWI}) where {PPWI}
    g = @index(Global)
    rot = @private Vec4f32 (PPWI,)
    etot = @private Float32 (PPWI,)
    for j in 1:PPWI
        s, c = sincos(angles[(g - 1) * PPWI + j])
        rot[j] = Vec4f32(c, s, -s, c)
        etot[j] = 0f0
    end
    for l_atom in ligand
        for p_atom in protein
            for j in 1:PPWI
                r = rot[j]
                x = r.x * l_atom.x + r.z * l_atom.y - p_atom.x
                y = r.y * l_atom.x + r.w * l_atom.y - p_atom.y
                d = sqrt(x^2 + y^2 + (l_atom.z - p_atom.z)^2)
                etot[j] += (l_atom.type == p_atom.type ? 4f0 : 2f0) * -abs(d - 1f0)
            end
        end
    end
    for j in 1:PPWI
        energies[(g - 1) * PPWI + j] = etot[j]
    end
end
*/
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "test/coarsen_support.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace ka_docking {

struct Atom {
  float x, y, z;
  std::int32_t type;
};
SPVJIT_STRUCT(Atom, x, y, z, type)

KernelDef score(std::int64_t ppwi) {
  KernelBuilder kb("score");
  auto energies = kb.param<Global<float>>("energies");
  auto ligand = kb.param<Const<Atom>>("ligand");
  auto protein = kb.param<Const<Atom>>("protein");
  auto angles = kb.param<Const<float>>("angles");
  auto g = kb.global_index();  // 0-based: KA's g - 1
  auto rot = private_array<Vec<float, 4>>(kb, {ppwi});
  auto etot = private_array<float>(kb, {ppwi});
  kb.for_(0, ppwi, [&](Val<std::int64_t> j) {
    const Val<float> angle = angles[g * ppwi + j];
    auto s = sin(angle), c = cos(angle);
    rot(j) = make_vec(c, s, -s, c);
    etot(j) = 0.0f;
  });
  kb.for_each(ligand, [&](auto l_atom) {
    auto [lx, ly, lz, ltype] = members(l_atom);
    kb.for_each(protein, [&](auto p_atom) {
      auto [px, py, pz, ptype] = members(p_atom);
      kb.for_(0, ppwi, [&](Val<std::int64_t> j) {
        const Vec<float, 4> r = rot(j);
        auto x = r[0] * lx + r[2] * ly - px;  // r.x, r.z: lanes 0 and 2
        auto y = r[1] * lx + r[3] * ly - py;
        auto d = sqrt(x * x + y * y + (lz - pz) * (lz - pz));  // x^2 is x * x
        etot(j) += select(ltype == ptype, 4.0f, 2.0f) * -abs(d - 1.0f);
      });
    });
  });
  kb.for_(0, ppwi, [&](Val<std::int64_t> j) { energies[g * ppwi + j] = Val<float>(etot(j)); });
  return kb.finish();
}

std::vector<Atom> atoms(std::size_t n, float shift) {
  std::vector<Atom> out(n);
  for (std::size_t a = 0; a < n; ++a) {
    const auto f = static_cast<float>(a);
    out[a] = {std::sin(f) + shift, std::cos(1.3f * f), 0.1f * f, static_cast<std::int32_t>(a % 3)};
  }
  return out;
}

}  // namespace ka_docking

using namespace ka_docking;

TEST_CASE("KernelAbstractions port: a docking score over arrays of structs and private poses") {
  auto& rt = test::runtime();
  const std::int64_t ppwi = 4;
  const std::size_t items = 16, poses = items * ppwi;
  const auto ligand = atoms(13, 0.5f), protein = atoms(29, -0.25f);
  std::vector<float> angles(poses);
  for (std::size_t p = 0; p < poses; ++p) angles[p] = 0.1f * static_cast<float>(p) - 1.5f;
  // The host: the Julia's arithmetic in its order, in double (the device rounds to float).
  std::vector<double> want(poses, 0.0);
  for (std::size_t p = 0; p < poses; ++p) {
    const double s = std::sin(double{angles[p]}), c = std::cos(double{angles[p]});
    for (const Atom& l : ligand) {
      for (const Atom& q : protein) {
        const double x = c * l.x + -s * l.y - q.x, y = s * l.x + c * l.y - q.y;
        const double d = std::sqrt(x * x + y * y + double(l.z - q.z) * double(l.z - q.z));
        want[p] += (l.type == q.type ? 4.0 : 2.0) * -std::fabs(d - 1.0);
      }
    }
  }
  const KernelDef def = score(ppwi);
  for (Jit* jit : {&test::scalar_jit(), &test::coarse_jit()}) {
    auto E = rt.zeros<float>(poses);
    auto L = rt.upload(ligand), P = rt.upload(protein);
    auto A = rt.upload(angles);
    jit->compile(def).launch(NDRange{items}, E, L, P, A);
    rt.synchronize();
    const auto got = E.to_vector();
    for (std::size_t p = 0; p < poses; ++p) {
      CAPTURE(p);
      // 377 float terms of magnitude up to ~10: a few float ulps of the sum each.
      CHECK(std::fabs(got[p] - want[p]) <= 1e-4 * std::max(1.0, std::fabs(want[p])));
    }
  }
}
