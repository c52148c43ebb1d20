// bench/openmp_docking.cpp as openmp::exact: -O3 -march=native -ffp-contract=off
// (bench/CMakeLists.txt), the arithmetic as written.
#define SPVJIT_OPENMP_DOCKING_NAMESPACE exact
#include "bench/openmp_docking.cpp"
