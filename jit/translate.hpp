// LLVM module -> SPIR-V words, with SPIRV-LLVM-Translator linked in (never the llvm-spirv
// program).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// Validates `module` (validate.hpp), then translates it to SPIR-V 1.2. Throws
/// TranslationError; never lets the translator end the process.
/// `validate` = false is for tests of the isolation itself.
std::vector<std::uint32_t> translate_to_spirv(llvm::Module& module, const std::string& kernel_name,
                                              bool validate = true);

}  // namespace spvjit::detail
