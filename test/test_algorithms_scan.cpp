// Scans and extrema against std::inclusive_scan, std::exclusive_scan, std::min_element and
// std::max_element: integer results exact, float scans within the rounding bound of a sum, on
// every input pattern and on sizes that end chunks early, in place and not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "spvjit/algorithms.hpp"
#include "test/algorithm_inputs.hpp"

using namespace spvjit;
using spvjit::test::algorithms;
using spvjit::test::Pattern;

namespace {

const std::size_t sizes[] = {0, 1, 2, 31, 1000, 4097, 8193, 65537, 300001};

// Wrapping addition, as the device's integer add.
template <class T>
T wrap_add(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}

}  // namespace

TEST_CASE("inclusive_scan and exclusive_scan: int32 and int64 exact, every pattern and memory") {
  for (Pattern p : spvjit::test::all_patterns) {
    for (std::size_t n : sizes) {
      CAPTURE(name(p));
      CAPTURE(n);
      const auto host = spvjit::test::pattern_values<std::int32_t>(p, n, 11);
      std::vector<std::int32_t> want(n), got(n);
      std::inclusive_scan(host.begin(), host.end(), want.begin(), wrap_add<std::int32_t>);
      auto x = algorithms().runtime().upload(host);
      auto out = algorithms().runtime().allocate<std::int32_t>(n);
      inclusive_scan(algorithms(), x, out, plus{});
      out.read(got);
      CHECK(got == want);

      std::exclusive_scan(host.begin(), host.end(), want.begin(), std::int32_t{5},
                          wrap_add<std::int32_t>);
      exclusive_scan(algorithms(), x, out, 5, [](auto a, auto b) { return a + b; });
      out.read(got);
      CHECK(got == want);

      // In place, on shared memory, with init; host route below the threshold, kernels above.
      auto shared = spvjit::test::shared_copy(host);
      std::inclusive_scan(host.begin(), host.end(), want.begin(), wrap_add<std::int32_t>,
                          std::int32_t{-3});
      inclusive_scan(algorithms(), shared, shared, plus{}, -3);
      CHECK(std::equal(want.begin(), want.end(), shared.begin()));
    }
  }
}

TEST_CASE("scans: a non-commutative combine keeps the order (the last non-zero element)") {
  // Associative but not commutative: a scan that put a later element on the left would differ.
  for (std::size_t n : sizes) {
    CAPTURE(n);
    auto host = spvjit::test::random_values<std::int64_t>(n, 12);
    for (std::size_t i = 0; i < n; ++i) host[i] = (host[i] % 3 == 0) ? 0 : host[i];
    auto last_nonzero = [](auto a, auto b) { return select(b != 0, b, a); };
    std::vector<std::int64_t> want(n), got(n);
    std::inclusive_scan(host.begin(), host.end(), want.begin(),
                        [](std::int64_t a, std::int64_t b) { return b != 0 ? b : a; });
    auto x = algorithms().runtime().upload(host);
    auto out = algorithms().runtime().allocate<std::int64_t>(n);
    inclusive_scan(algorithms(), x, out, last_nonzero);
    out.read(got);
    CHECK(got == want);
  }
}

TEST_CASE(
    "scans: float prefix sums within the rounding bound, and a NaN propagates from its index") {
  for (std::size_t n : sizes) {
    CAPTURE(n);
    auto host = spvjit::test::random_values<double>(n, 13);
    auto x = algorithms().runtime().upload(host);
    auto out = algorithms().runtime().allocate<double>(n);
    inclusive_scan(algorithms(), x, out, plus{});
    const auto got = out.to_vector();
    long double exact = 0, magnitude = 0;
    for (std::size_t i = 0; i < n; ++i) {
      exact += host[i];
      magnitude += std::fabs(host[i]);
      const double bound = double((i + 1) * std::numeric_limits<double>::epsilon() * magnitude);
      if (std::fabs(got[i] - exact) > bound) {
        FAIL_CHECK("element " << i << ": " << got[i] << " vs " << double(exact));
        break;
      }
    }
  }
  auto host = spvjit::test::random_values<float>(100000, 14);
  host[54321] = std::numeric_limits<float>::quiet_NaN();
  auto x = algorithms().runtime().upload(host);
  auto out = algorithms().runtime().allocate<float>(host.size());
  inclusive_scan(algorithms(), x, out, plus{});
  const auto got = out.to_vector();
  CHECK_FALSE(std::isnan(got[54320]));
  CHECK(std::all_of(got.begin() + 54321, got.end(), [](float v) { return std::isnan(v); }));
}

