#include "jit/spirv/offset_safety.hpp"

#include <spirv/unified1/spirv.hpp>  // Debian 12: spirv-headers

namespace spvjit::detail {

namespace {

constexpr std::size_t header_words = 5;  // magic, version, generator, bound, schema

std::uint32_t word(std::span<const std::uint8_t> bytes, std::size_t i) noexcept {
  const std::uint8_t* p = bytes.data() + 4 * i;
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}

bool is_atomic(std::uint32_t op) noexcept {
  switch (op) {
    case spv::OpAtomicLoad:
    case spv::OpAtomicStore:
    case spv::OpAtomicExchange:
    case spv::OpAtomicCompareExchange:
    case spv::OpAtomicCompareExchangeWeak:
    case spv::OpAtomicIIncrement:
    case spv::OpAtomicIDecrement:
    case spv::OpAtomicIAdd:
    case spv::OpAtomicISub:
    case spv::OpAtomicSMin:
    case spv::OpAtomicUMin:
    case spv::OpAtomicSMax:
    case spv::OpAtomicUMax:
    case spv::OpAtomicAnd:
    case spv::OpAtomicOr:
    case spv::OpAtomicXor:
    case spv::OpAtomicFlagTestAndSet:
    case spv::OpAtomicFlagClear:
    case spv::OpAtomicFMinEXT:
    case spv::OpAtomicFMaxEXT:
    case spv::OpAtomicFAddEXT:
      return true;
    default:
      return false;
  }
}

// The work-item values an offset launch changes.
bool offset_dependent(std::uint32_t builtin) noexcept {
  switch (builtin) {
    case spv::BuiltInNumWorkgroups:
    case spv::BuiltInWorkgroupId:
    case spv::BuiltInGlobalSize:
    case spv::BuiltInGlobalOffset:
      return true;
    default:
      return false;
  }
}

// Whether `refuses` holds for no instruction of the module (false for a malformed one).
template <class Refuses>
bool no_instruction(std::span<const std::uint8_t> spirv, Refuses refuses) noexcept {
  const std::size_t count = spirv.size() / 4;
  if (count <= header_words) return false;
  for (std::size_t i = header_words; i < count;) {
    const std::uint32_t first = word(spirv, i);
    const std::uint32_t length = first >> spv::WordCountShift, op = first & spv::OpCodeMask;
    if (length == 0 || i + length > count) return false;  // malformed: the safe answer
    if (refuses(op, i, length)) return false;
    i += length;
  }
  return true;
}

}  // namespace

bool free_of_atomics(std::span<const std::uint8_t> spirv) noexcept {
  return no_instruction(spirv,
                        [](std::uint32_t op, std::size_t, std::uint32_t) { return is_atomic(op); });
}

bool runs_with_offsets(std::span<const std::uint8_t> spirv) noexcept {
  return no_instruction(spirv, [&](std::uint32_t op, std::size_t i, std::uint32_t length) {
    return is_atomic(op) ||
           (op == spv::OpDecorate && length >= 4 && word(spirv, i + 2) == spv::DecorationBuiltIn &&
            offset_dependent(word(spirv, i + 3)));
  });
}

}  // namespace spvjit::detail
