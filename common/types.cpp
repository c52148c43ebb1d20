// Scalar type facts and the half <-> float conversions used on the host side: no LLVM, so here in
// common/, where the runtime's argument packer and the struct layouts use them too.
#include <bit>
#include <cstring>

#include "spvjit/types.hpp"

namespace spvjit {

std::string_view name(Scalar s) noexcept {
  switch (s) {
    case Scalar::Bool:
      return "bool";
    case Scalar::I8:
      return "i8";
    case Scalar::U8:
      return "u8";
    case Scalar::I16:
      return "i16";
    case Scalar::U16:
      return "u16";
    case Scalar::I32:
      return "i32";
    case Scalar::U32:
      return "u32";
    case Scalar::I64:
      return "i64";
    case Scalar::U64:
      return "u64";
    case Scalar::F16:
      return "f16";
    case Scalar::F32:
      return "f32";
    case Scalar::F64:
      return "f64";
  }
  return "?";
}

std::string_view name(AddressSpace a) noexcept {
  switch (a) {
    case AddressSpace::Private:
      return "private";
    case AddressSpace::Global:
      return "global";
    case AddressSpace::Constant:
      return "constant";
    case AddressSpace::Local:
      return "local";
  }
  return "?";
}

unsigned size_of(Scalar s) noexcept {
  switch (s) {
    case Scalar::Bool:
    case Scalar::I8:
    case Scalar::U8:
      return 1;
    case Scalar::I16:
    case Scalar::U16:
    case Scalar::F16:
      return 2;
    case Scalar::I32:
    case Scalar::U32:
    case Scalar::F32:
      return 4;
    case Scalar::I64:
    case Scalar::U64:
    case Scalar::F64:
      return 8;
  }
  return 0;
}

bool is_float(Scalar s) noexcept {
  return s == Scalar::F16 || s == Scalar::F32 || s == Scalar::F64;
}
bool is_signed(Scalar s) noexcept {
  return s == Scalar::I8 || s == Scalar::I16 || s == Scalar::I32 || s == Scalar::I64;
}
bool is_integer(Scalar s) noexcept { return !is_float(s) && s != Scalar::Bool; }

half to_half(float value) noexcept {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  const std::uint32_t exp = (f >> 23) & 0xffu;
  std::uint32_t mant = f & 0x7fffffu;
  if (exp == 0xff) {  // inf or nan; keep nan quiet and non-zero
    return half{static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0))};
  }
  const int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return half{static_cast<std::uint16_t>(sign | 0x7c00u)};  // overflow to inf
  if (e <= 0) {                                                          // subnormal half or zero
    if (e < -10) return half{static_cast<std::uint16_t>(sign)};
    mant |= 0x800000u;
    const unsigned shift = static_cast<unsigned>(14 - e);
    std::uint32_t h = mant >> shift;
    const std::uint32_t rem = mant & ((1u << shift) - 1);
    const std::uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
    return half{static_cast<std::uint16_t>(sign | h)};
  }
  std::uint32_t h = (static_cast<std::uint32_t>(e) << 10) | (mant >> 13);
  const std::uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: correct
  return half{static_cast<std::uint16_t>(sign | h)};
}

float to_float(half value) noexcept {
  const std::uint32_t h = value.bits;
  const std::uint32_t sign = (h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t f;
  if (exp == 0) {
    if (mant == 0) {
      f = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      f = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    f = sign | 0x7f800000u | (mant << 13);
  } else {
    f = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  return std::bit_cast<float>(f);
}

}  // namespace spvjit
