// What apps/docking computes, shared by its three ways (bench/bench_docking.cpp: spvjit and the
// host reference; bench/openmp_docking.cpp: OpenMP; bench/opencl_docking.cpp: OpenCL C): the
// sizes, the force field's constants and the deterministic inputs of a molecular-docking energy
// kernel (the shape of a rigid-body docking code's scoring step). Header-only and free of spvjit.
//
// The energy of a pose is half the sum, over every (ligand atom, protein atom) pair, of four
// terms of the pair's distance d, each continuous in d (so that float and double results differ
// by rounding only, never by a branch taken on one side and not the other). With r = the two
// atoms' radius sum and b = d - r (the distance between their surfaces):
//   steric:    b < 0 ? hardness * (1 - d / r) : 0
//   hphb:      b < range ? s * (b < 0 ? 1 : 1 - b / range) : 0, range = hbond_range for two
//              H-bonding atoms (both hphb < 0), else hphob_range; s = -(|h_p| + |h_l|) for two
//              atoms of one kind (both hphb < 0 or both > 0), else desolvation * |h_p - h_l|
//   elec:      b < elec_range ? q * f : 0, q = elec_scale * e_p * e_l, f = (b < 0 ? 1 : 1 -
//              b / elec_range)
//   desolv:    b < elec_range ? c * f : 0, c = desolvation * (|e_p| + |e_l|) for atoms of
//              different kinds, else 0
// where h and e are the atoms' types' hphb and elsc values.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/compute_cases.hpp"

namespace spvjit::bench::docking {

/// Poses per work-item of the spvjit and OpenCL kernels.
constexpr std::size_t ppwi = 4;
/// Poses per iteration of the OpenMP loop, vectorized across them: one AVX-512 vector.
constexpr std::size_t openmp_poses_per_iteration = 16;
constexpr std::size_t ligand_atoms = 26;
constexpr std::size_t protein_atoms = 938;
constexpr std::size_t poses = 1024;
constexpr std::size_t atom_types = 8;

constexpr float hardness = 38.0f;
constexpr float hbond_range = 2.5f;
constexpr float hphob_range = 4.0f;
constexpr float elec_range = 4.0f;
constexpr float elec_scale = 20.0f;
constexpr float desolvation = 0.5f;

struct Inputs {
  std::vector<float> protein_xyz;          // x, y, z of atom i at 3 i to 3 i + 2
  std::vector<std::int32_t> protein_type;  // 0 to atom_types - 1
  std::vector<float> ligand_xyz;
  std::vector<std::int32_t> ligand_type;
  std::vector<float> forcefield;  // radius, hphb, elsc of type t at 3 t to 3 t + 2
  std::vector<float> poses;       // angle x, y, z, translation x, y, z: value k of pose p at
                                  // k * poses + p
};

/// A point uniform in the ball of `radius` around the origin, from three uniforms.
inline void in_ball(double radius, double u, double v, double w, float* xyz) {
  const double cos_theta = 2.0 * u - 1.0, phi = 2.0 * M_PI * v;
  const double sin_theta = std::sqrt(1.0 - cos_theta * cos_theta);
  const double r = radius * std::cbrt(w);
  xyz[0] = static_cast<float>(r * sin_theta * std::cos(phi));
  xyz[1] = static_cast<float>(r * sin_theta * std::sin(phi));
  xyz[2] = static_cast<float>(r * cos_theta);
}

/// A protein of 938 atoms in a ball of radius 13 (about one atom per 10 cubic angstroms), a
/// ligand of 26 atoms in a ball of radius 4, types drawn uniformly, and poses rotating the
/// ligand by any angles and moving it up to 18 from the protein's centre: some poses bury the
/// ligand, some leave it touching the surface (energies of either sign) or clear of it.
inline Inputs inputs() {
  Inputs in;
  in.protein_xyz.resize(3 * protein_atoms);
  in.protein_type.resize(protein_atoms);
  for (std::size_t i = 0; i < protein_atoms; ++i) {
    in_ball(13.0, compute::uniform(i, 20), compute::uniform(i, 21), compute::uniform(i, 22),
            &in.protein_xyz[3 * i]);
    in.protein_type[i] = static_cast<std::int32_t>(atom_types * compute::uniform(i, 23));
  }
  in.ligand_xyz.resize(3 * ligand_atoms);
  in.ligand_type.resize(ligand_atoms);
  for (std::size_t i = 0; i < ligand_atoms; ++i) {
    in_ball(4.0, compute::uniform(i, 24), compute::uniform(i, 25), compute::uniform(i, 26),
            &in.ligand_xyz[3 * i]);
    in.ligand_type[i] = static_cast<std::int32_t>(atom_types * compute::uniform(i, 27));
  }
  // radius, hphb (< 0: H-bonding, > 0: hydrophobic), elsc (charge)
  in.forcefield = {1.60f, -1.00f, -0.50f,  //
                   1.65f, -0.50f, 0.50f,   //
                   1.90f, 0.00f,  0.00f,   //
                   1.85f, 0.50f,  0.00f,   //
                   2.00f, 1.00f,  0.00f,   //
                   1.55f, -0.80f, 0.30f,   //
                   1.80f, 0.70f,  -0.30f,  //
                   1.70f, 0.30f,  0.00f};
  in.poses.resize(6 * poses);
  for (std::size_t p = 0; p < poses; ++p) {
    float shift[3];
    in_ball(18.0, compute::uniform(p, 33), compute::uniform(p, 34), compute::uniform(p, 35), shift);
    for (std::size_t k = 0; k < 3; ++k) {
      in.poses[k * poses + p] = static_cast<float>(2.0 * M_PI * compute::uniform(p, 30 + k));
      in.poses[(3 + k) * poses + p] = shift[k];
    }
  }
  return in;
}

}  // namespace spvjit::bench::docking
