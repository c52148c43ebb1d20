// bench/openmp_compute.cpp as openmp::exact: -O3 -march=native -ffp-contract=off
// (bench/CMakeLists.txt), the arithmetic as written.
#define SPVJIT_OPENMP_COMPUTE_NAMESPACE exact
#include "bench/openmp_compute.cpp"
