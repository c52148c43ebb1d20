// What the compute-heavy apps/* cases compute (apps/black_scholes, apps/nbody, apps/mandelbrot),
// shared by their three ways (bench/bench_compute.cpp: spvjit; bench/openmp_compute.cpp: OpenMP;
// bench/opencl_compute.cpp: OpenCL C): the math modes, the problem sizes and constants, and the
// deterministic inputs. Header-only and free of spvjit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace spvjit::bench::compute {

/// exact: arithmetic as written (spvjit without fastmath, OpenMP with -ffp-contract=off, OpenCL
/// C with FP_CONTRACT off and no options); fast: every way's fast math (kb.fastmath(),
/// -ffast-math, -cl-fast-relaxed-math).
enum class MathMode { exact, fast };

inline const char* to_string(MathMode mode) { return mode == MathMode::exact ? "exact" : "fast"; }

/// A uniform number in [0, 1) for (index, stream): splitmix64's finalizer, 53 bits.
inline double uniform(std::uint64_t index, std::uint64_t stream) {
  std::uint64_t z = index * 0x9e3779b97f4a7c15ull + stream * 0xd1b54a32d192ed03ull + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

// Black-Scholes: a European call and put per option.
constexpr std::size_t black_scholes_options = std::size_t{1} << 20;
constexpr double black_scholes_rate = 0.02;
constexpr double black_scholes_volatility = 0.30;

template <class T>
struct OptionInputs {
  std::vector<T> spot;    // 5 to 30
  std::vector<T> strike;  // 1 to 100
  std::vector<T> years;   // 0.25 to 10
};

template <class T>
OptionInputs<T> black_scholes_inputs() {
  const std::size_t n = black_scholes_options;
  OptionInputs<T> in{std::vector<T>(n), std::vector<T>(n), std::vector<T>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    in.spot[i] = static_cast<T>(5.0 + 25.0 * uniform(i, 1));
    in.strike[i] = static_cast<T>(1.0 + 99.0 * uniform(i, 2));
    in.years[i] = static_cast<T>(0.25 + 9.75 * uniform(i, 3));
  }
  return in;
}

// n-body: each body's acceleration from all bodies (itself included, softened to 0).
constexpr std::size_t nbody_bodies = 4096;
/// The `local` variant's workgroup, and the bodies each of its tiles holds in local memory.
constexpr std::size_t nbody_group = 64;
/// Added to every squared distance (Plummer softening, 0.1^2).
constexpr float nbody_softening2 = 0.01f;

/// x, y, z (in [-1, 1)) and mass (0.5 to 1.5) of body i at 4 i to 4 i + 3.
inline std::vector<float> nbody_positions() {
  std::vector<float> pos(4 * nbody_bodies);
  for (std::size_t i = 0; i < nbody_bodies; ++i) {
    for (std::size_t c = 0; c < 3; ++c)
      pos[4 * i + c] = static_cast<float>(2.0 * uniform(i, 4 + c) - 1.0);
    pos[4 * i + 3] = static_cast<float>(0.5 + uniform(i, 7));
  }
  return pos;
}

// Mandelbrot: the iteration count of every pixel of [-2, 1] x [-1.5, 1.5], row-major.
constexpr std::size_t mandelbrot_width = 1024;
constexpr std::size_t mandelbrot_height = 1024;
constexpr std::int32_t mandelbrot_iterations = 256;
constexpr float mandelbrot_x0 = -2.0f;
constexpr float mandelbrot_y0 = -1.5f;
/// 3 / 1024, exact in float: pixel (px, py) is c = (x0 + px * step, y0 + py * step).
constexpr float mandelbrot_step = 3.0f / 1024.0f;

}  // namespace spvjit::bench::compute
