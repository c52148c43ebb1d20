// baseline/openmp/saxpy/<T>/<N>: the same saxpy as a hand-written OpenMP loop over host memory,
// what the kernels' throughput should be judged against on a CPU.
#include <string>
#include <vector>

#include "bench/openmp_saxpy.hpp"
#include "bench/saxpy_sizes.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

template <class T>
void saxpy(benchmark::State& state, std::size_t n) {
  using A = arithmetic_t<T>;
  std::vector<T> x(n), y(n), z(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = from_double<T>(saxpy_x(i));
    y[i] = from_double<T>(saxpy_y(i));
  }
  const A a = static_cast<A>(saxpy_a);
  openmp::saxpy(z.data(), x.data(), y.data(), a, n);  // starts the thread pool, untimed

  AllocMeter meter;
  WallClock clock;
  for (auto _ : state) {
    openmp::saxpy(z.data(), x.data(), y.data(), a, n);
    benchmark::ClobberMemory();
  }
  meter.report(state);  // first: setting a counter allocates
  clock.report_bytes_per_second(state, saxpy_bytes<T>(n));

  for (std::size_t i = 0; i < n; ++i) {
    if (to_double(z[i]) != saxpy_a * saxpy_x(i) + saxpy_y(i)) {
      state.SkipWithError(
          ("OpenMP saxpy computed a wrong result at index " + std::to_string(i)).c_str());
      return;
    }
  }
}

template <class T>
void register_type() {
  for (std::size_t n : saxpy_sizes) {
    const std::string name =
        std::string("baseline/openmp/saxpy/") + julia_name<T>() + "/" + std::to_string(n);
    add_case(name, [n](benchmark::State& s) { saxpy<T>(s, n); })->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace

void register_openmp() {
  register_type<half>();
  register_type<float>();
  register_type<double>();
}

}  // namespace spvjit::bench
