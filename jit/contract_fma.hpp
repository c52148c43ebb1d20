// PoCL 6.0's CPU kernel library defines fma (llvm.fma inside) in a function marked
// "no-builtins" and not always-inline; LLVM does not inline such a function into a kernel
// without that attribute, which SPIR-V kernels never have. So every fma of a spvjit kernel
// was a call (push, fma, pop, ret, with the arguments through the stack's ABI): a matmul inner
// loop ran 10x slower than with a separate multiply and add. Where the device has hardware FMA,
// the fma calls are written instead as a multiply and an add both marked `contract` (carried
// by SPV_INTEL_fp_fast_math_mode), which PoCL's code generator fuses into one FMA instruction:
// the same single rounding, inline.
#pragma once

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// Rewrites every call of llvm.fma or of OpenCL's fma builtin (`_Z3fma...`) on float (scalar
/// or vector) when `f32`, on double when `f64`, as `fadd contract (fmul contract a, b), c`.
/// Returns how many calls it rewrote.
unsigned contract_fma(llvm::Module& m, bool f32, bool f64);

}  // namespace spvjit::detail
