// bench/openmp_docking.cpp as openmp::fast: -O3 -march=native -ffast-math (bench/CMakeLists.txt).
#define SPVJIT_OPENMP_DOCKING_NAMESPACE fast
#include "bench/openmp_docking.cpp"
