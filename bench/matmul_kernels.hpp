// The two spvjit matmuls of the throughput cases, C (n x m) = A (n x p) * B (p x m) row-major,
// launched over NDRange{m, n}: one output per work-item (element-wise in dimension 0, so the
// JIT coarsens it on a CPU), and the README's 16 x 16 tiled kernel with local memory.
#pragma once

#include "spvjit/kernel_def.hpp"

namespace spvjit::bench {

/// C(row, col) = sum over k of A(row, k) * B(k, col); parameters C, A, B, n, p, m.
KernelDef naive_matmul_kernel();
/// The same product through 16 x 16 tiles in local memory; launch with WorkGroup{16, 16}.
KernelDef tiled_matmul_kernel();
inline constexpr std::size_t matmul_tile = 16;

}  // namespace spvjit::bench
