// Sorts and searches against std::sort, std::stable_sort and std::lower_bound/upper_bound, on
// Buffer, BufferView and SharedArray inputs of every pattern and the sizes that break chunking;
// float keys with NaNs of both signs, signed zeros and infinities, compared bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <cstring>
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

// Algorithms that never take the host route: small SharedArrays run the kernels too.
Algorithms& kernels_only() {
  static Algorithms algs(spvjit::test::runtime(), spvjit::test::jit(), {.host_threshold = 0});
  return algs;
}

// IEEE totalOrder as an unsigned integer order: negatives' bits flipped, the others' sign bit.
template <class T>
auto total_order(T v) {
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const U bits = std::bit_cast<U>(v);
  constexpr U sign = U(1) << (8 * sizeof(T) - 1);
  if constexpr (std::is_floating_point_v<T>) {
    return (bits & sign) ? U(~bits) : U(bits | sign);
  } else if constexpr (std::is_signed_v<T>) {
    return U(bits ^ sign);
  } else {
    return bits;
  }
}
template <class T>
bool total_less(T a, T b) {
  return total_order(a) < total_order(b);
}

template <class T>
std::vector<T> std_sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end(), total_less<T>);
  return v;
}

// Bit for bit: NaN payloads and signed zeros included.
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class T>
std::vector<T> with_specials(std::vector<T> v) {
  using L = std::numeric_limits<T>;
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const T specials[] = {L::quiet_NaN(),
                        -L::quiet_NaN(),
                        L::infinity(),
                        -L::infinity(),
                        T(0),
                        -T(0),
                        L::denorm_min(),
                        -L::denorm_min(),
                        L::max(),
                        L::lowest(),
                        std::bit_cast<T>(U(std::bit_cast<U>(L::quiet_NaN()) | 5)),
                        std::bit_cast<T>(U(std::bit_cast<U>(-L::quiet_NaN()) | 9)),
                        L::signaling_NaN()};
  for (std::size_t i = 0; i < v.size(); i += 7) v[i] = specials[(i / 7) % std::size(specials)];
  return v;
}

// Sorts `host` in a Buffer, a BufferView inside a larger buffer, and a SharedArray (through
// both Algorithms), checking each against std::sort bit for bit.
template <class T>
void check_sort_everywhere(const std::vector<T>& host) {
  const auto want = std_sorted(host);
  auto& rt = spvjit::test::runtime();
  {
    auto buffer = rt.upload(host);
    sort(algorithms(), buffer);
    CHECK(same_bits(buffer.to_vector(), want));
  }
  {
    const std::size_t offset = 64;  // 256+ bytes: a valid sub-buffer origin for any T
    std::vector<T> padded(offset + host.size() + 5, T(7));
    std::copy(host.begin(), host.end(), padded.begin() + offset);
    auto buffer = rt.upload(padded);
    sort(algorithms(), view(buffer, offset, host.size()));
    auto got = buffer.to_vector();
    CHECK(
        same_bits(std::vector<T>(got.begin() + offset, got.begin() + offset + host.size()), want));
    CHECK(std::all_of(got.begin(), got.begin() + offset, [](T v) { return v == T(7); }));
    CHECK(std::all_of(got.end() - 5, got.end(), [](T v) { return v == T(7); }));
  }
  for (Algorithms* algs : {&algorithms(), &kernels_only()}) {
    auto shared = spvjit::test::shared_copy(host);
    sort(*algs, shared);
    rt.synchronize();
    CHECK(same_bits(std::vector<T>(shared.begin(), shared.end()), want));
  }
}

template <class T>
void check_radix_type() {
  for (std::size_t n : sizes) {
    for (Pattern p : spvjit::test::all_patterns) {
      CAPTURE(n);
      CAPTURE(spvjit::test::name(p));
      auto host = spvjit::test::pattern_values<T>(p, n, 11);
      if constexpr (std::is_floating_point_v<T>) {
        if (p == Pattern::Random) host = with_specials(host);
      }
      check_sort_everywhere(host);
    }
  }
}

}  // namespace

TEST_CASE("sort: int32 and uint32 keys equal std::sort on every pattern, size and memory") {
  check_radix_type<std::int32_t>();
  check_radix_type<std::uint32_t>();
}

