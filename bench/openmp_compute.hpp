// The OpenMP baselines of apps/black_scholes, apps/nbody and apps/mandelbrot: each computation
// as a C++ programmer writes it, one `#pragma omp parallel for` over its work-items' loop, on
// every OpenMP thread. bench/openmp_compute.cpp holds the loops once; it is compiled twice
// (bench/CMakeLists.txt): into namespace `exact` with -O3 -march=native -ffp-contract=off (the
// arithmetic as written, as spvjit's builder kernels compute it: bench/bench_compute.cpp's
// kernels do the same operations in the same order) and into namespace `fast` with -O3
// -march=native -ffast-math (glibc's vector math functions, FMAs, reassociation).
#pragma once

#include <cstddef>
#include <cstdint>

namespace spvjit::bench::openmp {

namespace exact {

/// Black-Scholes: the call and put price of each of n options (spot, strike, years to expiry)
/// at interest `rate` and `volatility`; the normal CDF is 0.5 erfc(-x / sqrt(2)).
void black_scholes(float* call, float* put, const float* spot, const float* strike,
                   const float* years, float rate, float volatility, std::size_t n);
void black_scholes(double* call, double* put, const double* spot, const double* strike,
                   const double* years, double rate, double volatility, std::size_t n);
/// n-body: acc[3 i + c] = the sum over j, in order, of m_j d_c / (|d|^2 + softening2)^(3/2)
/// with d = x_j - x_i, for n bodies at pos[4 i] (x, y, z, mass); `parallel for` over i.
void nbody(float* acc, const float* pos, std::size_t n, float softening2);
/// Mandelbrot: out[py * width + px] = the iterations (at most `iterations`) of z = z^2 + c from
/// 0 while |z|^2 <= 4, c = (x0 + px * step, y0 + py * step); `parallel for` over rows,
/// scheduled dynamically (rows differ in cost).
void mandelbrot(std::int32_t* out, std::size_t width, std::size_t height, float x0, float y0,
                float step, std::int32_t iterations);

}  // namespace exact

/// The same loops, compiled with -ffast-math.
namespace fast {

void black_scholes(float* call, float* put, const float* spot, const float* strike,
                   const float* years, float rate, float volatility, std::size_t n);
void black_scholes(double* call, double* put, const double* spot, const double* strike,
                   const double* years, double rate, double volatility, std::size_t n);
void nbody(float* acc, const float* pos, std::size_t n, float softening2);
void mandelbrot(std::int32_t* out, std::size_t width, std::size_t height, float x0, float y0,
                float step, std::int32_t iterations);

}  // namespace fast

}  // namespace spvjit::bench::openmp
