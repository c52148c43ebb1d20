// The OpenMP baselines of apps/stencil9, apps/stencil27, apps/upwind1d, apps/heat2d_rows and
// apps/rows_damping (issue #65): each step as a C++ programmer writes it, compiled with -O3
// -march=native -ffp-contract=off (bench/CMakeLists.txt) and the same arithmetic in the same
// order as examples::stencil9_2d_step, stencil27_3d_step, upwind1d_step, heat2d_row_major_step
// and rows_damping_step, so both give the same bits. Boundary cells are left as they are.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace spvjit::bench::openmp {

/// The 9-point step on column-major n x m grids (element i + j * n): `parallel for` over j,
/// `simd` over i.
void stencil9_2d_step(float* unew, const float* u, std::size_t n, std::size_t m, float centre,
                      float edge, float corner);

/// The 27-point step on column-major n x m x p grids (element i + n * (j + m * k)), weights by
/// distance (centre, face, edge, corner): `parallel for` over k, `simd` over i.
void stencil27_3d_step(float* unew, const float* u, std::size_t n, std::size_t m, std::size_t p,
                       const std::array<float, 4>& weight);

/// The upwind step of n cells with velocities v and Courant number c: `parallel for simd`.
void upwind1d_step(float* unew, const float* u, const float* v, std::size_t n, float c);

/// heat2d's step on row-major rows x cols grids (element r * cols + c): heat2d_step's loop,
/// `parallel for` over the rows, `simd` over the columns.
void heat2d_rows_step(float* unew, const float* u, std::size_t rows, std::size_t cols, float alpha);

/// examples::rows_damping_step on row-major rows x cols grids: `parallel for` over the rows,
/// `simd` over the columns, the loop of `terms` steps inside.
void rows_damping_step(float* unew, const float* u, std::size_t rows, std::size_t cols,
                       std::int64_t terms);

}  // namespace spvjit::bench::openmp
