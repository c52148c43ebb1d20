// bench/openmp_compute.cpp as openmp::fast: -O3 -march=native -ffast-math (bench/CMakeLists.txt).
#define SPVJIT_OPENMP_COMPUTE_NAMESPACE fast
#include "bench/openmp_compute.cpp"
