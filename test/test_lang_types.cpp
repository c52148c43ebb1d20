// Every scalar type through every memory space the language has: scalar parameters by value,
// global, constant, local (static and sized at launch) and private memory, and casts between
// types. Each kernel passes spirv-val and runs.
#include <doctest/doctest.h>

#include <array>
#include <span>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

// out[i] = (T)(in[i] * s + i) through a private variable and a local array, for one type.
template <class T>
void round_trip_type() {
  CAPTURE(name(scalar_of<T>));
  KernelBuilder kb(std::string("types_") + std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<T>>("out");
  auto in = kb.param<Constant<T>>("in");
  auto s = kb.param<T>("s");
  auto scratch = kb.param<Local<T>>("scratch");  // sized at launch with LocalMemory
  auto i = kb.global_index();
  auto lid = kb.local_index();
  auto staged = local_array<T>(kb, {64}, "staged");
  auto priv = private_array<T>(kb, {2});
  kb.if_(kb.in_ndrange(), [&] {
    Val<T> x = in[i];
    if constexpr (std::is_same_v<T, bool>) {
      priv(0) = x != s;
    } else {
      priv(0) = x * s + cast<T>(i);
    }
    staged(lid) = priv(0).get();
    scratch[lid] = staged(lid).get();
    out[i] = scratch[lid].get();
  });
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  constexpr std::size_t n = 100;
  // Arrays, not vectors: std::vector<bool> has no contiguous storage to upload from.
  std::array<T, n> xs{}, expected{}, got{};
  const T sv = std::is_same_v<T, bool> ? T(1) : T(3);
  for (std::size_t j = 0; j < n; ++j) {
    xs[j] = static_cast<T>(j % 5);
    if constexpr (std::is_same_v<T, bool>) {
      expected[j] = xs[j] != sv;
    } else {
      expected[j] = static_cast<T>(xs[j] * sv + static_cast<T>(j));
    }
  }
  auto X = rt.upload(std::span<const T>(xs));
  auto O = rt.zeros<T>(n);
  k.launch(NDRange{n}, WorkGroup{64}, O, X, sv, LocalMemory{64 * sizeof(T)});
  rt.synchronize();
  O.read(std::span<T>(got));
  CHECK(got == expected);
}

}  // namespace

TEST_CASE("every scalar type by value and through global, constant, local and private memory") {
  round_trip_type<bool>();
  round_trip_type<std::int8_t>();
  round_trip_type<std::uint8_t>();
  round_trip_type<std::int16_t>();
  round_trip_type<std::uint16_t>();
  round_trip_type<std::int32_t>();
  round_trip_type<std::uint32_t>();
  round_trip_type<std::int64_t>();
  round_trip_type<std::uint64_t>();
  round_trip_type<float>();
  round_trip_type<double>();
}

TEST_CASE("half storage in every memory space and as a scalar parameter") {
  KernelBuilder kb("types_f16");
  auto out = kb.param<Global<half>>("out");
  auto in = kb.param<Constant<half>>("in");
  auto s = kb.param<half>("s");  // arrives as f32 for arithmetic
  auto i = kb.global_index();
  auto staged = local_array<half>(kb, {64}, "staged");
  auto priv = private_array<half>(kb, {1});
  kb.if_(kb.in_ndrange(), [&] {
    priv(0) = in[i] * s;
    staged(kb.local_index()) = priv(0).get();
    out[i] = staged(kb.local_index()).get() + 0.5f;
  });
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::size_t n = 70;
  std::vector<half> xs(n), expected(n);
  for (std::size_t j = 0; j < n; ++j) {
    xs[j] = to_half(static_cast<float>(j) * 0.25f);
    expected[j] = to_half(to_float(to_half(to_float(xs[j]) * 2.0f)) + 0.5f);
  }
  auto X = rt.upload(xs);
  auto O = rt.zeros<half>(n);
  k.launch(NDRange{n}, WorkGroup{64}, O, X, to_half(2.0f));
  rt.synchronize();
  CHECK(O.to_vector() == expected);
}

TEST_CASE("explicit casts between integer, float and bool types") {
  KernelBuilder kb("casts");
  auto out_i = kb.param<Global<std::int32_t>>("out_i");
  auto out_f = kb.param<Global<double>>("out_f");
  auto x = kb.param<double>("x");
  auto u = kb.param<std::uint8_t>("u");
  auto b = kb.param<bool>("b");
  out_i[0] = cast<std::int32_t>(x);                     // toward zero
  out_i[1] = cast<std::int32_t>(u);                     // zero-extended
  out_i[2] = cast<std::int32_t>(cast<std::int8_t>(u));  // sign-extended
  out_i[3] = cast<std::int32_t>(b);
  out_i[4] = cast<std::int32_t>(cast<bool>(x));
  out_f[0] = cast<double>(cast<float>(x));
  out_f[1] = cast<double>(u);
  out_f[2] = select(b, x, -x);
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  auto I = rt.zeros<std::int32_t>(5);
  auto F = rt.zeros<double>(3);
  k.launch(NDRange{1}, I, F, -2.75, std::uint8_t{200}, true);
  rt.synchronize();
  CHECK(I.to_vector() == std::vector<std::int32_t>{-2, 200, -56, 1, 1});
  CHECK(F.to_vector() == std::vector<double>{static_cast<double>(-2.75f), 200.0, -2.75});
}
