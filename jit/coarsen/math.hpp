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

/// Which math builtins a coarsened kernel calls in their vector forms.
enum class VectorMath {
  /// Only the exactly specified ones (fabs, floor, fma, fmin, integer min/max/abs/popcount, ...)
  /// and sqrt: on a PoCL without patch 0014, the vector exp, exp2, log1p, sin, cos, tan, ...
  /// differ from the scalar ones by an ulp or more (measured), so the rest run once per lane.
  exact_only,
  /// Every math builtin of OpenCL.std's list: the device computes each function with one
  /// algorithm at every vector width (PoCL with patch 0014, "+spvjit-vector-math").
  every_function,
};

/// Whether the builtin's vector form gives the scalar form's bits lane by lane on a device that
/// computes `math`.
bool vector_form_same_bits(const llvm::CallInst& call, VectorMath math);

/// Whether a coarsened kernel calls `call`, a math builtin with a vector form, once per lane:
/// its vector form would not give the scalar form's bits on a device that computes `math`. The
/// analysis (which widths the calls need), the vectorizer and the log all ask this.
bool called_per_lane(const llvm::CallInst& call, VectorMath math);

}  // namespace spvjit::detail
