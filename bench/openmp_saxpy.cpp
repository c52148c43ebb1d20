#include "bench/openmp_saxpy.hpp"

#include <bit>

namespace spvjit::bench::openmp {

void saxpy(half* z, const half* x, const half* y, float a, std::size_t n) {
  // _Float16 converts with the hardware's round-to-nearest-even (F16C under -march=native).
  const auto* xs = reinterpret_cast<const std::uint16_t*>(x);
  const auto* ys = reinterpret_cast<const std::uint16_t*>(y);
  auto* zs = reinterpret_cast<std::uint16_t*>(z);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const float xi = static_cast<float>(std::bit_cast<_Float16>(xs[i]));
    const float yi = static_cast<float>(std::bit_cast<_Float16>(ys[i]));
    zs[i] = std::bit_cast<std::uint16_t>(static_cast<_Float16>(a * xi + yi));
  }
}

void saxpy(float* z, const float* x, const float* y, float a, std::size_t n) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) z[i] = a * x[i] + y[i];
}

void saxpy(double* z, const double* x, const double* y, double a, std::size_t n) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) z[i] = a * x[i] + y[i];
}

}  // namespace spvjit::bench::openmp
