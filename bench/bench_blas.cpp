// baseline/openblas/sgemm/Float32/<N>: C = A * B (N x N, row-major) with OpenBLAS's cblas_sgemm
// (Debian's libopenblas-dev, its pthread build on both cores): the matmul a C++ user calls
// instead of writing one. Same inputs and `flops` counter as throughput/matmul/*.
//
// Debian's OpenBLAS 0.3.21 picks its kernels by CPU model when it loads; it does not know newer
// Xeons (family 6, model 207 here) and falls back to its Prescott (SSE3) kernels, ~20x slower.
// run_suite.sh therefore names the core type from the CPU's flags (OPENBLAS_CORETYPE, read at
// load time, so it cannot be set from inside the process); the case's label says which kernels
// ran, so a run without it is visible in the results.
#include <cblas.h>

#include <string>
#include <vector>

#include "bench/matmul_inputs.hpp"
#include "bench/naive_matmul.hpp"
#include "bench/suite.hpp"
#include "bench/wall_rate.hpp"

namespace spvjit::bench {

namespace {

void sgemm(benchmark::State& state, std::size_t n) {
  MatmulInputs in(n);
  std::vector<float> c(n * n);
  const int size = static_cast<int>(n);
  auto product = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, size, size, size, 1.0f, in.a.data(),
                size, in.b.data(), size, 0.0f, c.data(), size);
  };
  product();  // starts OpenBLAS's threads, untimed
  WallRate rate;
  for (auto _ : state) {
    product();
    benchmark::ClobberMemory();
  }
  rate.report(state, "flops", matmul_flops(n));
  state.SetLabel(std::string("OpenBLAS ") + openblas_get_corename() + ", " +
                 std::to_string(openblas_get_num_threads()) + " threads");
  if (c != in.expected()) state.SkipWithError("cblas_sgemm computed a wrong result");
}

}  // namespace

void register_blas() {
  for (std::size_t n : sgemm_sizes) {
    add_case("baseline/openblas/sgemm/Float32/" + std::to_string(n), [n](benchmark::State& s) {
      sgemm(s, n);
    })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace spvjit::bench
