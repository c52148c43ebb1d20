// Ready-made kernels: the ones the benchmark suite, the tests and the CLI share.
#pragma once

#include "spvjit/kernel_def.hpp"
#include "spvjit/types.hpp"

namespace spvjit::examples {

/// Z[i] = a * X[i] + Y[i] over the ndrange, for element type f16 (float arithmetic), f32 or
/// f64. Parameters: Z, X (const), Y (const), a (f32 for f16, else the element type).
KernelDef saxpy(Scalar element);

/// A[i] = 2 * B[i]: KernelAbstractions' launch-benchmark kernel. 1D, or 3D over a row-major
/// (x fastest) array when `dims` is 3. Parameters: A, B (const).
KernelDef scale(Scalar element, unsigned dims = 1);

}  // namespace spvjit::examples
