// Specialization: a KernelDef's module made concrete for one set of static sizes. The builder
// leaves marker calls (ir/kernel_module.hpp) where sizes are read; here each becomes a constant
// (static) or a read of the hidden ndrange arguments / get_local_size (dynamic).
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <memory>

#include "ir/kernel_module.hpp"
#include "spvjit/kernel.hpp"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace spvjit::detail {

/// A call of the OpenCL work-item function `mangled` (`_Z13get_global_idj`, ...) of dimension
/// `dim`, declared in `m` as the translator wants it (SPIR calling convention, readnone).
llvm::Value* builtin_call(llvm::IRBuilder<>& b, llvm::Module& m, const char* mangled, unsigned dim);

/// Parses the definition into `context` (typed pointers) and applies `spec`.
std::unique_ptr<llvm::Module> specialize(llvm::LLVMContext& context, const KernelModule& def,
                                         const Specialization& spec);

}  // namespace spvjit::detail
