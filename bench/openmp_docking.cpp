// The loop of bench/openmp_docking.hpp, written once and compiled twice: included by
// openmp_docking_exact.cpp and openmp_docking_fast.cpp, each of which names the namespace
// (SPVJIT_OPENMP_DOCKING_NAMESPACE) and gets its own flags in bench/CMakeLists.txt. Not a
// translation unit of its own. The operations and their order are bench/bench_docking.cpp's
// kernel's.
#ifndef SPVJIT_OPENMP_DOCKING_NAMESPACE
#error "openmp_docking.cpp is included by openmp_docking_{exact,fast}.cpp, not compiled alone"
#endif

#include <cmath>

#include "bench/docking_cases.hpp"
#include "bench/openmp_docking.hpp"

namespace spvjit::bench::openmp::SPVJIT_OPENMP_DOCKING_NAMESPACE {

void docking(float* energies, const float* protein_xyz, const std::int32_t* protein_type,
             std::size_t np, const float* ligand_xyz, const std::int32_t* ligand_type,
             std::size_t nl, const float* forcefield, const float* poses, std::size_t nposes) {
  constexpr std::size_t ppwi = docking::openmp_poses_per_iteration;
#pragma omp parallel for schedule(static)
  for (std::size_t group = 0; group < nposes / ppwi; ++group) {
    float transform[ppwi][3][4];
    float etot[ppwi];
    for (std::size_t j = 0; j < ppwi; ++j) {
      const std::size_t p = group * ppwi + j;
      const float sx = std::sin(poses[p]), cx = std::cos(poses[p]);
      const float sy = std::sin(poses[nposes + p]), cy = std::cos(poses[nposes + p]);
      const float sz = std::sin(poses[2 * nposes + p]), cz = std::cos(poses[2 * nposes + p]);
      transform[j][0][0] = cy * cz;
      transform[j][0][1] = sx * sy * cz - cx * sz;
      transform[j][0][2] = cx * sy * cz + sx * sz;
      transform[j][0][3] = poses[3 * nposes + p];
      transform[j][1][0] = cy * sz;
      transform[j][1][1] = sx * sy * sz + cx * cz;
      transform[j][1][2] = cx * sy * sz - sx * cz;
      transform[j][1][3] = poses[4 * nposes + p];
      transform[j][2][0] = -sy;
      transform[j][2][1] = sx * cy;
      transform[j][2][2] = cx * cy;
      transform[j][2][3] = poses[5 * nposes + p];
      etot[j] = 0.0f;
    }
    for (std::size_t l = 0; l < nl; ++l) {
      const float x = ligand_xyz[3 * l], y = ligand_xyz[3 * l + 1], z = ligand_xyz[3 * l + 2];
      const std::int32_t lt = ligand_type[l];
      const float l_radius = forcefield[3 * lt], l_hphb = forcefield[3 * lt + 1],
                  l_elsc = forcefield[3 * lt + 2];
      float lx[ppwi], ly[ppwi], lz[ppwi];
      for (std::size_t j = 0; j < ppwi; ++j) {
        lx[j] = transform[j][0][0] * x + transform[j][0][1] * y + transform[j][0][2] * z +
                transform[j][0][3];
        ly[j] = transform[j][1][0] * x + transform[j][1][1] * y + transform[j][1][2] * z +
                transform[j][1][3];
        lz[j] = transform[j][2][0] * x + transform[j][2][1] * y + transform[j][2][2] * z +
                transform[j][2][3];
      }
      for (std::size_t a = 0; a < np; ++a) {
        const float px = protein_xyz[3 * a], py = protein_xyz[3 * a + 1],
                    pz = protein_xyz[3 * a + 2];
        const std::int32_t pt = protein_type[a];
        const float p_radius = forcefield[3 * pt], p_hphb = forcefield[3 * pt + 1],
                    p_elsc = forcefield[3 * pt + 2];
        // What depends on the two atoms' types only.
        const float r_sum = p_radius + l_radius;
        const bool polar = p_hphb < 0.0f && l_hphb < 0.0f;
        const bool like = polar || (p_hphb > 0.0f && l_hphb > 0.0f);
        const float range = polar ? docking::hbond_range : docking::hphob_range;
        const float hphb_strength = like ? -(std::fabs(p_hphb) + std::fabs(l_hphb))
                                         : docking::desolvation * std::fabs(p_hphb - l_hphb);
        const float charge = docking::elec_scale * p_elsc * l_elsc;
        const float desolv_strength =
            like ? 0.0f : docking::desolvation * (std::fabs(p_elsc) + std::fabs(l_elsc));
#pragma omp simd
        for (std::size_t j = 0; j < ppwi; ++j) {
          const float dx = lx[j] - px, dy = ly[j] - py, dz = lz[j] - pz;
          const float d = std::sqrt(dx * dx + dy * dy + dz * dz);
          const float b = d - r_sum;
          const bool inside = b < 0.0f;
          // Every term computed, then selected: branch-free, as the kernels' selects.
          const float steric_inside = docking::hardness * (1.0f - d / r_sum);
          const float hfall_outside = 1.0f - b / range;
          const float efall_outside = 1.0f - b / docking::elec_range;
          const float steric = inside ? steric_inside : 0.0f;
          const float hfall = inside ? 1.0f : hfall_outside;
          const float hphb = b < range ? hphb_strength * hfall : 0.0f;
          const float efall = inside ? 1.0f : efall_outside;
          const bool in_elec = b < docking::elec_range;
          const float elec = in_elec ? charge * efall : 0.0f;
          const float desolv = in_elec ? desolv_strength * efall : 0.0f;
          etot[j] += steric + hphb + elec + desolv;
        }
      }
    }
    for (std::size_t j = 0; j < ppwi; ++j) energies[group * ppwi + j] = 0.5f * etot[j];
  }
}

}  // namespace spvjit::bench::openmp::SPVJIT_OPENMP_DOCKING_NAMESPACE
