// PoCL built for x86-64-v3 returns garbage from builtins called on 512-bit vectors (sqrt of a
// float16, fabs of a double8: measured), while 256-bit calls are exact. So on CPU devices the
// JIT splits such calls into calls on 256-bit pieces and joins the results; the user's
// Vec<float, 16> stays one value everywhere else.
#pragma once

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// The widest vector a builtin call may take on a CPU device, in bits.
inline constexpr unsigned max_builtin_vector_bits = 256;

/// Rewrites every call of an OpenCL builtin (`_Z...Dv16_f...`, or an LLVM intrinsic the
/// translator makes one of: llvm.minnum, llvm.fabs, ...) whose operands and result are one
/// vector type wider than `max_bits` into calls on pieces of `max_bits`; returns how many calls
/// it split.
unsigned split_wide_builtin_calls(llvm::Module& m, unsigned max_bits);

}  // namespace spvjit::detail
