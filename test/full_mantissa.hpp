// Inputs whose every mantissa bit is in use, in [0.5, 1.5): any other order or fusion of the
// arithmetic changes some result's last bit, so tests of "the same bits" can fail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace spvjit::test {

template <class T>
std::vector<T> full_mantissa_values(std::size_t n, std::uint64_t seed) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  constexpr int bits = std::is_same_v<T, float> ? 24 : 53;
  std::vector<T> out(n);
  for (T& x : out) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;  // Knuth's MMIX LCG
    x = T(0.5) + static_cast<T>(seed >> (64 - bits)) / static_cast<T>(std::uint64_t{1} << bits);
  }
  return out;
}

}  // namespace spvjit::test
