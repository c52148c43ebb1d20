#include "bench/openmp_waterlily.hpp"

namespace spvjit::bench::openmp {

void waterlily_mult(float* z, const float* L, const float* D, const float* x, std::size_t n,
                    std::size_t m) {
  if (n < 3 || m < 3) return;   // no interior
  const float* L1 = L;          // faces in dimension 0
  const float* L2 = L + n * m;  // faces in dimension 1
#pragma omp parallel for schedule(static)
  for (std::size_t j = 1; j < m - 1; ++j) {
    const std::size_t col = j * n;
#pragma omp simd
    for (std::size_t i = 1; i < n - 1; ++i) {
      const std::size_t at = col + i;
      float s = x[at] * D[at];
      s += x[at - 1] * L1[at] + x[at + 1] * L1[at + 1];
      s += x[at - n] * L2[at] + x[at + n] * L2[at + n];
      z[at] = s;
    }
  }
}

}  // namespace spvjit::bench::openmp
