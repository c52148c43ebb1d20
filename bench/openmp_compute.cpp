// The loops of bench/openmp_compute.hpp, written once and compiled twice: included by
// openmp_compute_exact.cpp and openmp_compute_fast.cpp, each of which names the namespace
// (SPVJIT_OPENMP_COMPUTE_NAMESPACE) and gets its own flags in bench/CMakeLists.txt. Not a
// translation unit of its own.
#ifndef SPVJIT_OPENMP_COMPUTE_NAMESPACE
#error "openmp_compute.cpp is included by openmp_compute_{exact,fast}.cpp, not compiled alone"
#endif

#include <cmath>

#include "bench/openmp_compute.hpp"

namespace spvjit::bench::openmp::SPVJIT_OPENMP_COMPUTE_NAMESPACE {

namespace {

template <class T>
void black_scholes_loop(T* call, T* put, const T* spot, const T* strike, const T* years, T rate,
                        T volatility, std::size_t n) {
  const T half = static_cast<T>(0.5);
  const T sqrt1_2 = static_cast<T>(0.70710678118654752440);  // 1 / sqrt(2)
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const T s = spot[i], k = strike[i], t = years[i];
    const T sqrt_t = std::sqrt(t);
    const T d1 =
        (std::log(s / k) + (rate + half * volatility * volatility) * t) / (volatility * sqrt_t);
    const T d2 = d1 - volatility * sqrt_t;
    const T cnd1 = half * std::erfc(-d1 * sqrt1_2);
    const T cnd2 = half * std::erfc(-d2 * sqrt1_2);
    const T discount = k * std::exp(-rate * t);
    call[i] = s * cnd1 - discount * cnd2;
    put[i] = discount * (static_cast<T>(1) - cnd2) - s * (static_cast<T>(1) - cnd1);
  }
}

}  // namespace

void black_scholes(float* call, float* put, const float* spot, const float* strike,
                   const float* years, float rate, float volatility, std::size_t n) {
  black_scholes_loop(call, put, spot, strike, years, rate, volatility, n);
}

void black_scholes(double* call, double* put, const double* spot, const double* strike,
                   const double* years, double rate, double volatility, std::size_t n) {
  black_scholes_loop(call, put, spot, strike, years, rate, volatility, n);
}

void nbody(float* acc, const float* pos, std::size_t n, float softening2) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const float xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (std::size_t j = 0; j < n; ++j) {
      const float dx = pos[4 * j] - xi, dy = pos[4 * j + 1] - yi, dz = pos[4 * j + 2] - zi;
      const float r2 = dx * dx + dy * dy + dz * dz + softening2;
      const float inv = 1.0f / std::sqrt(r2);
      const float s = pos[4 * j + 3] * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    acc[3 * i] = ax;
    acc[3 * i + 1] = ay;
    acc[3 * i + 2] = az;
  }
}

void mandelbrot(std::int32_t* out, std::size_t width, std::size_t height, float x0, float y0,
                float step, std::int32_t iterations) {
#pragma omp parallel for schedule(dynamic)
  for (std::size_t py = 0; py < height; ++py) {
    const float cy = y0 + static_cast<float>(py) * step;
    for (std::size_t px = 0; px < width; ++px) {
      const float cx = x0 + static_cast<float>(px) * step;
      float x = 0.0f, y = 0.0f;
      std::int32_t it = 0;
      while (it < iterations && x * x + y * y <= 4.0f) {
        const float xt = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = xt;
        ++it;
      }
      out[py * width + px] = it;
    }
  }
}

}  // namespace spvjit::bench::openmp::SPVJIT_OPENMP_COMPUTE_NAMESPACE
