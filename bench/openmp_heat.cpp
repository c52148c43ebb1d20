#include "bench/openmp_heat.hpp"

namespace spvjit::bench::openmp {

void heat2d_step(float* unew, const float* u, std::size_t n, std::size_t m, float alpha) {
  if (n < 3 || m < 3) return;  // no interior
#pragma omp parallel for schedule(static)
  for (std::size_t j = 1; j < m - 1; ++j) {
    const float* c = u + j * n;  // column j and its two neighbours
    const float* west = c - n;
    const float* east = c + n;
    float* out = unew + j * n;
#pragma omp simd
    for (std::size_t i = 1; i < n - 1; ++i) {
      out[i] = c[i] + alpha * (c[i - 1] + c[i + 1] + west[i] + east[i] - 4.0f * c[i]);
    }
  }
}

void heat3d_step(float* unew, const float* u, std::size_t n, std::size_t m, std::size_t p,
                 float alpha) {
  if (n < 3 || m < 3 || p < 3) return;  // no interior
  const std::size_t plane = n * m;
#pragma omp parallel for schedule(static)
  for (std::size_t k = 1; k < p - 1; ++k) {
    for (std::size_t j = 1; j < m - 1; ++j) {
      const float* c = u + j * n + k * plane;  // line (j, k) and its four neighbours
      const float* west = c - n;
      const float* east = c + n;
      const float* below = c - plane;
      const float* above = c + plane;
      float* out = unew + j * n + k * plane;
#pragma omp simd
      for (std::size_t i = 1; i < n - 1; ++i) {
        out[i] = c[i] + alpha * (c[i - 1] + c[i + 1] + west[i] + east[i] + below[i] + above[i] -
                                 6.0f * c[i]);
      }
    }
  }
}

}  // namespace spvjit::bench::openmp
