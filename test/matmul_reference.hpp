// Host references for the matmul tests: exact inputs and the product in either layout.
#pragma once

#include <cstddef>
#include <vector>

namespace spvjit::test {

// Integers 0..7: every sum of products stays exact in float, so results compare exactly.
inline std::vector<float> small_ints(std::size_t count, unsigned seed) {
  std::vector<float> v(count);
  for (std::size_t k = 0; k < count; ++k) v[k] = static_cast<float>((k * 7 + seed * 3 + k / 5) % 8);
  return v;
}

// A * B with A n x p and B p x m, both stored column-major (Julia's order) or row-major.
inline std::vector<float> matmul_reference(const std::vector<float>& a, const std::vector<float>& b,
                                           std::size_t n, std::size_t p, std::size_t m,
                                           bool column_major) {
  std::vector<float> c(n * m, 0.0f);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      float acc = 0.0f;
      for (std::size_t k = 0; k < p; ++k) {
        acc += column_major ? a[i + k * n] * b[k + j * p] : a[i * p + k] * b[k * m + j];
      }
      (column_major ? c[i + j * n] : c[i * m + j]) = acc;
    }
  return c;
}

}  // namespace spvjit::test
