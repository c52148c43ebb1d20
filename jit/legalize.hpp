// Legalization of raw modules: what LLVM's own optimizers produce from ordinary OpenCL C at -O2
// but SPIR-V (or SPIRV-LLVM-Translator 15) cannot take, rewritten before the module is adopted,
// so that `clang-15 -target spir64 -O2` output compiles. Runs once, in kernel_from_bitcode;
// spvjit's validator (validate.hpp) still refuses whatever is left.
#pragma once

#include <string>

namespace llvm {
class Module;
class Value;
}

namespace spvjit::detail {

/// In order: drops `freeze` (its operand is one of the values it may take; a constant undef or
/// poison becomes zero), expands intrinsics the translator lacks (expand_intrinsics.hpp) and
/// bitcasts between <N x i1> and iN (bool_bitcasts.hpp), scalarizes vectors of lane counts
/// SPIR-V lacks (scalarize_vectors.hpp) and widens odd-width integers (promote_integers.hpp). Throws UserError, starting with `context`, for what it refuses.
void legalize_raw_module(llvm::Module& m, const std::string& context);

/// `v` as LLVM prints it, without the leading indentation: what a refusal quotes.
std::string printed_value(const llvm::Value& v);

}  // namespace spvjit::detail
