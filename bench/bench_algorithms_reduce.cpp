// algorithms/{reduce,inclusive_scan,min_element}/<T>/<N>/{spvjit,tbb,std}: spvjit's against
// the std:: algorithm with std::execution::par (TBB) and sequential, on the same shared memory.
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
  measure_algorithm(state, double(n) * sizeof(T), run);
  if (!close(got, want, x)) state.SkipWithError("the sum differs from std::reduce's");
}

// The float scans differ from std::inclusive_scan's by rounding: compare within the bound of
// each prefix sum; integer scans exactly.
template <class T>
bool scan_close(const SharedArray<T>& got, const std::vector<T>& want, const SharedArray<T>& x) {
  double magnitude = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    magnitude += std::fabs(double(x[i]));
    const double bound = std::is_integral_v<T>
                             ? 0.0
                             : 2.0 * double(i + 1) * std::numeric_limits<T>::epsilon() * magnitude;
    if (std::fabs(double(got[i]) - double(want[i])) > bound) return false;
  }
  return true;
}

template <class T>
void scan_case(benchmark::State& state, std::size_t n, int who) {
  if (context(state) == nullptr) return;
  auto x = random_shared<T>(n);
  auto out = allocate_shared<T>(shared_context().runtime, n);
  std::vector<T> want(n);
  std::inclusive_scan(x.begin(), x.end(), want.begin());
  auto run = [&] {
    if (who == 0) {
      inclusive_scan(shared_algorithms(), x, out, plus{});
    } else if (who == 1) {
      std::inclusive_scan(std::execution::par, x.begin(), x.end(), out.begin());
    } else {
      std::inclusive_scan(x.begin(), x.end(), out.begin());
    }
  };
  measure_algorithm(state, 2.0 * double(n) * sizeof(T), run);
  if (!scan_close(out, want, x)) state.SkipWithError("the scan differs from std::inclusive_scan's");
}

template <class T>
void min_element_case(benchmark::State& state, std::size_t n, int who) {
  if (context(state) == nullptr) return;
  auto x = random_shared<T>(n);
  const std::size_t want = std::min_element(x.begin(), x.end()) - x.begin();
  std::size_t got = 0;
  auto run = [&] {
    if (who == 0) {
      got = min_element(shared_algorithms(), x).index;
    } else if (who == 1) {
      got = std::min_element(std::execution::par, x.begin(), x.end()) - x.begin();
    } else {
      got = std::min_element(x.begin(), x.end()) - x.begin();
    }
  };
  measure_algorithm(state, double(n) * sizeof(T), run);
  if (got != want) state.SkipWithError("the index differs from std::min_element's");
}

template <class T, class Case>
void register_each(const char* algorithm, Case run_case) {
  const char* who_names[] = {"spvjit", "tbb", "std"};
  for (std::size_t n : algorithm_sizes) {
    for (int who = 0; who < 3; ++who) {
      add_case(algorithm_case<T>(algorithm, n, who_names[who]), [n, who,
                                                                 run_case](benchmark::State& s) {
        run_case(s, n, who);
      })->Unit(benchmark::kMicrosecond);
    }
  }
}

template <class T>
void register_reduce() {
  register_each<T>("reduce", reduce_case<T>);
  register_each<T>("inclusive_scan", scan_case<T>);
  register_each<T>("min_element", min_element_case<T>);
}

}  // namespace

void register_algorithms_reduce() {
  register_reduce<float>();
  register_reduce<double>();
  register_reduce<std::int32_t>();
}

}  // namespace spvjit::bench
