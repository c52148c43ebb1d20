// The SPIR-V translator 15 writes OpCapability FPFastMathModeINTEL for a `contract` flag
// (mul_add, ir/values.cpp) but not the OpExtension that capability requires, so spirv-val
// rejects the module (PoCL reads it either way). This adds the declaration.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace spvjit::detail {

/// `spirv` (a SPIR-V binary as bytes) with OpExtension "SPV_INTEL_fp_fast_math_mode" after its
/// capabilities, when it declares OpCapability FPFastMathModeINTEL without the extension;
/// otherwise `spirv` unchanged.
inline std::string declare_fast_math_extension(const std::string& spirv) {
  constexpr std::uint32_t op_capability = 17, op_extension = 10, fast_math_capability = 5837;
  constexpr std::string_view name = "SPV_INTEL_fp_fast_math_mode";
  if (spirv.size() % 4 != 0 || spirv.size() < 20) return spirv;
  std::vector<std::uint32_t> words(spirv.size() / 4);
  std::memcpy(words.data(), spirv.data(), spirv.size());
  bool needed = false;
  std::size_t after_capabilities = 5;  // past the header
  for (std::size_t at = 5; at < words.size();) {
    const std::uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) return spirv;
    if (opcode == op_capability && count == 2 && words[at + 1] == fast_math_capability)
      needed = true;
    if (opcode == op_extension && (count - 1) * 4 > name.size() &&
        std::memcmp(&words[at + 1], name.data(), name.size()) == 0 &&
        reinterpret_cast<const char*>(&words[at + 1])[name.size()] == '\0') {
      return spirv;  // declared already
    }
    if (opcode == op_capability) after_capabilities = at + count;
    if (opcode != op_capability && opcode != op_extension) break;
    at += count;
  }
  if (!needed) return spirv;
  std::vector<std::uint32_t> literal((name.size() + 4) / 4, 0);  // NUL-terminated, padded
  std::memcpy(literal.data(), name.data(), name.size());
  std::vector<std::uint32_t> instruction{static_cast<std::uint32_t>((literal.size() + 1) << 16) |
                                         op_extension};
  instruction.insert(instruction.end(), literal.begin(), literal.end());
  words.insert(words.begin() + static_cast<std::ptrdiff_t>(after_capabilities), instruction.begin(),
               instruction.end());
  return std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4);
}

}  // namespace spvjit::detail
