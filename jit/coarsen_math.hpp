// The vector form of a math builtin call: the builder names OpenCL builtins `_Z<len><name>`
// followed by one type code per operand, every operand of the result's type (`_Z3fmafff`). Its
// W-wide form takes vectors, mangled with Itanium substitutions (`_Z3fmaDv8_fS_S_`).
#pragma once

#include <string>

#include <llvm/IR/IRBuilder.h>

namespace llvm {
class CallInst;
}

namespace spvjit::detail {

/// The mangled name of `call`'s builtin over `width`-wide vectors; empty when the call is not
/// such a builtin (mixed operand types, pointers, or an unknown spelling).
std::string vector_math_name(const llvm::CallInst& call, unsigned width);

/// Whether `call` is an LLVM intrinsic that takes and returns one type and has an exact
/// vector form (minnum, maxnum, fabs, ...): the builder's float min/max are llvm.minnum/maxnum.
bool vector_intrinsic(const llvm::CallInst& call);

/// Whether the builtin's vector form gives the scalar form's bits lane by lane. True for the
/// exactly specified functions (fabs, floor, fma, fmin, integer min/max/abs/popcount, ...)
/// and sqrt; PoCL's vector exp, exp2, log1p, sin, cos and tan differ from its scalar ones by an
/// ulp or more (measured), so the rest are called once per lane.
bool vector_form_exact(const llvm::CallInst& call);

/// The half bits (a vector of i16) PoCL's scalar vstore_half writes for each float lane:
/// round to nearest even, overflow to infinity, and every NaN to sign | 0x7fff (measured:
/// PoCL's vstore_halfN keeps the payload instead, so it cannot be used).
llvm::Value* float_to_half_bits(llvm::IRBuilder<>& b, llvm::Value* floats);

/// The floats (a vector) PoCL's scalar vload_half gives for half bits (a vector of i16):
/// exact, NaNs quieted with their payload kept (0x7c01 -> 0x7fc02000, measured).
llvm::Value* half_bits_to_float(llvm::IRBuilder<>& b, llvm::Value* halves);

}  // namespace spvjit::detail
