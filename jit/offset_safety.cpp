#include "jit/offset_safety.hpp"

namespace spvjit::detail {

namespace {

// SPIR-V 1.2 numbers (the SPIR-V specification, sections 3.21 and 3.32).
constexpr std::uint32_t op_decorate = 71;
constexpr std::uint32_t decoration_builtin = 11;
constexpr std::uint32_t builtin_num_workgroups = 24;
constexpr std::uint32_t builtin_workgroup_id = 26;
constexpr std::uint32_t builtin_global_size = 31;
constexpr std::uint32_t builtin_global_offset = 33;
constexpr std::uint32_t op_atomic_first = 227;  // OpAtomicLoad ... OpAtomicXor
constexpr std::uint32_t op_atomic_last = 242;
constexpr std::uint32_t op_atomic_flag_test_and_set = 318;
constexpr std::uint32_t op_atomic_flag_clear = 319;
constexpr std::uint32_t op_atomic_fmin_ext = 5614;
constexpr std::uint32_t op_atomic_fmax_ext = 5615;
constexpr std::uint32_t op_atomic_fadd_ext = 6035;
constexpr std::size_t header_words = 5;

std::uint32_t word(std::span<const std::uint8_t> bytes, std::size_t i) noexcept {
  const std::uint8_t* p = bytes.data() + 4 * i;
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}

bool is_atomic(std::uint32_t op) noexcept {
  return (op >= op_atomic_first && op <= op_atomic_last) || op == op_atomic_flag_test_and_set ||
         op == op_atomic_flag_clear || op == op_atomic_fmin_ext || op == op_atomic_fmax_ext ||
         op == op_atomic_fadd_ext;
}

}  // namespace

bool runs_with_offsets(std::span<const std::uint8_t> spirv) noexcept {
  const std::size_t count = spirv.size() / 4;
  if (count <= header_words) return false;
  for (std::size_t i = header_words; i < count;) {
    const std::uint32_t first = word(spirv, i);
    const std::uint32_t length = first >> 16, op = first & 0xffff;
    if (length == 0 || i + length > count) return false;  // malformed: the safe answer
    if (is_atomic(op)) return false;
    if (op == op_decorate && length >= 4 && word(spirv, i + 2) == decoration_builtin) {
      const std::uint32_t builtin = word(spirv, i + 3);
      if (builtin == builtin_num_workgroups || builtin == builtin_workgroup_id ||
          builtin == builtin_global_size || builtin == builtin_global_offset) {
        return false;
      }
    }
    i += length;
  }
  return true;
}

}  // namespace spvjit::detail
