// The OpenMP baseline of apps/heat2d and apps/heat3d: one explicit heat-diffusion step as a C++
// programmer writes it, compiled on its own with -O3 -march=native (bench/CMakeLists.txt; see
// there for -ffp-contract=off). The same arithmetic in the same order as examples::heat2d_step
// and heat3d_step, so both give the same bits.
#pragma once

#include <cstddef>

namespace spvjit::bench::openmp {

/// unew(i, j) = u(i, j) + alpha * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - 4 u(i, j)) on
/// the interior of column-major n x m grids (element i + j * n); boundary cells untouched.
/// `parallel for` over j, `simd` over i, on every OpenMP thread.
void heat2d_step(float* unew, const float* u, std::size_t n, std::size_t m, float alpha);

/// The 7-point variant over n x m x p grids (element i + n * (j + m * k)): `parallel for` over
/// k, `simd` over i.
void heat3d_step(float* unew, const float* u, std::size_t n, std::size_t m, std::size_t p,
                 float alpha);

}  // namespace spvjit::bench::openmp
