// LLVM module -> SPIR-V words: validated here, translated by spvjit-translate, spvjit's own
// program around SPIRV-LLVM-Translator (tools/spvjit_translate.cpp), so that the
// translator's std::exit and crashes never reach the host.
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
