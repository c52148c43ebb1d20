// Reductions against the std:: algorithms, on Buffer, BufferView and SharedArray inputs of the
// shapes that break chunking: empty, one element, odd sizes around chunk and vector edges.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "spvjit/algorithms.hpp"
#include "test/algorithm_inputs.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;
using spvjit::test::algorithms;

namespace {

const std::size_t sizes[] = {0, 1, 2, 31, 32, 33, 1000, 8191, 8192, 8193, 65537, 300001};

// A float sum's error bound against an exact (long double) sum: each of n additions rounds
// once, by at most eps * the running magnitude, which sum|x| bounds.
template <class T>
double sum_bound(const std::vector<T>& v) {
  long double magnitude = 0;
  for (T x : v) magnitude += std::fabs(static_cast<long double>(x));
  return static_cast<double>(v.size() * std::numeric_limits<T>::epsilon() * magnitude) + 1e-30;
}

}  // namespace

TEST_CASE("reduce: float sums within the rounding bound, on every memory kind and size") {
  for (std::size_t n : sizes) {
    CAPTURE(n);
    const auto host = spvjit::test::random_values<float>(n, 1);
    const long double exact = std::accumulate(host.begin(), host.end(), 0.0L);
    auto buffer = algorithms().runtime().upload(host);
    const float got = reduce(algorithms(), buffer, 0.0f, [](auto a, auto b) { return a + b; });
    CHECK(std::fabs(got - exact) <= sum_bound(host));
    auto shared = spvjit::test::shared_copy(host);
    CHECK(std::fabs(sum(algorithms(), shared) - exact) <= sum_bound(host));
  }
}

TEST_CASE("reduce: integer sums, products and min/max are exact") {
  for (std::size_t n : sizes) {
    CAPTURE(n);
    const auto host = spvjit::test::random_values<std::int32_t>(n, 2);
    auto x = algorithms().runtime().upload(host);
    CHECK(reduce(algorithms(), x, 7, [](auto a, auto b) { return a + b; }) ==
          std::accumulate(host.begin(), host.end(), std::int32_t{7},
                          [](std::int32_t a, std::int32_t b) {
                            return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) +
                                                             static_cast<std::uint32_t>(b));
                          }));
    const std::int32_t lowest = std::numeric_limits<std::int32_t>::lowest();
    CHECK(reduce(algorithms(), x, lowest, [](auto a, auto b) { return max(a, b); }) ==
          (n ? *std::max_element(host.begin(), host.end()) : lowest));
    CHECK(reduce(algorithms(), x, std::int32_t{-1}, [](auto a, auto b) { return a & b; }) ==
          std::accumulate(host.begin(), host.end(), std::int32_t{-1}, std::bit_and<>()));
  }
}

TEST_CASE("mapreduce: the map's type is the result's (a double sum of squares of floats)") {
  for (std::size_t n : sizes) {
    CAPTURE(n);
    const auto host = spvjit::test::random_values<float>(n, 3);
    auto x = algorithms().runtime().upload(host);
    const double got = mapreduce(
        algorithms(), x, 0.0, [](auto v) { return cast<double>(v) * cast<double>(v); },
        [](auto a, auto b) { return a + b; });
    long double exact = 0;
    std::vector<double> squares;
    for (float v : host) {
      squares.push_back(double(v) * double(v));
      exact += squares.back();
    }
    CHECK(std::fabs(got - exact) <= sum_bound(squares));
  }
}

TEST_CASE("count_if, any_of, all_of against std::") {
  for (std::size_t n : sizes) {
    CAPTURE(n);
    const auto host = spvjit::test::random_values<double>(n, 4);
    auto x = algorithms().runtime().upload(host);
    auto positive = [](auto v) { return v > 0.0; };
    CHECK(count_if(algorithms(), x, positive) ==
          static_cast<std::size_t>(
              std::count_if(host.begin(), host.end(), [](double v) { return v > 0.0; })));
    CHECK(any_of(algorithms(), x, [](auto v) { return v > 2.0; }) == false);
    CHECK(all_of(algorithms(), x, [](auto v) { return v < 2.0; }) == true);
    CHECK(any_of(algorithms(), x, positive) ==
          (std::count_if(host.begin(), host.end(), [](double v) { return v > 0.0; }) > 0));
  }
}

TEST_CASE("reduce: a NaN anywhere makes a float sum NaN") {
  auto host = spvjit::test::random_values<float>(100000, 5);
  host[77777] = std::numeric_limits<float>::quiet_NaN();
  auto x = algorithms().runtime().upload(host);
  CHECK(std::isnan(sum(algorithms(), x)));
}

TEST_CASE("reduce: views and half storage") {
  const auto host = spvjit::test::random_values<float>(70000, 6);
  auto buffer = algorithms().runtime().upload(host);
  BufferView<float> part(buffer, 1024, 50000);
  const long double exact = std::accumulate(host.begin() + 1024, host.begin() + 51024, 0.0L);
  CHECK(std::fabs(sum(algorithms(), part) - exact) <=
        sum_bound(std::vector<float>(host.begin() + 1024, host.begin() + 51024)));
  std::vector<half> halves;
  long double half_exact = 0;
  for (std::size_t i = 0; i < 20000; ++i) {
    halves.push_back(to_half(host[i]));
    half_exact += to_float(halves.back());
  }
  auto hb = algorithms().runtime().upload(halves);
  const float got = sum(algorithms(), hb);
  CHECK(std::fabs(got - half_exact) <= 20000 * 1.2e-7 * 20000);
}

TEST_CASE(
    "reduce: functors over Val<T> alone run scalar, and small shared inputs launch unless the "
    "functors run on the host") {
  for (std::size_t n : sizes) {
    CAPTURE(n);
    const auto host = spvjit::test::random_values<std::int64_t>(n, 7);
    std::int64_t want = 0;
    for (auto v : host) want ^= v;
    auto shared = spvjit::test::shared_copy(host);
    // Not host-callable, not vector-callable: the scalar kernel, even for 1 or 2 elements.
    CHECK(reduce(algorithms(), shared, std::int64_t{0},
                 [](Val<std::int64_t> a, Val<std::int64_t> b) { return a ^ b; }) == want);
    CHECK(reduce(algorithms(), shared, std::int64_t{0}, bit_xor{}) == want);
  }
}

TEST_CASE(
    "reduce: AlgorithmOptions steer chunking and the host route, and min_chunk 0 is a UserError") {
  Algorithms launches_always(spvjit::test::runtime(), spvjit::test::jit(),
                             {.host_threshold = 0, .min_chunk = 16, .max_chunks = 3});
  CHECK(launches_always.chunks(0).count == 0);
  CHECK(launches_always.chunks(10).count == 1);
  CHECK(launches_always.chunks(100).count == 3);
  CHECK(launches_always.chunks(100).size == 34);
  const auto host = spvjit::test::random_values<std::int32_t>(1000, 8);
  auto shared = spvjit::test::shared_copy(host);
  CHECK(reduce(launches_always, shared, 0, plus{}) ==
        std::accumulate(host.begin(), host.end(), std::int32_t{0},
                        [](std::int32_t a, std::int32_t b) {
                          return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) +
                                                           static_cast<std::uint32_t>(b));
                        }));
  CHECK(launches_always.scratch_bytes() > 0);  // it launched: the host route needs no scratch
  CHECK_THROWS_WITH_AS(Algorithms(spvjit::test::runtime(), spvjit::test::jit(), {.min_chunk = 0}),
                       doctest::Contains("min_chunk is 0"), UserError);
}