TEST_CASE("scans and extrema: float patterns, signed zeros bit for bit") {
  for (Pattern p : spvjit::test::all_patterns) {
    for (std::size_t n : sizes) {
      CAPTURE(name(p));
      CAPTURE(n);
      // Small integers as floats: every prefix sum is exact, so the scan must equal std::'s.
      auto host = spvjit::test::pattern_values<std::int32_t>(p, n, 18);
      std::vector<float> values(n);
      for (std::size_t i = 0; i < n; ++i) values[i] = float(host[i] % 64);
      std::vector<float> want(n), got(n);
      std::inclusive_scan(values.begin(), values.end(), want.begin());
      auto x = algorithms().runtime().upload(values);
      auto out = algorithms().runtime().allocate<float>(n);
      inclusive_scan(algorithms(), x, out, plus{});
      out.read(got);
      CHECK(got == want);
      CHECK(min_element(algorithms(), x).index ==
            std::size_t(std::min_element(values.begin(), values.end()) - values.begin()));
    }
  }
  for (std::size_t n : {std::size_t{3}, std::size_t{40000}}) {
    CAPTURE(n);
    auto zeros = algorithms().runtime().upload(std::vector<float>(n, -0.0f));
    auto out = algorithms().runtime().allocate<float>(n);
    inclusive_scan(algorithms(), zeros, out, plus{});
    const auto negative = out.to_vector();
    CHECK(std::all_of(negative.begin(), negative.end(),
                      [](float v) { return v == 0 && std::signbit(v); }));
    exclusive_scan(algorithms(), zeros, out, 0.0f, plus{});  // +0 + -0 = +0
    const auto positive = out.to_vector();
    CHECK(std::none_of(positive.begin(), positive.end(), [](float v) { return std::signbit(v); }));
    CHECK(std::signbit(reduce(algorithms(), zeros, -0.0f, plus{})));
    std::vector<float> mixed(n, 0.0f);
    mixed[n / 2] = -0.0f;
    auto m = algorithms().runtime().upload(mixed);
    CHECK(min_element(algorithms(), m).index == 0);  // -0.0 is not less than 0.0: the first wins
    CHECK(max_element(algorithms(), m).index == 0);
  }
}

TEST_CASE("scans: an output smaller than the input is a UserError") {
  auto x = algorithms().runtime().upload(std::vector<float>(100, 1.0f));
  auto out = algorithms().runtime().allocate<float>(99);
  CHECK_THROWS_WITH_AS(inclusive_scan(algorithms(), x, out, plus{}),
                       doctest::Contains("the output holds 99 elements; expected at least 100"),
                       UserError);
}

TEST_CASE("min_element and max_element: std::'s answer, ties and NaNs included") {
  for (Pattern p : spvjit::test::all_patterns) {
    for (std::size_t n : sizes) {
      CAPTURE(name(p));
      CAPTURE(n);
      const auto host = spvjit::test::pattern_values<std::int32_t>(p, n, 15);
      auto x = algorithms().runtime().upload(host);
      const auto lo = min_element(algorithms(), x);
      const auto hi = max_element(algorithms(), x);
      CHECK(lo.index == std::size_t(std::min_element(host.begin(), host.end()) - host.begin()));
      CHECK(hi.index == std::size_t(std::max_element(host.begin(), host.end()) - host.begin()));
      if (n) CHECK(lo.value == host[lo.index]);
      if (n) CHECK(hi.value == host[hi.index]);
    }
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (std::size_t n : {std::size_t{5}, std::size_t{70000}}) {
    for (std::size_t where : {std::size_t{0}, std::size_t{1}, std::size_t{3}, n / 2, n - 1}) {
      CAPTURE(n);
      CAPTURE(where);
      auto host = spvjit::test::random_values<float>(n, 16);
      host[where] = nan;
      if (n > 8)
        std::fill(host.begin() + n / 2, host.begin() + n / 2 + 100,
                  nan);  // a chunk edge may be NaN
      auto x = algorithms().runtime().upload(host);
      CHECK(min_element(algorithms(), x).index ==
            std::size_t(std::min_element(host.begin(), host.end()) - host.begin()));
      CHECK(max_element(algorithms(), x).index ==
            std::size_t(std::max_element(host.begin(), host.end()) - host.begin()));
    }
  }
  auto all_nan = algorithms().runtime().upload(std::vector<double>(20000, double(nan)));
  CHECK(min_element(algorithms(), all_nan).index == 0);
  auto empty = algorithms().runtime().allocate<double>(0);
  CHECK(max_element(algorithms(), empty).index == 0);
}

TEST_CASE("algorithms: a repeated call of one size allocates no new scratch buffers") {
  auto host = spvjit::test::random_values<float>(200000, 17);
  auto x = algorithms().runtime().upload(host);
  auto out = algorithms().runtime().allocate<float>(host.size());
  inclusive_scan(algorithms(), x, out, plus{});
  (void)sum(algorithms(), x);
  const auto before = algorithms().scratch_bytes();
  for (int i = 0; i < 3; ++i) {
    inclusive_scan(algorithms(), x, out, plus{});
    (void)sum(algorithms(), x);
  }
  CHECK(algorithms().scratch_bytes() == before);
  CHECK(before > 0);
}
