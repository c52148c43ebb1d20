// The saxpy element types and the 11 sizes of KA's saxpy benchmark (as in the reference table:
// not every power of two between 64 and 2^20), shared by the spvjit and OpenMP cases.
#pragma once

#include <cstddef>
#include <type_traits>

#include "spvjit/types.hpp"

namespace spvjit::bench {

inline constexpr std::size_t saxpy_sizes[] = {64,    256,   512,   1024,   2048,   4096,
                                              16384, 32768, 65536, 262144, 1048576};

/// KA's (Julia's) name of an element type: "Float16", "Float32", "Float64".
template <class T>
constexpr const char* julia_name() {
  if constexpr (sizeof(T) == 2) {
    return "Float16";
  } else if constexpr (sizeof(T) == 4) {
    return "Float32";
  } else {
    return "Float64";
  }
}

/// Bytes one saxpy over n elements moves: read X and Y, write Z.
template <class T>
constexpr double saxpy_bytes(std::size_t n) {
  return 3.0 * static_cast<double>(n) * sizeof(T);
}

/// An element from a double (Float16: rounded to nearest even) and back.
template <class T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, half>) {
    return to_half(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}
template <class T>
double to_double(T v) {
  if constexpr (std::is_same_v<T, half>) {
    return to_float(v);
  } else {
    return static_cast<double>(v);
  }
}

/// Inputs every saxpy case uses; small integers and halves, exact in Float16 too.
inline double saxpy_x(std::size_t i) { return static_cast<double>(i % 17); }
inline double saxpy_y(std::size_t i) { return static_cast<double>(i % 13) * 0.5; }
inline constexpr float saxpy_a = 2.0f;

}  // namespace spvjit::bench
