// `freeze` pins a possibly undef or poison value to one arbitrary value; SPIR-V (and
// SPIRV-LLVM-Translator 15) has no such instruction, and LLVM's -O2 makes it from ordinary
// OpenCL C (loop unswitching, select folding).
#pragma once

#include <string>

namespace llvm {
class Module;
class Value;
}  // namespace llvm

namespace spvjit::detail {

/// Replaces every freeze by its operand (one of the values it may take: poison only where the
/// source's behaviour was undefined); a constant undef or poison operand becomes zero, so that
/// every use still sees the same value.
void drop_freeze(llvm::Module& m);

/// `v` as LLVM prints it, without the leading indentation: what a legalization's refusal quotes.
std::string printed_value(const llvm::Value& v);

}  // namespace spvjit::detail