TEST_CASE("sort: int64 and uint64 keys equal std::sort on every pattern, size and memory") {
  check_radix_type<std::int64_t>();
  check_radix_type<std::uint64_t>();
}

TEST_CASE("sort: float and double keys equal std::sort by IEEE total order, bit for bit") {
  check_radix_type<float>();
  check_radix_type<double>();
}

TEST_CASE("sort: NaNs of both signs, signed zeros and infinities land in total order") {
  using L = std::numeric_limits<float>;
  std::vector<float> host(20000);
  for (std::size_t i = 0; i < host.size(); ++i) {
    const float choices[] = {L::quiet_NaN(), -L::quiet_NaN(), 0.0f, -0.0f,
                             L::infinity(),  -L::infinity(),  1.5f, -1.5f};
    host[i] = choices[(i * 7919) % 8];
  }
  auto buffer = spvjit::test::runtime().upload(host);
  sort(algorithms(), buffer);
  const auto got = buffer.to_vector();
  CHECK(same_bits(got, std_sorted(host)));
  // -NaN first, +NaN last, -0.0 right before +0.0.
  CHECK((std::isnan(got.front()) && std::signbit(got.front())));
  CHECK((std::isnan(got.back()) && !std::signbit(got.back())));
  const auto zero = std::find(got.begin(), got.end(), 0.0f);
  CHECK(std::signbit(*zero));
  CHECK(std::signbit(*(zero + 2500 - 1)));
  CHECK(!std::signbit(*(zero + 2500)));
}

TEST_CASE("sort: small host inputs without NaNs still put -0.0 before +0.0") {
  // The host route sorts NaN-free floats with operator<, which leaves zeros unordered.
  for (std::size_t n : {std::size_t{2}, std::size_t{31}, std::size_t{1000}, std::size_t{4096}}) {
    CAPTURE(n);
    auto host = spvjit::test::random_values<double>(n, 81);
    for (std::size_t i = 0; i < n; i += 3) host[i] = (i / 3) % 2 ? 0.0 : -0.0;
    host[n - 1] = std::numeric_limits<double>::infinity();
    auto shared = spvjit::test::shared_copy(host);
    sort(algorithms(), shared);
    CHECK(same_bits(std::vector<double>(shared.begin(), shared.end()), std_sorted(host)));
  }
}

TEST_CASE("sort_by_key: values follow their keys, equal keys in their order (stable)") {
  for (std::size_t n : sizes) {
    CAPTURE(n);
    // Few distinct keys: long runs of equals, where stability shows.
    const auto keys = spvjit::test::pattern_values<float>(Pattern::FewDistinct, n, 21);
    std::vector<std::int64_t> index(n);
    std::iota(index.begin(), index.end(), 0);
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = 0.5 * double(i);
    std::vector<std::int64_t> want_index = index;
    std::stable_sort(want_index.begin(), want_index.end(),
                     [&](std::int64_t a, std::int64_t b) { return total_less(keys[a], keys[b]); });
    std::vector<float> want_keys(n);
    std::vector<double> want_values(n);
    for (std::size_t i = 0; i < n; ++i) {
      want_keys[i] = keys[want_index[i]];
      want_values[i] = values[want_index[i]];
    }
    auto& rt = spvjit::test::runtime();
    auto kbuf = rt.upload(keys);
    auto vbuf = rt.upload(values);
    sort_by_key(algorithms(), kbuf, vbuf);
    CHECK(same_bits(kbuf.to_vector(), want_keys));
    CHECK(vbuf.to_vector() == want_values);

    const auto ikeys = spvjit::test::pattern_values<std::int32_t>(Pattern::Random, n, 22);
    std::vector<std::int32_t> few(n);
    for (std::size_t i = 0; i < n; ++i) few[i] = ikeys[i] % 3;
    std::vector<std::int64_t> want_i = index;
    std::stable_sort(want_i.begin(), want_i.end(),
                     [&](std::int64_t a, std::int64_t b) { return few[a] < few[b]; });
    for (Algorithms* algs : {&algorithms(), &kernels_only()}) {
      auto sk = spvjit::test::shared_copy(few);
      auto sv = spvjit::test::shared_copy(index);
      sort_by_key(*algs, sk, sv);
      rt.synchronize();
      CHECK(std::vector<std::int64_t>(sv.begin(), sv.end()) == want_i);
      CHECK(std::is_sorted(sk.begin(), sk.end()));
    }
  }
}

