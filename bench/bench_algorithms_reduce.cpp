// algorithms/{reduce,count_if}/<T>/<N>/{spvjit,tbb,std}: spvjit::reduce against std::reduce
// with std::execution::par (TBB) and sequential std::reduce, on the same shared memory.
#include <algorithm>
#include <cmath>
#include <execution>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "bench/algorithm_cases.hpp"
#include "bench/wall_rate.hpp"

namespace spvjit::bench {

Algorithms& shared_algorithms() {
  static Algorithms algs(shared_context().runtime, shared_context().jit);
  return algs;
}

namespace {

template <class T>
SharedArray<T> random_shared(std::size_t n) {
  auto a = allocate_shared<T>(shared_context().runtime, n);
  std::mt19937_64 gen(n);
  std::uniform_int_distribution<int> d(-1000, 1000);
  for (auto& x : a) x = static_cast<T>(d(gen)) / T(1000);
  return a;
}

// The sums agree within n * eps * sum|x| (summation order differs); integer sums exactly.
template <class T>
bool close(T got, T want, const SharedArray<T>& x) {
  if constexpr (std::is_integral_v<T>) {
    return got == want;
  } else {
    double magnitude = 0;
    for (T v : x) magnitude += std::fabs(double(v));
    return std::fabs(double(got) - double(want)) <=
           2.0 * double(x.size()) * std::numeric_limits<T>::epsilon() * magnitude;
  }
}

template <class T>
void reduce_case(benchmark::State& state, std::size_t n, int who) {
  if (context(state) == nullptr) return;
  auto x = random_shared<T>(n);
  const T want = std::reduce(x.begin(), x.end(), T{});
  T got{};
  auto run = [&] {
    if (who == 0) {
      got = reduce(shared_algorithms(), x, T{}, plus{});
    } else if (who == 1) {
      got = std::reduce(std::execution::par, x.begin(), x.end(), T{});
    } else {
      got = std::reduce(x.begin(), x.end(), T{});
    }
  };
  run();  // compiles, starts TBB's threads: untimed
  AllocMeter meter;
  WallRate rate;
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(got);
  }
  meter.report(state);
  rate.report(state, "bytes_per_second", double(n) * sizeof(T));
  if (!close(got, want, x)) state.SkipWithError("the sum differs from std::reduce's");
}

template <class T>
void register_reduce() {
  const char* who_names[] = {"spvjit", "tbb", "std"};
  for (std::size_t n : algorithm_sizes) {
    for (int who = 0; who < 3; ++who) {
      add_case(algorithm_case<T>("reduce", n, who_names[who]),
               [n, who](benchmark::State& s) { reduce_case<T>(s, n, who); })
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace

void register_algorithms_reduce() {
  register_reduce<float>();
  register_reduce<double>();
  register_reduce<std::int32_t>();
}

}  // namespace spvjit::bench
