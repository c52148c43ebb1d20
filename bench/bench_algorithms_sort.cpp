// algorithms/sort/<T>/<N>/{spvjit,tbb,std}: spvjit::sort (radix) against std::sort with
// std::execution::par (TBB) and sequential std::sort, on the same shared memory. Each iteration
// first copies the unsorted input into the array it sorts (the same copy for all three), so the
// times include that copy.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <execution>
#include <limits>
#include <map>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench/algorithm_cases.hpp"
#include "bench/wall_rate.hpp"

namespace spvjit::bench {

namespace {

// Integers over their whole range, floats in [-1, 1): no NaNs, so plain std::sort is the
// total order spvjit sorts by.
template <class T>
const std::vector<T>& unsorted(std::size_t n) {
  static std::map<std::size_t, std::vector<T>> inputs;
  auto& v = inputs[n];
  if (v.size() != n) {
    v.resize(n);
    std::mt19937_64 gen(n);
    if constexpr (std::is_floating_point_v<T>) {
      std::uniform_real_distribution<T> d(-1, 1);
      for (auto& x : v) x = d(gen);
    } else {
      std::uniform_int_distribution<T> d(std::numeric_limits<T>::lowest(),
                                         std::numeric_limits<T>::max());
      for (auto& x : v) x = d(gen);
    }
  }
  return v;
}

// std::sort's result, computed once per type and size for the three cases.
template <class T>
const std::vector<T>& expected(std::size_t n) {
  static std::map<std::size_t, std::vector<T>> sorted;
  auto& v = sorted[n];
  if (v.size() != n) {
    v = unsorted<T>(n);
    std::sort(std::execution::par, v.begin(), v.end());
  }
  return v;
}

template <class T>
void sort_case(benchmark::State& state, std::size_t n, int who) {
  if (context(state) == nullptr) return;
  const auto& input = unsorted<T>(n);
  auto x = allocate_shared<T>(shared_context().runtime, n);
  auto run = [&] {
    std::copy(input.begin(), input.end(), x.begin());
    if (who == 0) {
      sort(shared_algorithms(), x);
      shared_context().runtime.synchronize();
    } else if (who == 1) {
      std::sort(std::execution::par, x.begin(), x.end());
    } else {
      std::sort(x.begin(), x.end());
    }
  };
  measure_algorithm(state, double(n) * sizeof(T), run);
  const auto& want = expected<T>(n);
  if (std::memcmp(x.data(), want.data(), n * sizeof(T)) != 0) {
    state.SkipWithError("the sorted array differs from std::sort's");
  }
}

template <class T>
void register_sort() {
  const char* who_names[] = {"spvjit", "tbb", "std"};
  for (std::size_t n : algorithm_sizes) {
    for (int who = 0; who < 3; ++who) {
      add_case(algorithm_case<T>("sort", n, who_names[who]), [n, who](benchmark::State& s) {
        sort_case<T>(s, n, who);
      })->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace

void register_algorithms_sort() {
  register_sort<std::int32_t>();
  register_sort<std::int64_t>();
  register_sort<float>();
  register_sort<double>();
}

}  // namespace spvjit::bench
