// The operations shared by scalar values (ir/values.cpp, ir/math.cpp) and vector values
// (ir/vector.cpp): LLVM's instructions take scalars and vectors alike, so the checks and the
// instruction choice live here once, and each face adds only its own shape checks.
#pragma once

#include <string>

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
const char* compare_name(CompareOp op);
/// An element index as i64 (sign- or zero-extended by its type); throws UserError naming
/// `what` unless it is an integer of this kernel.
llvm::Value* index64(BuilderState& s, const Value& index, const char* what);
/// The address of element `i` of `p`, or of `field` inside that struct element.
llvm::Value* element_address(BuilderState& s, const Pointer& p, llvm::Value* i,
                             const FieldPath* field);
/// Checks `fn`'s argument count and element type; the mangled OpenCL builtin for `lanes` lanes
/// (1: scalar, `_Z4fminff`; 4: `_Z4fminDv4_fS_`).
std::string math_builtin(const BuilderState& s, MathFn fn, Scalar t, std::size_t given,
                         unsigned lanes);

}  // namespace spvjit::detail
