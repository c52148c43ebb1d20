#include "bench/openmp_matmul.hpp"

#include <algorithm>
#include <stdexcept>

namespace spvjit::bench::openmp {

namespace {
constexpr std::size_t max_tile = 64;
}

void tiled_matmul(float* c, const float* a, const float* b, std::size_t n, std::size_t p,
                  std::size_t m, std::size_t tile) {
  if (tile == 0 || tile > max_tile) throw std::invalid_argument("tiled_matmul: tile 1 to 64");
  const std::size_t row_blocks = (n + tile - 1) / tile, col_blocks = (m + tile - 1) / tile;
#pragma omp parallel for schedule(static)
  for (std::size_t block = 0; block < row_blocks * col_blocks; ++block) {
    const std::size_t i0 = block / col_blocks * tile, j0 = block % col_blocks * tile;
    const std::size_t i1 = std::min(i0 + tile, n), j1 = std::min(j0 + tile, m);
    float acc[max_tile][max_tile];  // only the block's corner is used: zero just that
    for (std::size_t i = 0; i < i1 - i0; ++i) std::fill(acc[i], acc[i] + (j1 - j0), 0.0f);
    for (std::size_t k0 = 0; k0 < p; k0 += tile) {
      const std::size_t k1 = std::min(k0 + tile, p);
      for (std::size_t i = i0; i < i1; ++i) {
        for (std::size_t k = k0; k < k1; ++k) {
          const float aik = a[i * p + k];
          float* row = acc[i - i0];
          const float* brow = b + k * m;
          for (std::size_t j = j0; j < j1; ++j) row[j - j0] += aik * brow[j];
        }
      }
    }
    for (std::size_t i = i0; i < i1; ++i) {
      std::copy(acc[i - i0], acc[i - i0] + (j1 - j0), c + i * m + j0);
    }
  }
}

}  // namespace spvjit::bench::openmp
