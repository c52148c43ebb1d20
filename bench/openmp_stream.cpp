#include "bench/openmp_stream.hpp"

namespace spvjit::bench::openmp {

void stream_copy(double* c, const double* a, std::size_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i];
}

void stream_scale(double* b, const double* c, double s, std::size_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) b[i] = s * c[i];
}

void stream_add(double* c, const double* a, const double* b, std::size_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

void stream_triad(double* a, const double* b, const double* c, double s, std::size_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

double stream_dot(const double* a, const double* b, std::size_t n) {
  double sum = 0.0;
#pragma omp parallel for simd schedule(static) reduction(+ : sum)
  for (std::size_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

double stream_sum(const double* a, std::size_t n) {
  double sum = 0.0;
#pragma omp parallel for simd schedule(static) reduction(+ : sum)
  for (std::size_t i = 0; i < n; ++i) sum += a[i];
  return sum;
}

void sum_squares_columns(double* out, const double* a, std::size_t rows, std::size_t columns) {
#pragma omp parallel for schedule(static)
  for (std::size_t j = 0; j < columns; ++j) {
    const double* column = a + j * rows;
    double sum = 0.0;
#pragma omp simd reduction(+ : sum)
    for (std::size_t i = 0; i < rows; ++i) sum += column[i] * column[i];
    out[j] = sum;
  }
}

}  // namespace spvjit::bench::openmp
