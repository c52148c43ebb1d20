// The C++ matmul a programmer writes first: three loops, k innermost, one thread, compiled on
// its own with -O3 -march=native (bench/CMakeLists.txt). Without -ffast-math the k reduction
// stays in order, as in the kernels, so all give the same bits.
#pragma once

#include <cstddef>

namespace spvjit::bench::naive {

/// C (n x m) = A (n x p) * B (p x m), row-major.
void matmul(float* c, const float* a, const float* b, std::size_t n, std::size_t p, std::size_t m);

}  // namespace spvjit::bench::naive
