// The matmul every sgemm case multiplies (spvjit's kernels and the OpenBLAS and Halide
// baselines): N x N row-major matrices of small integers, so that every sum is exact in f32 and
// every implementation, whatever its order of additions or its FMAs, must give the same bits.
#pragma once

#include <cstddef>
#include <vector>

#include "bench/naive_matmul.hpp"

namespace spvjit::bench {

inline constexpr std::size_t sgemm_sizes[] = {256, 512, 1024};

/// Floating-point operations of one N x N product (a multiply and an add per term).
inline double matmul_flops(std::size_t n) {
  const auto d = static_cast<double>(n);
  return 2.0 * d * d * d;
}

struct MatmulInputs {
  explicit MatmulInputs(std::size_t n) : n(n), a(n * n), b(n * n) {
    for (std::size_t i = 0; i < n * n; ++i) {
      a[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
      b[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
    }
  }
  /// A * B by the naive C++ loop (computed once, on first use: ~1 s at 1024).
  const std::vector<float>& expected() {
    if (product.empty()) {
      product.resize(n * n);
      naive::matmul(product.data(), a.data(), b.data(), n, n, n);
    }
    return product;
  }

  std::size_t n;
  std::vector<float> a, b;

 private:
  std::vector<float> product;
};

}  // namespace spvjit::bench
