// Stream compaction (copy_if, partition, unique) and histogram against the std:: algorithms,
// exactly, on Buffer, BufferView and SharedArray inputs of every shape that breaks chunking.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "spvjit/algorithms.hpp"
#include "test/algorithm_inputs.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;
using spvjit::test::algorithms;
using spvjit::test::Pattern;

namespace {

const std::size_t sizes[] = {0, 1, 2, 31, 1000, 8193, 65537, 300001};

// Equal element by element, bit for bit (so -0.0 differs from 0.0 and NaNs compare).
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Halves pass through float in kernels: a NaN stays a NaN, but the device's conversion back
// to half gives its own NaN bits; every other value keeps its bits.
bool same_halves(const std::vector<half>& a, const std::vector<half>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool both_nan = std::isnan(to_float(a[i])) && std::isnan(to_float(b[i]));
    if (!both_nan && std::memcmp(&a[i], &b[i], sizeof(half)) != 0) return false;
  }
  return true;
}

// Floats: a few NaNs and signed zeros among the values.
template <class T>
std::vector<T> with_specials(std::vector<T> v) {
  if constexpr (std::is_floating_point_v<T>) {
    for (std::size_t i = 0; i < v.size(); i += 97) v[i] = std::numeric_limits<T>::quiet_NaN();
    for (std::size_t i = 13; i < v.size(); i += 89) v[i] = T(-0.0);
    for (std::size_t i = 14; i < v.size(); i += 89) v[i] = T(0.0);
  }
  return v;
}

// x > 0 on host values and kernel scalars of every type (no vector form: counts run scalar).
struct Positive {
  static constexpr bool host_callable = true;
  template <class T>
  requires std::is_arithmetic_v<T>
  bool operator()(T v) const { return v > T(0); }
  template <class T>
  Val<bool> operator()(Val<T> v) const {
    return v > T(0);
  }
};

template <class T>
std::vector<T> expected_copy_if(const std::vector<T>& in) {
  std::vector<T> want;
  std::copy_if(in.begin(), in.end(), std::back_inserter(want), Positive{});
  return want;
}

template <class T>
std::vector<T> expected_partition(const std::vector<T>& in) {
  std::vector<T> want = expected_copy_if(in);
  std::remove_copy_if(in.begin(), in.end(), std::back_inserter(want), Positive{});
  return want;
}

template <class T>
std::vector<T> expected_unique(const std::vector<T>& in) {
  std::vector<T> want;
  std::unique_copy(in.begin(), in.end(), std::back_inserter(want));
  return want;
}

// Runs copy_if, partition and unique on `in` held as a Buffer, a BufferView inside a larger
// buffer, and a SharedArray, against std::.
template <class T>
void check_all_memory_kinds(const std::vector<T>& in) {
  auto& algs = algorithms();
  auto& rt = algs.runtime();
  const std::size_t n = in.size();
  const auto want_copy = expected_copy_if(in);
  const auto want_part = expected_partition(in);
  const auto want_unique = expected_unique(in);
  // The algorithm runs first, then its output is read: `prefix(out, copy_if(...))`.
  auto prefix = [](const auto& memory, std::size_t k) {
    std::vector<T> v = memory.to_vector();
    v.resize(k);
    return v;
  };

  auto buffer = rt.upload(in);
  auto out = rt.allocate<T>(n);
  CHECK(same_bits(prefix(out, copy_if(algs, buffer, out, Positive{})), want_copy));
  CHECK(partition(algs, buffer, out, Positive{}) == want_copy.size());
  CHECK(same_bits(out.to_vector(), want_part));
  CHECK(same_bits(prefix(out, unique(algs, buffer, out)), want_unique));

  // Views start 128 elements in: a multiple of the device's base address alignment.
  std::vector<T> padded(n + 300, T(7));
  std::copy(in.begin(), in.end(), padded.begin() + 128);
  auto parent = rt.upload(padded);
  auto out_parent = rt.allocate<T>(n + 300);
  BufferView<T> view(parent, 128, n), out_view(out_parent, 256, n);
  CHECK(same_bits(prefix(out_view, copy_if(algs, view, out_view, Positive{})), want_copy));
  CHECK(partition(algs, view, out_view, Positive{}) == want_copy.size());
  CHECK(same_bits(out_view.to_vector(), want_part));
  CHECK(same_bits(prefix(out_view, unique(algs, view, out_view)), want_unique));

  auto shared = spvjit::test::shared_copy(in);
  auto shared_out = allocate_shared<T>(rt, n);
  auto read = [&](std::size_t k) {
    rt.synchronize();
    return std::vector<T>(shared_out.begin(), shared_out.begin() + static_cast<std::ptrdiff_t>(k));
  };
  CHECK(same_bits(read(copy_if(algs, shared, shared_out, Positive{})), want_copy));
  CHECK(partition(algs, shared, shared_out, Positive{}) == want_copy.size());
  CHECK(same_bits(read(n), want_part));
  CHECK(same_bits(read(unique(algs, shared, shared_out)), want_unique));
}

