// The OpenMP baseline of apps/docking: the docking energy of bench/docking_cases.hpp as a C++
// programmer writes it, one `#pragma omp parallel for` over groups of
// docking::openmp_poses_per_iteration poses (16: one 512-bit vector of floats, where the kernels'
// work-items take docking::ppwi = 4), the poses of a group innermost under `#pragma omp simd`, so
// that GCC vectorizes across them (without the pragma it vectorizes none of the inner loop). The
// exact build stays scalar all the same: without -fno-math-errno, std::sqrt keeps a branch to
// libm's sqrtf (for errno) that GCC does not vectorize; the flags are the compute cases'.
// bench/openmp_docking.cpp holds the loop once; it is compiled twice (bench/CMakeLists.txt), as the
// compute cases' loops are: into namespace `exact` with -O3 -march=native -ffp-contract=off, and
// into namespace `fast` with -O3 -march=native -ffast-math.
#pragma once

#include <cstddef>
#include <cstdint>

namespace spvjit::bench::openmp {

namespace exact {

/// energies[p] = the energy of pose p (of `poses`, laid out as docking::Inputs::poses) of the
/// ligand (nl atoms) against the protein (np atoms), both as docking::Inputs holds them; poses
/// is a multiple of docking::openmp_poses_per_iteration.
void docking(float* energies, const float* protein_xyz, const std::int32_t* protein_type,
             std::size_t np, const float* ligand_xyz, const std::int32_t* ligand_type,
             std::size_t nl, const float* forcefield, const float* poses, std::size_t nposes);

}  // namespace exact

/// The same loop, compiled with -ffast-math.
namespace fast {

void docking(float* energies, const float* protein_xyz, const std::int32_t* protein_type,
             std::size_t np, const float* ligand_xyz, const std::int32_t* ligand_type,
             std::size_t nl, const float* forcefield, const float* poses, std::size_t nposes);

}  // namespace fast

}  // namespace spvjit::bench::openmp
