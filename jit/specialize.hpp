// Specialization: a KernelDef's module made concrete for one set of static sizes. The builder
// leaves marker calls (ir/kernel_module.hpp) where sizes are read; here each becomes a constant
// (static) or a read of the hidden ndrange arguments / get_local_size (dynamic).
#pragma once

#include <memory>

#include "ir/kernel_module.hpp"
#include "spvjit/kernel.hpp"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace spvjit::detail {

/// Parses the definition into `context` (typed pointers) and applies `spec`.
std::unique_ptr<llvm::Module> specialize(llvm::LLVMContext& context, const KernelModule& def,
                                         const Specialization& spec);

}  // namespace spvjit::detail
