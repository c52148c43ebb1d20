// PoCL 6.0 returns garbage from builtins called from SPIR-V on vectors wider than its kernel
// library's registers (256 bits when built for x86-64-v3: sqrt of a float16, fabs of a double8,
// vstore_half16; 512 bits for x86-64-v4, where double16 still fails), while OpenCL C source is
// fine. The cause, found in PoCL's lib/kernel/SPIR/generate_spir_wrapper.py: the SPIR wrapper
// stores a wide argument into a stack slot and `tail call`s the library function with the
// slot's pointer but without `byval`, so LLVM may assume the callee does not read the caller's
// stack and deletes the store. So on CPU devices the JIT splits such calls into calls on
// 256-bit pieces and joins the results; the user's Vec<float, 16> stays one value elsewhere.
#pragma once

#include <llvm/IR/Intrinsics.h>

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// The widest vector a builtin call may take on a CPU device, in bits.
inline constexpr unsigned max_builtin_vector_bits = 256;

/// The LLVM intrinsics the translator turns into OpenCL builtin calls (fmin, fabs, ...), each
/// overloaded on its one operand type: what the rewrite below and the coarsening may vectorize.
bool builtin_intrinsic(llvm::Intrinsic::ID id);

/// Rewrites every call of an OpenCL builtin (`_Z...Dv16_f...`, or an LLVM intrinsic the
/// translator makes one of: llvm.minnum, llvm.fabs, ...) whose operands and result are vectors
/// of one lane count (one type for an intrinsic; ldexp's floatn and intn), the widest wider than
/// `max_bits`, into calls on pieces of `max_bits`; returns how many calls it split.
unsigned split_wide_builtin_calls(llvm::Module& m, unsigned max_bits);

}  // namespace spvjit::detail