TEST_CASE("sortperm: the stable permutation, keys untouched") {
  for (std::size_t n : sizes) {
    CAPTURE(n);
    auto keys = with_specials(spvjit::test::pattern_values<double>(Pattern::FewDistinct, n, 31));
    std::vector<std::int64_t> want(n);
    std::iota(want.begin(), want.end(), 0);
    std::stable_sort(want.begin(), want.end(),
                     [&](std::int64_t a, std::int64_t b) { return total_less(keys[a], keys[b]); });
    auto& rt = spvjit::test::runtime();
    auto kbuf = rt.upload(keys);
    auto perm = rt.allocate<std::int64_t>(n);
    sortperm(algorithms(), kbuf, perm);
    CHECK(perm.to_vector() == want);
    CHECK(same_bits(kbuf.to_vector(), keys));

    const auto ikeys = spvjit::test::pattern_values<std::int64_t>(Pattern::Reversed, n, 32);
    std::vector<std::int64_t> iwant(n);
    std::iota(iwant.begin(), iwant.end(), 0);
    std::stable_sort(iwant.begin(), iwant.end(),
                     [&](std::int64_t a, std::int64_t b) { return ikeys[a] < ikeys[b]; });
    for (Algorithms* algs : {&algorithms(), &kernels_only()}) {
      auto sk = spvjit::test::shared_copy(ikeys);
      auto sp = allocate_shared<std::int64_t>(rt, n);
      sortperm(*algs, sk, sp);
      rt.synchronize();
      CHECK(std::vector<std::int64_t>(sp.begin(), sp.end()) == iwant);
      CHECK(std::vector<std::int64_t>(sk.begin(), sk.end()) == ikeys);
    }
  }
}

TEST_CASE("sort with a comparator: a stable merge sort, equal to std::stable_sort") {
  // Comparing the high bits only leaves runs of keys the comparator calls equal: a stable sort
  // keeps them in input order, which std::stable_sort pins down exactly.
  auto coarse = [](auto a, auto b) { return (a >> 20) < (b >> 20); };
  auto descending = [](auto a, auto b) { return a > b; };
  for (std::size_t n : sizes) {
    for (Pattern p : spvjit::test::all_patterns) {
      CAPTURE(n);
      CAPTURE(spvjit::test::name(p));
      const auto host = spvjit::test::pattern_values<std::uint32_t>(p, n, 41);
      auto want = host;
      std::stable_sort(want.begin(), want.end(),
                       [](std::uint32_t a, std::uint32_t b) { return (a >> 20) < (b >> 20); });
      auto& rt = spvjit::test::runtime();
      auto buffer = rt.upload(host);
      sort(algorithms(), buffer, coarse);
      CHECK(buffer.to_vector() == want);
      auto shared = spvjit::test::shared_copy(host);
      sort(kernels_only(), shared, coarse);
      rt.synchronize();
      CHECK(std::vector<std::uint32_t>(shared.begin(), shared.end()) == want);

      const auto floats = spvjit::test::pattern_values<float>(p, n, 42);
      auto fwant = floats;
      std::stable_sort(fwant.begin(), fwant.end(), std::greater<>());
      auto fbuf = rt.upload(floats);
      sort(algorithms(), fbuf, descending);
      CHECK(fbuf.to_vector() == fwant);
    }
  }
}

