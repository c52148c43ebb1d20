// LLVM module -> SPIR-V words, with SPIRV-LLVM-Translator linked in (never the llvm-spirv
// program).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// Validates `module` (validate.hpp) with its entry points `kernel_name` and `other_kernels`,
/// then translates it to SPIR-V 1.2. Throws TranslationError for anything the translator would
/// reject.
std::vector<std::uint32_t> translate_to_spirv(llvm::Module& module, const std::string& kernel_name,
                                              std::span<const std::string> other_kernels = {});

}  // namespace spvjit::detail
