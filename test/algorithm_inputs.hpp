// Inputs for the algorithm tests: random, sorted, reversed and all-equal vectors of every
// element type, NaNs and signed zeros among floats; and the shared Algorithms they run on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "spvjit/algorithms.hpp"
#include "test/shared_runtime.hpp"

namespace spvjit::test {

inline Algorithms& algorithms() {
  static Algorithms algs(runtime(), jit());
  return algs;
}

/// n values from a fixed seed: floats in [-1, 1), integers over their whole range.
template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(-1, 1);
    for (auto& x : v) x = d(gen);
  } else {
    std::uniform_int_distribution<std::int64_t> d(std::numeric_limits<T>::lowest(),
                                                  std::numeric_limits<T>::max());
    for (auto& x : v) x = static_cast<T>(d(gen));
  }
  return v;
}

/// The shapes sorts and scans must survive.
enum class Pattern { Random, Sorted, Reversed, AllEqual, FewDistinct };
inline const Pattern all_patterns[] = {Pattern::Random, Pattern::Sorted, Pattern::Reversed,
                                       Pattern::AllEqual, Pattern::FewDistinct};
inline const char* name(Pattern p) {
  switch (p) {
    case Pattern::Random:
      return "random";
    case Pattern::Sorted:
      return "sorted";
    case Pattern::Reversed:
      return "reversed";
    case Pattern::AllEqual:
      return "all-equal";
    case Pattern::FewDistinct:
      return "few-distinct";
  }
  return "?";
}

template <class T>
std::vector<T> pattern_values(Pattern p, std::size_t n, unsigned seed) {
  auto v = random_values<T>(n, seed);
  switch (p) {
    case Pattern::Random:
      break;
    case Pattern::Sorted:
      std::sort(v.begin(), v.end());
      break;
    case Pattern::Reversed:
      std::sort(v.begin(), v.end(), [](T a, T b) { return b < a; });
      break;
    case Pattern::AllEqual:
      std::fill(v.begin(), v.end(), n ? v[0] : T{});
      break;
    case Pattern::FewDistinct:
      // Five values: integers by their remainder (no product that could overflow), floats by
      // a third of their range.
      for (auto& x : v) {
        if constexpr (std::is_floating_point_v<T>) {
          x = static_cast<T>(static_cast<std::int64_t>(x * T(3)) % 5);
        } else {
          x = static_cast<T>(x % 5);
        }
      }
      break;
  }
  return v;
}

/// A copy of `host` in shared memory of the test runtime.
template <class T>
SharedArray<T> shared_copy(const std::vector<T>& host) {
  auto a = allocate_shared<T>(runtime(), host.size());
  std::copy(host.begin(), host.end(), a.begin());
  return a;
}

}  // namespace spvjit::test