TEST_CASE("searchsorted: std::lower_bound and std::upper_bound indices") {
  for (std::size_t n : sizes) {
    for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{70001}}) {
      CAPTURE(n);
      CAPTURE(m);
      auto sorted = spvjit::test::pattern_values<std::int32_t>(Pattern::FewDistinct, n, 51);
      std::sort(sorted.begin(), sorted.end());
      std::vector<std::int32_t> needles(m);
      for (std::size_t i = 0; i < m; ++i) needles[i] = static_cast<std::int32_t>(i % 9) - 4;
      auto& rt = spvjit::test::runtime();
      auto sbuf = rt.upload(sorted);
      auto nbuf = rt.upload(needles);
      auto out = rt.allocate<std::int64_t>(m);
      for (SearchSide side : {SearchSide::First, SearchSide::Last}) {
        std::vector<std::int64_t> want(m);
        for (std::size_t i = 0; i < m; ++i) {
          want[i] = (side == SearchSide::First
                         ? std::lower_bound(sorted.begin(), sorted.end(), needles[i])
                         : std::upper_bound(sorted.begin(), sorted.end(), needles[i])) -
                    sorted.begin();
        }
        searchsorted(algorithms(), sbuf, nbuf, out, side);
        CHECK(out.to_vector() == want);
        for (Algorithms* algs : {&algorithms(), &kernels_only()}) {
          auto ss = spvjit::test::shared_copy(sorted);
          auto sn = spvjit::test::shared_copy(needles);
          auto so = allocate_shared<std::int64_t>(rt, m);
          searchsorted(*algs, ss, sn, so, side);
          rt.synchronize();
          CHECK(std::vector<std::int64_t>(so.begin(), so.end()) == want);
        }
      }
    }
  }
}

TEST_CASE("searchsorted: float needles between, at and outside the sorted values") {
  auto sorted = spvjit::test::random_values<double>(100000, 61);
  std::sort(sorted.begin(), sorted.end());
  auto needles = spvjit::test::random_values<double>(50000, 62);
  for (std::size_t i = 0; i < needles.size(); i += 3) needles[i] = sorted[(i * 31) % sorted.size()];
  needles[1] = -5.0;
  needles[2] = 5.0;
  auto& rt = spvjit::test::runtime();
  auto sbuf = rt.upload(sorted);
  auto nbuf = rt.upload(needles);
  auto out = rt.allocate<std::int64_t>(needles.size());
  searchsorted(algorithms(), sbuf, nbuf, out, SearchSide::Last);
  const auto got = out.to_vector();
  bool all_equal = true;
  for (std::size_t i = 0; i < needles.size(); ++i) {
    all_equal = all_equal && got[i] == std::upper_bound(sorted.begin(), sorted.end(), needles[i]) -
                                           sorted.begin();
  }
  CHECK(all_equal);
}

TEST_CASE("sort: a repeated call of one size allocates no new scratch buffer") {
  Algorithms algs(spvjit::test::runtime(), spvjit::test::jit());
  const auto host = spvjit::test::random_values<float>(200000, 71);
  auto keys = spvjit::test::runtime().upload(host);
  auto values = spvjit::test::runtime().upload(std::vector<std::int32_t>(host.size(), 1));
  sort_by_key(algs, keys, values);
  auto handles = [&] {
    auto lock = algs.lock();
    return std::vector<const void*>{
        algs.scratch<std::uint32_t>(10, 0).handle(), algs.scratch<std::uint32_t>(11, 0).handle(),
        algs.scratch<std::int64_t>(12, 0).handle(), algs.scratch<std::int32_t>(13, 0).handle(),
        algs.scratch<std::uint32_t>(14, 0).handle()};
  };
  const auto first = handles();
  keys.write(host);
  sort_by_key(algs, keys, values);
  CHECK(handles() == first);
  CHECK(same_bits(keys.to_vector(), std_sorted(host)));
}

TEST_CASE("sort_by_key, sortperm and searchsorted refuse outputs that are too short") {
  auto& rt = spvjit::test::runtime();
  auto keys = rt.upload(std::vector<std::int32_t>{3, 1, 2});
  auto short_values = rt.allocate<float>(2);
  CHECK_THROWS_WITH_AS(sort_by_key(algorithms(), keys, short_values),
                       doctest::Contains("values holds 2 elements; expected at least 3"),
                       UserError);
  auto short_perm = rt.allocate<std::int64_t>(1);
  CHECK_THROWS_WITH_AS(sortperm(algorithms(), keys, short_perm),
                       doctest::Contains("perm holds 1 elements"), UserError);
  CHECK_THROWS_WITH_AS(searchsorted(algorithms(), keys, keys, short_perm),
                       doctest::Contains("out holds 1 elements"), UserError);
}
