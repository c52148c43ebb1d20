// Checks a module against what SPIRV-LLVM-Translator 15 accepts before translating it: the
// translator answers some unsupported input with std::exit (a wrong triple, an unknown
// intrinsic), so everything it would reject must be caught here first, with a clear reason.
#pragma once

#include <span>
#include <string>

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// The module as LLVM IR text, for TranslationError.
std::string module_text(const llvm::Module& module);

/// Throws TranslationError naming the first problem found in `module`, whose entry points are
/// `kernel_name` and `other_kernels` (the rest of a raw module's kernels, built with it).
void validate_for_spirv(llvm::Module& module, const std::string& kernel_name,
                        std::span<const std::string> other_kernels = {});

}  // namespace spvjit::detail
