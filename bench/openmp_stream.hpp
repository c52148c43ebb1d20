// The OpenMP baseline of apps/stream: the STREAM loops as a C++ programmer writes them,
// compiled on their own with -O3 -march=native -ffp-contract=off (bench/CMakeLists.txt: unfused,
// as spvjit's builder kernels are, so triad gives the same bits on both sides).
#pragma once

#include <cstddef>

namespace spvjit::bench::openmp {

/// `parallel for simd` over i < n on every OpenMP thread, each the STREAM loop of its name.
void stream_copy(double* c, const double* a, std::size_t n);
void stream_scale(double* b, const double* c, double s, std::size_t n);
void stream_add(double* c, const double* a, const double* b, std::size_t n);
void stream_triad(double* a, const double* b, const double* c, double s, std::size_t n);
/// The sum of a[i] * b[i] (`reduction(+)`: each thread's partial sum, then theirs).
double stream_dot(const double* a, const double* b, std::size_t n);
/// The sum of a[i] (`reduction(+)`).
double stream_sum(const double* a, std::size_t n);
/// out[j] = the sum of a[i + j * rows]^2 over i < rows, for j < columns: columns over the
/// threads, each column a `simd reduction(+)`.
void sum_squares_columns(double* out, const double* a, std::size_t rows, std::size_t columns);

}  // namespace spvjit::bench::openmp
