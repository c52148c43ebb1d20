// The tiled matmul a C++ programmer writes with OpenMP beside a tiled kernel (issue #52, step 5):
// C in tile x tile blocks shared out over the threads, each block summed over k a tile at a time
// with the j loop innermost (unit stride, vectorized by -O3 -march=native; bench/CMakeLists.txt).
// The inputs are small integers (bench/matmul_inputs.hpp), so every order of the sums gives the
// same bits as the kernels.
#pragma once

#include <cstddef>

namespace spvjit::bench::openmp {

/// C (n x m) = A (n x p) * B (p x m), row-major, in `tile` x `tile` blocks (1 to 64).
void tiled_matmul(float* c, const float* a, const float* b, std::size_t n, std::size_t p,
                  std::size_t m, std::size_t tile);

}  // namespace spvjit::bench::openmp
