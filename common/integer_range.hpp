// The range of an integer kernel type, for the checked float-to-integer conversion
// (ir/convert.cpp) and for the message its failure gives (runtime/bounds_records.cpp): one rule
// for both, so the check and the text that explains it cannot disagree.
#pragma once

#include <cstdint>
#include <string>

#include "spvjit/types.hpp"

namespace spvjit::detail {

/// The least and greatest value of integer type t (i8 to u64), as 128-bit integers.
inline __int128 least_value(Scalar t) {
  return is_signed(t) ? -(static_cast<__int128>(1) << (size_of(t) * 8 - 1)) : 0;
}
inline __int128 greatest_value(Scalar t) {
  const unsigned bits = is_signed(t) ? size_of(t) * 8 - 1 : size_of(t) * 8;
  return (static_cast<__int128>(1) << bits) - 1;
}

/// A value of the range above in decimal: "-9223372036854775808", "18446744073709551615".
inline std::string integer_text(__int128 v) {
  if (v < 0) return "-" + std::to_string(static_cast<std::uint64_t>(-(v + 1)) + 1);
  return std::to_string(static_cast<std::uint64_t>(v));
}

}  // namespace spvjit::detail
