// How far apart two floats are in units in the last place, for the math tests' accuracy bounds.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace spvjit::test {

/// How many representable values lie between a and b (0 when both are NaN; the largest
/// int64_t when only one is).
template <class F>
std::int64_t ulp_distance(F a, F b) {
  using I = std::conditional_t<sizeof(F) == 4, std::int32_t, std::int64_t>;
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<std::int64_t>::max();
  // The bits as a number that orders every float, negatives below zero.
  auto ordered = [](F v) {
    const I i = std::bit_cast<I>(v);
    return i < 0 ? static_cast<std::int64_t>(std::numeric_limits<I>::min()) - i
                 : static_cast<std::int64_t>(i);
  };
  const std::int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

}  // namespace spvjit::test