template <class T>
void check_every_shape() {
  for (Pattern p : spvjit::test::all_patterns) {
    for (std::size_t n : sizes) {
      CAPTURE(std::string(spvjit::test::name(p)));
      CAPTURE(n);
      check_all_memory_kinds(with_specials(spvjit::test::pattern_values<T>(p, n, 11)));
    }
  }
}

}  // namespace

TEST_CASE("copy_if, partition, unique: float with NaNs and signed zeros, every shape") {
  check_every_shape<float>();
}

TEST_CASE("copy_if, partition, unique: double, int32 and int64, every shape") {
  check_every_shape<double>();
  check_every_shape<std::int32_t>();
  check_every_shape<std::int64_t>();
}

TEST_CASE("copy_if, partition, unique: uint8, int16 and uint64") {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{8193}, std::size_t{65537}}) {
    CAPTURE(n);
    check_all_memory_kinds(spvjit::test::pattern_values<std::uint8_t>(Pattern::FewDistinct, n, 12));
    check_all_memory_kinds(spvjit::test::random_values<std::int16_t>(n, 13));
    check_all_memory_kinds(spvjit::test::pattern_values<std::uint64_t>(Pattern::Sorted, n, 14));
  }
}

TEST_CASE("copy_if, partition, unique: half in, half out") {
  std::vector<half> in;
  const auto floats =
      with_specials(spvjit::test::pattern_values<float>(Pattern::FewDistinct, 70001, 15));
  for (float f : floats) in.push_back(to_half(f));
  std::vector<half> want_copy, want_other, want_unique;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float f = to_float(in[i]);
    (f > 0.0f ? want_copy : want_other).push_back(in[i]);
    if (i == 0 || !(to_float(in[i - 1]) == f)) want_unique.push_back(in[i]);
  }
  auto& rt = algorithms().runtime();
  auto x = rt.upload(in);
  auto out = rt.allocate<half>(in.size());
  auto positive = [](auto v) { return v > 0.0f; };
  const std::size_t kept = copy_if(algorithms(), x, out, positive);
  auto got = out.to_vector();
  got.resize(kept);
  CHECK(same_bits(got, want_copy));
  CHECK(partition(algorithms(), x, out, positive) == want_copy.size());
  want_copy.insert(want_copy.end(), want_other.begin(), want_other.end());
  CHECK(same_halves(out.to_vector(), want_copy));
  const std::size_t distinct = unique(algorithms(), x, out);
  got = out.to_vector();
  got.resize(distinct);
  CHECK(same_halves(got, want_unique));
}

TEST_CASE("copy_if and partition: a predicate true for none and for all") {
  const auto host = spvjit::test::random_values<double>(100003, 16);
  auto& rt = algorithms().runtime();
  auto x = rt.upload(host);
  auto out = rt.allocate<double>(host.size());
  CHECK(copy_if(algorithms(), x, out, [](auto v) { return v > 5.0; }) == 0);
  CHECK(partition(algorithms(), x, out, [](auto v) { return v > 5.0; }) == 0);
  CHECK(same_bits(out.to_vector(), host));
  CHECK(copy_if(algorithms(), x, out, [](auto v) { return v < 5.0; }) == host.size());
  CHECK(same_bits(out.to_vector(), host));
  CHECK(partition(algorithms(), x, out, [](auto v) { return v < 5.0; }) == host.size());
  CHECK(same_bits(out.to_vector(), host));
}

