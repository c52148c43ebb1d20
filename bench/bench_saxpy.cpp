// saxpy/default/<T>/<N> (workgroup chosen at launch) and saxpy/static workgroup=(1024,)/<T>/<N>
// (compiled in): one launch + synchronize per iteration; throughput as bytes moved per second.
#include <string>
#include <vector>

#include "bench/saxpy_sizes.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

template <class T>
void saxpy(benchmark::State& state, bool static_workgroup, std::size_t n) {
  using A = arithmetic_t<T>;
  Context* ctx = context(state);
  if (!ctx) return;
  Specialization spec;
  if (static_workgroup) spec.workgroup = WorkGroup{1024};
  Kernel kernel = ctx->jit.compile(saxpy_kernel(scalar_of<T>), spec);
  std::vector<T> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = from_double<T>(saxpy_x(i));
    y[i] = from_double<T>(saxpy_y(i));
  }
  auto X = ctx->runtime.upload(x);
  auto Y = ctx->runtime.upload(y);
  auto Z = ctx->runtime.zeros<T>(n);
  const A a = static_cast<A>(saxpy_a);
  const NDRange ndrange{n};
  kernel.launch(ndrange, Z, X, Y, a);  // the first launch, out of the measurement
  ctx->runtime.synchronize();

  AllocMeter meter;
  WallClock clock;
  for (auto _ : state) {
    kernel.launch(ndrange, Z, X, Y, a);
    ctx->runtime.synchronize();
  }
  meter.report(state);  // first: setting a counter allocates
  clock.report_bytes_per_second(state, saxpy_bytes<T>(n));

  const auto z = Z.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    if (to_double(z[i]) != saxpy_a * saxpy_x(i) + saxpy_y(i)) {
      state.SkipWithError(("saxpy computed a wrong result at index " + std::to_string(i)).c_str());
      return;
    }
  }
}

template <class T>
void register_type() {
  for (bool static_workgroup : {false, true}) {
    for (std::size_t n : saxpy_sizes) {
      const std::string name = std::string("saxpy/") +
                               (static_workgroup ? "static workgroup=(1024,)" : "default") + "/" +
                               julia_name<T>() + "/" + std::to_string(n);
      add_case(name, [static_workgroup, n](benchmark::State& s) {
        saxpy<T>(s, static_workgroup, n);
      })->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace

void register_saxpy() {
  register_type<half>();
  register_type<float>();
  register_type<double>();
}

}  // namespace spvjit::bench
