// spvjit_bench_halide: the Halide baselines, in their own process because Halide 14 carries
// LLVM 14 and spvjit LLVM 15 (one process cannot hold both). run_suite.sh runs it beside
// spvjit_bench and merges the results.
//   baseline/halide/sgemm/Float32/<N>   C = A * B as in throughput/matmul/*, Halide's JIT with a
//       register-blocked schedule of the kind its tutorials teach (below);
//   baseline/halide/saxpy/Float32/<N>   z = a*x + y as in saxpy/*, vectorized and parallel.
// The JIT compiles once per case, untimed; each iteration is one realize() into a preallocated
// buffer, which is what a user of Halide's JIT calls.
#include <Halide.h>
#include <benchmark/benchmark.h>

#include <string>

#include "bench/matmul_inputs.hpp"
#include "bench/saxpy_sizes.hpp"
#include "bench/wall_rate.hpp"

namespace spvjit::bench {

namespace {

// Halide indexes x first: a row-major N x N matrix M[row][col] is M(col, row).
Halide::Func sgemm_pipeline(Halide::ImageParam& a, Halide::ImageParam& b,
                            const Halide::Target& target) {
  using namespace Halide;
  Var x("x"), y("y"), xi("xi"), yi("yi"), tile("tile");
  RDom k(0, a.dim(0).extent(), "k");
  Func product("product"), c("c");
  product(x, y) = 0.0f;
  product(x, y) += a(k, y) * b(x, k);
  c(x, y) = product(x, y);
  // Each task: a block of two vectors by eight rows, summed in registers (16 accumulators)
  // over all of k, then stored; blocks spread over the thread pool.
  const int vector = target.natural_vector_size<float>();
  c.tile(x, y, xi, yi, 2 * vector, 8)
      .fuse(x, y, tile)
      .parallel(tile)
      .vectorize(xi, vector)
      .unroll(xi);
  product.compute_at(c, tile).vectorize(x, vector).unroll(x).unroll(y);
  product.update().reorder(x, y, k).vectorize(x, vector).unroll(x).unroll(y);
  c.compile_jit(target);
  return c;
}

void sgemm(benchmark::State& state, std::size_t n) {
  MatmulInputs in(n);
  const int size = static_cast<int>(n);
  Halide::Buffer<float> a(in.a.data(), size, size), b(in.b.data(), size, size), c(size, size);
  const Halide::Target target = Halide::get_jit_target_from_environment();
  Halide::ImageParam pa(Halide::Float(32), 2, "A"), pb(Halide::Float(32), 2, "B");
  Halide::Func pipeline = sgemm_pipeline(pa, pb, target);
  pa.set(a);
  pb.set(b);
  pipeline.realize(c);  // starts the thread pool, untimed
  WallRate rate;
  for (auto _ : state) {
    pipeline.realize(c);
    benchmark::ClobberMemory();
  }
  rate.report(state, "flops", matmul_flops(n));
  state.SetLabel("Halide " + target.to_string());
  const std::vector<float>& expected = in.expected();
  for (std::size_t i = 0; i < n * n; ++i) {
    if (c.data()[i] != expected[i]) {
      state.SkipWithError(("Halide sgemm computed a wrong result at " + std::to_string(i)).c_str());
      return;
    }
  }
}

void saxpy(benchmark::State& state, std::size_t n) {
  using namespace Halide;
  const int size = static_cast<int>(n);
  Buffer<float> x(size), y(size), z(size);
  for (int i = 0; i < size; ++i) {
    x(i) = static_cast<float>(saxpy_x(static_cast<std::size_t>(i)));
    y(i) = static_cast<float>(saxpy_y(static_cast<std::size_t>(i)));
  }
  const Target target = get_jit_target_from_environment();
  ImageParam px(Float(32), 1, "x"), py(Float(32), 1, "y");
  Param<float> pa("a");
  Var i("i"), outer("outer"), inner("inner");
  Func f("saxpy");
  f(i) = pa * px(i) + py(i);
  // Tasks of 4096 elements (two per core at 2^13), vectorized at the target's width.
  f.split(i, outer, inner, 4096, TailStrategy::GuardWithIf)
      .parallel(outer)
      .vectorize(inner, target.natural_vector_size<float>(), TailStrategy::GuardWithIf);
  f.compile_jit(target);
  px.set(x);
  py.set(y);
  pa.set(saxpy_a);
  f.realize(z);
  WallRate rate;
  for (auto _ : state) {
    f.realize(z);
    benchmark::ClobberMemory();
  }
  rate.report(state, "bytes_per_second", saxpy_bytes<float>(n));
  for (int k = 0; k < size; ++k) {
    const auto e = static_cast<std::size_t>(k);
    if (static_cast<double>(z(k)) != saxpy_a * saxpy_x(e) + saxpy_y(e)) {
      state.SkipWithError(("Halide saxpy computed a wrong result at " + std::to_string(k)).c_str());
      return;
    }
  }
}

// Any exception (Halide throws CompileError and friends) becomes the case's error.
template <class F>
void add_case(const std::string& name, F body, benchmark::TimeUnit unit) {
  benchmark::RegisterBenchmark(name.c_str(), [body](benchmark::State& state) {
    try {
      body(state);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
    }
  })->Unit(unit);
}

}  // namespace

}  // namespace spvjit::bench

int main(int argc, char** argv) {
  using namespace spvjit::bench;
  for (std::size_t n : saxpy_sizes) {
    add_case(
        "baseline/halide/saxpy/Float32/" + std::to_string(n),
        [n](benchmark::State& s) { saxpy(s, n); }, benchmark::kMicrosecond);
  }
  for (std::size_t n : sgemm_sizes) {
    add_case(
        "baseline/halide/sgemm/Float32/" + std::to_string(n),
        [n](benchmark::State& s) { sgemm(s, n); }, benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