TEST_CASE("unique: a user equality, and -0.0 equal to 0.0 while NaNs are all kept") {
  const std::vector<float> host = {0.0f, -0.0f, 0.0f, std::nanf(""), std::nanf(""),
                                   1.0f, 1.5f,  2.0f, -0.0f,         0.0f};
  auto& rt = algorithms().runtime();
  auto x = rt.upload(host);
  auto out = rt.allocate<float>(host.size());
  auto got = out.to_vector();
  const std::size_t k = unique(algorithms(), x, out);
  got = out.to_vector();
  got.resize(k);
  std::vector<float> want;
  std::unique_copy(host.begin(), host.end(), std::back_inserter(want));
  REQUIRE(want.size() == 7);  // 0, NaN, NaN, 1, 1.5, 2, -0
  CHECK(same_bits(got, want));
  // Same integer part: 1.0 and 1.5 fall together.
  const std::size_t m =
      unique(algorithms(), x, out, [](auto a, auto b) { return trunc(a) == trunc(b); });
  got = out.to_vector();
  got.resize(m);
  want.clear();
  std::unique_copy(host.begin(), host.end(), std::back_inserter(want),
                   [](float a, float b) { return std::trunc(a) == std::trunc(b); });
  CHECK(same_bits(got, want));
}

TEST_CASE("compaction: a too small or overlapping output is a UserError") {
  auto& rt = algorithms().runtime();
  auto x = rt.upload(spvjit::test::random_values<float>(1000, 17));
  auto small = rt.allocate<float>(999);
  auto positive = [](auto v) { return v > 0.0f; };
  CHECK_THROWS_AS(copy_if(algorithms(), x, small, positive), UserError);
  CHECK_THROWS_AS(partition(algorithms(), x, small, positive), UserError);
  CHECK_THROWS_AS(unique(algorithms(), x, small), UserError);
  CHECK_THROWS_AS(copy_if(algorithms(), x, x, positive), UserError);
  auto shared = allocate_shared<float>(rt, 2000);
  auto first = shared.view(0, 1000);
  auto overlapping = shared.view(500, 1000);
  CHECK_THROWS_AS(copy_if(algorithms(), first, overlapping, positive), UserError);
}

TEST_CASE("compaction and histogram: a repeated call of one size allocates no buffer") {
  auto& rt = algorithms().runtime();
  auto x = rt.upload(spvjit::test::random_values<float>(300001, 18));
  auto out = rt.allocate<float>(300001);
  auto bins = rt.allocate<std::uint32_t>(256);
  auto positive = [](auto v) { return v > 0.0f; };
  auto run = [&] {
    copy_if(algorithms(), x, out, positive);
    partition(algorithms(), x, out, positive);
    unique(algorithms(), x, out);
    histogram(algorithms(), x, bins, -1.0f, 1.0f);
  };
  // The scratch buffers the family uses (slots 20..22) are the same ones after a second call.
  auto scratch_handles = [&] {
    auto lock = algorithms().lock();
    return std::vector<const void*>{algorithms().scratch<std::int64_t>(20, 1).handle(),
                                    algorithms().scratch<std::int64_t>(21, 1).handle(),
                                    algorithms().scratch<std::uint32_t>(22, 1).handle()};
  };
  run();
  const auto before = scratch_handles();
  run();
  CHECK(scratch_handles() == before);
}

namespace {

template <class T, class H>
std::vector<H> expected_histogram(const std::vector<T>& in, std::size_t bins, T lo, T hi) {
  std::vector<H> want(bins, 0);
  const T scale = static_cast<T>(bins) / (hi - lo);
  for (T v : in) {
    if (!(v >= lo && v < hi)) continue;
    want[std::min<std::size_t>(static_cast<std::size_t>(static_cast<T>((v - lo) * scale)),
                               bins - 1)] += 1;
  }
  return want;
}

}  // namespace

