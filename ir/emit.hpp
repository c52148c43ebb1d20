// The operations shared by scalar values (ir/values.cpp, ir/math.cpp) and vector values
// (ir/vector.cpp): LLVM's instructions take scalars and vectors alike, so the checks and the
// instruction choice live here once, and each face adds only its own shape checks.
#pragma once

#include <string>

#include "common/error_report.hpp"
#include "ir/state.hpp"
#include "spvjit/math.hpp"
#include "spvjit/pointer.hpp"

namespace spvjit::detail {

/// `a op b` on values of element type `t` (scalars, or vectors of one shape); throws UserError
/// naming `what` when `op` is not defined for `t`.
llvm::Value* emit_binary(BuilderState& s, BinaryOp op, Scalar t, llvm::Value* a, llvm::Value* b,
                         const std::string& what);
/// `a * b + c` on floats of element type `t`, the multiply and the add marked `contract`: the
/// code generator may fuse them into one FMA (OpenCL C's a*b+c under FP_CONTRACT ON).
llvm::Value* emit_mul_add(BuilderState& s, Scalar t, llvm::Value* a, llvm::Value* b, llvm::Value* c,
                          const std::string& what);
/// The comparison's i1 (or vector of i1).
llvm::Value* emit_compare(BuilderState& s, CompareOp op, Scalar t, llvm::Value* a, llvm::Value* b);
/// The conversion of `x` (element type `from`) to element type `to`, same shape.
llvm::Value* emit_cast(BuilderState& s, llvm::Value* x, Scalar from, Scalar to);
/// cast()'s float-to-integer conversion behind a check (ir/bounds.hpp) that the value
/// truncates into `to`'s range; finish() and JitOptions::bounds_checks remove it like the others.
llvm::Value* emit_checked_float_to_int(BuilderState& s, llvm::Value* x, Scalar from, Scalar to);
/// bit_cast's and cast_sat's type checks (UserError at `where` naming both types) and their
/// instructions, on scalars and vectors alike (ir/convert.cpp).
void check_bit_cast(const Where& where, Scalar from, Scalar to);
llvm::Value* emit_bit_cast(BuilderState& s, llvm::Value* x, Scalar to);
void check_cast_sat(const Where& where, Scalar from, Scalar to);
llvm::Value* emit_cast_sat(BuilderState& s, llvm::Value* x, Scalar from, Scalar to);
const char* compare_name(CompareOp op);
/// An element index as i64 (sign- or zero-extended by its type); throws UserError naming
/// `what` unless it is an integer of this kernel.
llvm::Value* index64(BuilderState& s, const Value& index, const char* what);
/// The address of element `i` of `p`, or of `field` inside that struct element.
llvm::Value* element_address(BuilderState& s, const Pointer& p, llvm::Value* i,
                             const FieldPath* field);
/// What a math function gave: its value and type, and for the two-result functions (frexp,
/// sincos, ...) the second.
struct MathResults {
  llvm::Value* value = nullptr;
  Scalar type = Scalar::F32;
  llvm::Value* second = nullptr;
  Scalar second_type = Scalar::I32;
};
/// `fn` on `args` (element types `types`, all of `lanes` lanes): checks the count and types,
/// then calls the OpenCL builtin (`_Z4fminff`; 4 lanes: `_Z4fminDv4_fS_`) or builds the
/// relational test inline. `want_pair` says which face called: math() or math_pair(); the
/// other kind of function is refused. Two-result functions take scalars only.
MathResults emit_math(BuilderState& s, MathFn fn, llvm::ArrayRef<llvm::Value*> args,
                      llvm::ArrayRef<Scalar> types, unsigned lanes, bool want_pair);

}  // namespace spvjit::detail
