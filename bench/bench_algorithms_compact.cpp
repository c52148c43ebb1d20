// algorithms/{copy_if,histogram}/<T>/<N>/{spvjit,tbb,std}: spvjit::copy_if against std::copy_if
// with std::execution::par (TBB) and sequential; spvjit::histogram against what a user writes
// without it: std::for_each(par) over chunks, each counting into its own histogram that are
// then added up, and a sequential loop. All on the same shared memory.
#include <algorithm>
#include <cstring>
#include <execution>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "bench/algorithm_cases.hpp"
#include "bench/wall_rate.hpp"

namespace spvjit::bench {

namespace {

// Values in [-1, 1] (floats) or [-1000, 1000] (integers): about half of them positive.
template <class T>
SharedArray<T> signed_shared(std::size_t n) {
  auto a = allocate_shared<T>(shared_context().runtime, n);
  std::mt19937_64 gen(n + 1);
  std::uniform_int_distribution<int> d(-1000, 1000);
  for (auto& x : a) {
    if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(d(gen)) / T(1000);
    } else {
      x = static_cast<T>(d(gen));
    }
  }
  return a;
}

// x > 0 for kernel values and host values of T (generic lambdas cannot say host_callable).
template <class T>
struct PositiveOf {
  static constexpr bool host_callable = true;
  template <class V>
  auto operator()(V v) const {
    if constexpr (std::is_arithmetic_v<V>) {
      return v > V(0);
    } else {
      return v > arithmetic_t<T>(0);
    }
  }
};

template <class T>
void copy_if_case(benchmark::State& state, std::size_t n, int who) {
  if (context(state) == nullptr) return;
  auto x = signed_shared<T>(n);
  auto out = allocate_shared<T>(shared_context().runtime, n);
  std::vector<T> want;
  std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](T v) { return v > T(0); });
  std::size_t got = 0;
  auto run = [&] {
    if (who == 0) {
      got = copy_if(shared_algorithms(), x, out, PositiveOf<T>{});
    } else if (who == 1) {
      got = static_cast<std::size_t>(std::copy_if(std::execution::par, x.begin(), x.end(),
                                                  out.begin(), [](T v) { return v > T(0); }) -
                                     out.begin());
    } else {
      got = static_cast<std::size_t>(
          std::copy_if(x.begin(), x.end(), out.begin(), [](T v) { return v > T(0); }) -
          out.begin());
    }
  };
  measure_algorithm(state, double(n) * sizeof(T), run);
  shared_context().runtime.synchronize();
  if (got != want.size() ||
      (got != 0 && std::memcmp(out.data(), want.data(), got * sizeof(T)) != 0)) {
    state.SkipWithError("the copy differs from std::copy_if's");
  }
}

constexpr std::size_t histogram_bins = 256;

// The bin of v: floats in [-1, 1) over 256 bins, integers as their own index.
template <class T>
std::size_t bin_of(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (!(v >= T(-1) && v < T(1))) return histogram_bins;
    const T scale = static_cast<T>(histogram_bins) / T(2);
    return std::min<std::size_t>(static_cast<std::size_t>(static_cast<T>((v + T(1)) * scale)),
                                 histogram_bins - 1);
  } else {
    return v >= 0 && static_cast<std::size_t>(v) < histogram_bins ? static_cast<std::size_t>(v)
                                                                  : histogram_bins;
  }
}

template <class T>
void histogram_sequential(const T* x, std::size_t n, std::uint32_t* counts) {
  std::fill(counts, counts + histogram_bins, 0u);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t b = bin_of(x[i]);
    if (b < histogram_bins) counts[b] += 1;
  }
}

// What a user writes with the standard parallel algorithms: a histogram per chunk (a few per
// hardware thread), filled in parallel, then added up.
template <class T>
void histogram_parallel(const T* x, std::size_t n, std::uint32_t* counts,
                        std::vector<std::vector<std::uint32_t>>& locals) {
  const std::size_t chunks = locals.size();
  const std::size_t size = (n + chunks - 1) / chunks;
  std::vector<std::size_t> ids(chunks);
  std::iota(ids.begin(), ids.end(), std::size_t{0});
  std::for_each(std::execution::par, ids.begin(), ids.end(), [&](std::size_t c) {
    const std::size_t begin = std::min(n, c * size), end = std::min(n, begin + size);
    histogram_sequential(x + begin, end - begin, locals[c].data());
  });
  std::fill(counts, counts + histogram_bins, 0u);
  for (const auto& local : locals) {
    for (std::size_t b = 0; b < histogram_bins; ++b) counts[b] += local[b];
  }
}

template <class T>
void histogram_case(benchmark::State& state, std::size_t n, int who) {
  if (context(state) == nullptr) return;
  auto x = signed_shared<T>(n);
  if constexpr (std::is_integral_v<T>) {
    for (auto& v : x) v = static_cast<T>(v % 300);  // [-299, 299]: a third outside [0, 256)
  }
  auto out = allocate_shared<std::uint32_t>(shared_context().runtime, histogram_bins);
  std::vector<std::uint32_t> want(histogram_bins);
  histogram_sequential(x.data(), n, want.data());
  const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<std::uint32_t>> locals(4 * threads,
                                                 std::vector<std::uint32_t>(histogram_bins));
  auto run = [&] {
    if (who == 0) {
      if constexpr (std::is_floating_point_v<T>) {
        histogram(shared_algorithms(), x, out, T(-1), T(1));
      } else {
        histogram(shared_algorithms(), x, out);
      }
    } else if (who == 1) {
      histogram_parallel(x.data(), n, out.data(), locals);
    } else {
      histogram_sequential(x.data(), n, out.data());
    }
  };
  measure_algorithm(state, double(n) * sizeof(T), [&] {
    run();
    if (who == 0) shared_context().runtime.synchronize();  // the counts are ready to read
  });
  shared_context().runtime.synchronize();
  if (!std::equal(want.begin(), want.end(), out.begin())) {
    state.SkipWithError("the counts differ from the sequential loop's");
  }
}

template <class T>
void register_compact() {
  const char* who_names[] = {"spvjit", "tbb", "std"};
  for (std::size_t n : algorithm_sizes) {
    for (int who = 0; who < 3; ++who) {
      add_case(algorithm_case<T>("copy_if", n, who_names[who]), [n, who](benchmark::State& s) {
        copy_if_case<T>(s, n, who);
      })->Unit(benchmark::kMicrosecond);
    }
  }
  for (std::size_t n : algorithm_sizes) {
    for (int who = 0; who < 3; ++who) {
      add_case(algorithm_case<T>("histogram", n, who_names[who]), [n, who](benchmark::State& s) {
        histogram_case<T>(s, n, who);
      })->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace

void register_algorithms_compact() {
  register_compact<float>();
  register_compact<double>();
  register_compact<std::int32_t>();
}

}  // namespace spvjit::bench
