// The OpenMP baseline of apps/waterlily_mult: WaterLily.jl's Poisson product as a C++
// programmer writes it, compiled on its own with -O3 -march=native -ffp-contract=off
// (bench/CMakeLists.txt). The same arithmetic in the same order as examples::waterlily_mult,
// so both give the same bits.
#pragma once

#include <cstddef>

namespace spvjit::bench::openmp {

/// z(i, j) = x(i, j) D(i, j) + (x(i-1, j) L(i, j, 0) + x(i+1, j) L(i+1, j, 0))
///                           + (x(i, j-1) L(i, j, 1) + x(i, j+1) L(i, j+1, 1))
/// on the interior of column-major n x m fields (element i + j * n; L's face d at
/// i + n * (j + m * d)), WaterLily's inside(z); other cells untouched. `parallel for` over j,
/// `simd` over i, on every OpenMP thread.
void waterlily_mult(float* z, const float* L, const float* D, const float* x, std::size_t n,
                    std::size_t m);

}  // namespace spvjit::bench::openmp