TEST_CASE(
    "histogram: float and double ranges, NaNs and outside values ignored, every memory kind") {
  auto& rt = algorithms().runtime();
  for (std::size_t n : sizes) {
    for (std::size_t bins : {std::size_t{1}, std::size_t{7}, std::size_t{256}, std::size_t{5000}}) {
      CAPTURE(n);
      CAPTURE(bins);
      const auto f = with_specials(spvjit::test::random_values<float>(n, 19));
      auto fx = rt.upload(f);
      auto fout = rt.allocate<std::uint32_t>(bins);
      histogram(algorithms(), fx, fout, -0.5f, 0.75f);
      CHECK(fout.to_vector() == expected_histogram<float, std::uint32_t>(f, bins, -0.5f, 0.75f));

      const auto d = with_specials(spvjit::test::random_values<double>(n, 20));
      auto dx = spvjit::test::shared_copy(d);
      auto dout = allocate_shared<std::int64_t>(rt, bins);
      histogram(algorithms(), dx, dout, -1.0, 1.0);
      rt.synchronize();
      CHECK(std::vector<std::int64_t>(dout.begin(), dout.end()) ==
            expected_histogram<double, std::int64_t>(d, bins, -1.0, 1.0));

      std::vector<double> padded(n + 32, 100.0);
      std::copy(d.begin(), d.end(), padded.begin() + 16);
      auto parent = rt.upload(padded);
      BufferView<double> view(parent, 16, n);
      auto vout_parent = rt.allocate<std::int64_t>(bins + 32);
      BufferView<std::int64_t> vout(vout_parent, 32, bins);
      histogram(algorithms(), view, vout, -1.0, 1.0);
      CHECK(vout.to_vector() == expected_histogram<double, std::int64_t>(d, bins, -1.0, 1.0));
    }
  }
}

TEST_CASE("histogram: integer values as bin indices, and integer ranges") {
  auto& rt = algorithms().runtime();
  for (std::size_t n : sizes) {
    CAPTURE(n);
    const auto host = spvjit::test::random_values<std::int32_t>(n, 21);
    std::vector<std::int32_t> labels;
    for (auto v : host) labels.push_back(v % 300);  // some negative: ignored
    auto x = rt.upload(labels);
    auto out = rt.allocate<std::uint32_t>(256);
    histogram(algorithms(), x, out);
    std::vector<std::uint32_t> want(256, 0);
    for (auto v : labels) {
      if (v >= 0 && v < 256) want[static_cast<std::size_t>(v)] += 1;
    }
    CHECK(out.to_vector() == want);

    auto raw = rt.upload(host);
    auto ranged = rt.allocate<std::int64_t>(10);
    const std::int64_t lo = -1'000'000'000, hi = 2'000'000'000;
    histogram(algorithms(), raw, ranged, lo, hi);
    std::vector<std::int64_t> want_ranged(10, 0);
    for (auto v : host) {
      if (v >= lo && v < hi) want_ranged[static_cast<std::size_t>((v - lo) * 10 / (hi - lo))] += 1;
    }
    CHECK(ranged.to_vector() == want_ranged);

    std::vector<std::uint64_t> big(n);
    for (std::size_t i = 0; i < n; ++i)
      big[i] = static_cast<std::uint64_t>(host[i]) % 40;  // negatives become huge
    auto bx = spvjit::test::shared_copy(big);
    auto bout = allocate_shared<std::uint32_t>(rt, 40);
    histogram(algorithms(), bx, bout);
    rt.synchronize();
    std::vector<std::uint32_t> want_big(40, 0);
    for (auto v : big) want_big[v] += 1;
    CHECK(std::vector<std::uint32_t>(bout.begin(), bout.end()) == want_big);
  }
}

TEST_CASE("histogram: half values, and bad ranges are UserErrors") {
  auto& rt = algorithms().runtime();
  const auto f = with_specials(spvjit::test::random_values<float>(50000, 22));
  std::vector<half> h;
  std::vector<float> rounded;
  for (float v : f) {
    h.push_back(to_half(v));
    rounded.push_back(to_float(h.back()));
  }
  auto x = rt.upload(h);
  auto out = rt.allocate<std::uint32_t>(64);
  histogram(algorithms(), x, out, -1.0f, 1.0f);
  CHECK(out.to_vector() == expected_histogram<float, std::uint32_t>(rounded, 64, -1.0f, 1.0f));
  CHECK_THROWS_AS(histogram(algorithms(), x, out, 1.0f, 1.0f), UserError);
  CHECK_THROWS_AS(histogram(algorithms(), x, out, 0.0f, std::nanf("")), UserError);
  auto none = rt.allocate<std::uint32_t>(0);
  CHECK_THROWS_AS(histogram(algorithms(), x, none, 0.0f, 1.0f), UserError);
}
