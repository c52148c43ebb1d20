// The OpenMP baseline's loops: the saxpy a C++ programmer writes by hand, compiled on their own
// with -O3 -march=native -fopenmp (bench/CMakeLists.txt) so that the rest of the suite keeps
// the project's flags.
#pragma once

#include <cstddef>

#include "spvjit/types.hpp"

namespace spvjit::bench::openmp {

/// z = a*x + y over n elements on every OpenMP thread. Float16 is half storage with float math,
/// rounded to nearest even on store, as the kernel does.
void saxpy(half* z, const half* x, const half* y, float a, std::size_t n);
void saxpy(float* z, const float* x, const float* y, float a, std::size_t n);
void saxpy(double* z, const double* x, const double* y, double a, std::size_t n);

}  // namespace spvjit::bench::openmp
