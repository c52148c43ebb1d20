#include "bench/naive_matmul.hpp"

namespace spvjit::bench::naive {

void matmul(float* c, const float* a, const float* b, std::size_t n, std::size_t p, std::size_t m) {
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < m; ++j) {
      float acc = 0.0f;
      for (std::size_t k = 0; k < p; ++k) acc += a[i * p + k] * b[k * m + j];
      c[i * m + j] = acc;
    }
  }
}

}  // namespace spvjit::bench::naive
