// Integer edge cases (division by negative numbers, shifts by the width or more, wrapping
// overflow), the integer math helpers, and a Float16 round trip of every finite half value.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

constexpr std::int64_t results = 11;

// For each pair (a, b): a/b, a%b, a<<b, a>>b (arithmetic), u(a)>>b (logical), a+b, a*b, a-b,
// abs(a), popcount(a), clz(a). Division by zero and INT_MIN / -1 are undefined in OpenCL C, as
// in C; the inputs avoid them.
KernelDef int_ops() {
  KernelBuilder kb("int_ops");
  auto out = kb.param<Global<std::int32_t>>("out");
  auto as = kb.param<Const<std::int32_t>>("a");
  auto bs = kb.param<Const<std::int32_t>>("b");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    Val<std::int32_t> a = as[i], b = bs[i];
    auto r = view(out, kb.ndrange(), results);
    r(i, 0) = a / b;
    r(i, 1) = a % b;
    r(i, 2) = a << b;
    r(i, 3) = a >> b;
    r(i, 4) = cast<std::int32_t>(cast<std::uint32_t>(a) >> cast<std::uint32_t>(b));
    r(i, 5) = a + b;
    r(i, 6) = a * b;
    r(i, 7) = a - b;
    r(i, 8) = abs(a);
    r(i, 9) = popcount(a);
    r(i, 10) = clz(a);
  });
  return kb.finish();
}

std::int32_t wrap(std::int64_t v) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
}

}  // namespace

TEST_CASE("integer edge cases: negative division, wide shifts, wrapping overflow") {
  const std::int32_t big = std::numeric_limits<std::int32_t>::max();
  const std::int32_t small = std::numeric_limits<std::int32_t>::min();
  std::vector<std::int32_t> a = {-7, 7, -7,    7,     big,  small,      big,
                                 -1, 1, 12345, small, -100, 0x0f0f0f0f, 0};
  std::vector<std::int32_t> b = {2, -2, -2, 32, 1, -2, 2, 33, 31, 63, 1, 64, 100, -1};
  const std::size_t n = a.size();
  auto& rt = test::runtime();
  Kernel k = test::compile_checked(int_ops());
  // The chosen workgroup, and one of 4 that leaves the last group partly outside the range.
  for (std::size_t wg : {0u, 4u}) {
    CAPTURE(wg);
    auto out = rt.zeros<std::int32_t>(n * results);
    auto A = rt.upload(a), B = rt.upload(b);
    if (wg == 0) {
      k.launch(NDRange{n}, out, A, B);
    } else {
      k.launch(NDRange{n}, WorkGroup{wg}, out, A, B);
    }
    rt.synchronize();
    auto got = out.to_vector();
    for (std::size_t j = 0; j < n; ++j) {
      CAPTURE(a[j]);
      CAPTURE(b[j]);
      const std::int32_t x = a[j], y = b[j];
      const unsigned s = static_cast<unsigned>(y) & 31u;  // shift amounts are taken modulo 32
      const std::uint32_t ux = static_cast<std::uint32_t>(x);
      CHECK(got[j * results + 0] == x / y);  // C++ and OpenCL both round toward zero
      CHECK(got[j * results + 1] == x % y);  // the remainder takes the dividend's sign
      CHECK(got[j * results + 2] == wrap(static_cast<std::int64_t>(ux << s)));
      CHECK(got[j * results + 3] == (x >> s));
      CHECK(got[j * results + 4] == static_cast<std::int32_t>(ux >> s));
      CHECK(got[j * results + 5] == wrap(static_cast<std::int64_t>(x) + y));
      CHECK(got[j * results + 6] == wrap(static_cast<std::int64_t>(x) * y));
      CHECK(got[j * results + 7] == wrap(static_cast<std::int64_t>(x) - y));
      CHECK(got[j * results + 8] == wrap(x < 0 ? -static_cast<std::int64_t>(x) : x));
      CHECK(got[j * results + 9] == std::popcount(ux));
      CHECK(got[j * results + 10] == std::countl_zero(ux));
    }
  }
}

TEST_CASE("narrow and wide integers wrap, and integer min, max and clamp work") {
  KernelBuilder kb("narrow_wide");
  auto o8 = kb.param<Global<std::int8_t>>("o8");
  auto o16 = kb.param<Global<std::uint16_t>>("o16");
  auto o64 = kb.param<Global<std::int64_t>>("o64");
  auto x8 = kb.param<std::int8_t>("x8");
  auto x16 = kb.param<std::uint16_t>("x16");
  auto x64 = kb.param<std::int64_t>("x64");
  o8[0] = x8 + std::int8_t{1};
  o8[1] = abs(x8);
  o8[2] = clz(x8);
  o16[0] = x16 * std::uint16_t{3};
  o16[1] = popcount(x16);
  o64[0] = x64 + x64;
  o64[1] = min(x64, kb.lit<std::int64_t>(-5));
  o64[2] = max(x64, kb.lit<std::int64_t>(-5));
  o64[3] = clamp(x64, std::int64_t{-10}, std::int64_t{10});
  o64[4] = cast<std::int64_t>(clamp(cast<std::uint32_t>(x64), 3u, 9u));
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  auto b8 = rt.zeros<std::int8_t>(3);
  auto b16 = rt.zeros<std::uint16_t>(2);
  auto b64 = rt.zeros<std::int64_t>(5);
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
  k.launch(NDRange{1}, b8, b16, b64, std::int8_t{127}, std::uint16_t{40000}, huge);
  rt.synchronize();
  CHECK(b8.to_vector() == std::vector<std::int8_t>{-128, 127, 1});
  CHECK(b16.to_vector() ==
        std::vector<std::uint16_t>{static_cast<std::uint16_t>(120000 % 65536),
                                   static_cast<std::uint16_t>(std::popcount(40000u))});
  CHECK(b64.to_vector() == std::vector<std::int64_t>{-2, -5, huge, 10, 9});
}

TEST_CASE("Float16 round trip of every finite half value") {
  KernelBuilder kb("half_round_trip");
  auto out_h = kb.param<Global<half>>("out_h");
  auto out_f = kb.param<Global<float>>("out_f");
  auto in = kb.param<Const<half>>("in");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    Val<float> x = in[i];
    out_f[i] = x;
    out_h[i] = x;
  });
  Kernel k = test::compile_checked(kb.finish());
  std::vector<half> all;
  for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
    if (((bits >> 10) & 0x1fu) != 0x1fu) all.push_back(half{static_cast<std::uint16_t>(bits)});
  }
  REQUIRE(all.size() == 63488);  // 2^16 minus the 2048 infinities and NaNs
  auto& rt = test::runtime();
  auto In = rt.upload(all);
  // The chosen workgroup, and one of 96 that leaves the last group partly outside the range.
  for (std::size_t wg : {0u, 96u}) {
    CAPTURE(wg);
    auto H = rt.zeros<half>(all.size());
    auto F = rt.zeros<float>(all.size());
    if (wg == 0) {
      k.launch(NDRange{all.size()}, H, F, In);
    } else {
      k.launch(NDRange{all.size()}, WorkGroup{wg}, H, F, In);
    }
    rt.synchronize();
    const auto hs = H.to_vector();
    const auto fs = F.to_vector();
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < all.size(); ++j) {
      wrong += !(hs[j] == all[j]);
      wrong +=
          std::bit_cast<std::uint32_t>(fs[j]) != std::bit_cast<std::uint32_t>(to_float(all[j]));
    }
    CHECK(wrong == 0);
  }
}
