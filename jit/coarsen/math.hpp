// The vector form of a math builtin call: the builder names OpenCL builtins `_Z<len><name>`
// followed by one type code per operand, every operand of the result's type (`_Z3fmafff`). Its
// W-wide form takes vectors, mangled with Itanium substitutions (`_Z3fmaDv8_fS_S_`,
// `_Z5ldexpDv8_fDv8_i`).
#pragma once

#include <string>

#include <llvm/IR/IRBuilder.h>

#include "ir/half_bits.hpp"  // float_to_half_bits, half_bits_to_float

namespace llvm {
class CallInst;
}

namespace spvjit::detail {

/// The mangled name of `call`'s builtin over `width`-wide vectors; empty when the call is not
/// such a builtin (pointers, an unknown spelling, or mixed operand types other than the i32
/// exponent of ldexp, pown and rootn and the i32 result of ilogb).
std::string vector_math_name(const llvm::CallInst& call, unsigned width);

/// Whether `call` is an LLVM intrinsic that takes and returns one type and has an exact
/// vector form (minnum, maxnum, fabs, ...): the builder's float min/max are llvm.minnum/maxnum.
bool vector_intrinsic(const llvm::CallInst& call);

/// Whether the builtin's vector form gives the scalar form's bits lane by lane. True for the
/// exactly specified functions (fabs, floor, fma, fmin, integer min/max/abs/popcount, ...)
/// and sqrt; PoCL's vector exp, exp2, log1p, sin, cos and tan differ from its scalar ones by an
/// ulp or more (measured), so the rest are called once per lane.
bool vector_form_exact(const llvm::CallInst& call);

}  // namespace spvjit::detail
