// The vector form of a math builtin call: the builder names OpenCL builtins `_Z<len><name>`
// followed by one type code per operand, every operand of the result's type (`_Z3fmafff`). Its
// W-wide form takes vectors, mangled with Itanium substitutions (`_Z3fmaDv8_fS_S_`).
#pragma once

#include <string>

namespace llvm {
class CallInst;
}

namespace spvjit::detail {

/// The mangled name of `call`'s builtin over `width`-wide vectors; empty when the call is not
/// such a builtin (mixed operand types, pointers, or an unknown spelling).
std::string vector_math_name(const llvm::CallInst& call, unsigned width);

}  // namespace spvjit::detail
