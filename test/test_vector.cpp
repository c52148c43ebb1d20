// Vec<T, N>: every kernel is checked with spirv-val, then run; results are compared with the
// host's, or (for builtins whose bits the device decides) with the same kernel's scalar form.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"
#include "test/coarsen_support.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

template <class T>
std::vector<T> ramp(std::size_t n, double scale, double offset) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(i) * scale + offset;
    if constexpr (std::is_integral_v<T>) {
      out[i] = static_cast<T>(static_cast<std::int64_t>(v));  // wraps into small types
    } else {
      out[i] = static_cast<T>(v);
    }
  }
  return out;
}

// Z[k..k+N) = a * X + Y, D = X - Y, P = X * Y, M = max(min(X, Y), a), S = X < Y ? X : Y, per
// vector of N lanes at element k = i * N.
template <class T, unsigned N>
KernelDef elementwise_kernel() {
  KernelBuilder kb("vec_elementwise");
  auto z = kb.param<Global<T>>("Z");
  auto d = kb.param<Global<T>>("D");
  auto p = kb.param<Global<T>>("P");
  auto m = kb.param<Global<T>>("M");
  auto s = kb.param<Global<T>>("S");
  auto x = kb.param<Const<T>>("X");
  auto y = kb.param<Const<T>>("Y");
  auto a = kb.param<T>("a");
  auto k = kb.global_index() * std::int64_t{N};
  Vec<T, N> vx = vload<N>(x, k), vy = vload<N>(y, k);
  vstore(z, k, a * vx + vy);
  vstore(d, k, vx - vy);
  vstore(p, k, vx * vy);
  vstore(m, k, max(min(vx, vy), Vec<T, N>::splat(a)));
  vstore(s, k, select(vx < vy, vx, vy));
  return kb.finish();
}

template <class T, unsigned N>
void check_elementwise() {
  CAPTURE(N);
  CAPTURE(name(scalar_of<T>));
  auto& rt = runtime();
  const std::size_t groups = 5, n = groups * N;
  const auto xs = ramp<T>(n, 3, 1), ys = ramp<T>(n, -2, 60);
  const T a = T(3);
  Kernel kernel = compile_checked(elementwise_kernel<T, N>());
  auto X = rt.upload(xs), Y = rt.upload(ys);
  auto Z = rt.zeros<T>(n), D = rt.zeros<T>(n), P = rt.zeros<T>(n), M = rt.zeros<T>(n),
       S = rt.zeros<T>(n);
  kernel.launch(NDRange{groups}, Z, D, P, M, S, X, Y, a);
  rt.synchronize();
  const auto z = Z.to_vector(), d = D.to_vector(), p = P.to_vector(), m = M.to_vector(),
             s = S.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    CHECK(z[i] == static_cast<T>(a * xs[i] + ys[i]));
    CHECK(d[i] == static_cast<T>(xs[i] - ys[i]));
    CHECK(p[i] == static_cast<T>(xs[i] * ys[i]));
    CHECK(m[i] == std::max(std::min(xs[i], ys[i]), a));
    CHECK(s[i] == (xs[i] < ys[i] ? xs[i] : ys[i]));
  }
}

template <class T>
void check_elementwise_all_widths() {
  check_elementwise<T, 2>();
  check_elementwise<T, 3>();
  check_elementwise<T, 4>();
  check_elementwise<T, 8>();
  check_elementwise<T, 16>();
}

}  // namespace

TEST_CASE("vector: element-wise arithmetic, min/max, compare and select, every width") {
  check_elementwise_all_widths<float>();
  check_elementwise_all_widths<double>();
  check_elementwise_all_widths<std::int32_t>();
  check_elementwise_all_widths<std::int64_t>();
  check_elementwise_all_widths<std::uint8_t>();
  check_elementwise<std::int16_t, 8>();
  check_elementwise<std::uint32_t, 16>();
}

namespace {

// Out[k] = f(vector of N lanes) and Ref[k] = f(lane k alone), for the unary math set.
template <class T, unsigned N, class VecFn, class ScalarFn>
void math_matches_scalar(const char* what, VecFn vf, ScalarFn sf, bool exact,
                         const std::vector<T>& input) {
  const std::string function = what;
  CAPTURE(function);
  CAPTURE(N);
  KernelBuilder kb("vec_math_" + function);
  auto out = kb.param<Global<T>>("Out");
  auto ref = kb.param<Global<T>>("Ref");
  auto in = kb.param<Const<T>>("In");
  auto k = kb.global_index() * std::int64_t{N};
  Vec<T, N> v = vload<N>(in, k);
  vstore(out, k, vf(v));
  for (unsigned lane = 0; lane < N; ++lane) ref[k + std::int64_t{lane}] = sf(v[lane]);
  Kernel kernel = compile_checked(kb.finish());
  auto& rt = runtime();
  const std::size_t n = input.size() / N * N;
  auto In = rt.upload(input);
  auto Out = rt.zeros<T>(n), Ref = rt.zeros<T>(n);
  kernel.launch(NDRange{n / N}, Out, Ref, In);
  rt.synchronize();
  const auto o = Out.to_vector(), r = Ref.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    CAPTURE(input[i]);
    if (std::isnan(r[i])) {
      CHECK(std::isnan(o[i]));
    } else if (exact || std::isinf(r[i])) {
      CHECK(o[i] == r[i]);
    } else {
      // OpenCL's accuracy for exp, sin, ...: a few ulp, whichever form is called.
      const T tolerance = std::max(std::abs(r[i]) * T(16) * std::numeric_limits<T>::epsilon(),
                                   std::numeric_limits<T>::min());
      CHECK(std::abs(o[i] - r[i]) <= tolerance);
    }
  }
}

template <class T, unsigned N>
void math_set() {
  std::vector<T> input(N * 64);
  std::mt19937 gen(7);
  std::uniform_real_distribution<T> dist(T(-20), T(20));
  for (auto& v : input) v = dist(gen);
  input[0] = T(-0.0);
  input[1] = std::numeric_limits<T>::infinity();
  input[2] = std::numeric_limits<T>::quiet_NaN();
  // 512-bit vectors (float16, double8) are split into 256-bit calls on this PoCL: exact.
  math_matches_scalar<T, N>(
      "fabs", [](auto v) { return fabs(v); }, [](auto s) { return fabs(s); }, true, input);
  math_matches_scalar<T, N>(
      "floor", [](auto v) { return floor(v); }, [](auto s) { return floor(s); }, true, input);
  math_matches_scalar<T, N>(
      "sqrt", [](auto v) { return sqrt(fabs(v)); }, [](auto s) { return sqrt(fabs(s)); }, true,
      input);
  math_matches_scalar<T, N>(
      "fma", [](auto v) { return fma(v, v, v); }, [](auto s) { return fma(s, s, s); }, true, input);
  math_matches_scalar<T, N>(
      "fmin", [](auto v) { return fmin(v, -v); }, [](auto s) { return fmin(s, -s); }, true, input);
  math_matches_scalar<T, N>(
      "copysign", [](auto v) { return copysign(v, -v); }, [](auto s) { return copysign(s, -s); },
      true, input);
  math_matches_scalar<T, N>(
      "exp", [](auto v) { return exp(v); }, [](auto s) { return exp(s); }, false, input);
  math_matches_scalar<T, N>(
      "sin", [](auto v) { return sin(v); }, [](auto s) { return sin(s); }, false, input);
  math_matches_scalar<T, N>(
      "pow", [](auto v) { return pow(fabs(v), v); }, [](auto s) { return pow(fabs(s), s); }, false,
      input);
}

}  // namespace

TEST_CASE("vector: the math set lane by lane, 512-bit vectors included") {
  math_set<float, 4>();
  math_set<float, 16>();
  math_set<double, 8>();
  math_set<double, 3>();
  math_set<double, 16>();
}

TEST_CASE("vector: integer math and casts") {
  KernelBuilder kb("vec_int_math");
  auto out = kb.param<Global<std::int32_t>>("Out");
  auto fout = kb.param<Global<float>>("F");
  auto in = kb.param<Const<std::int32_t>>("In");
  auto k = kb.global_index() * std::int64_t{8};
  Vec<std::int32_t, 8> v = vload<8>(in, k);
  vstore(out, k,
         abs(v) + popcount(v) +
             clamp(v, Vec<std::int32_t, 8>::splat(kb.lit(-3)),
                   Vec<std::int32_t, 8>::splat(kb.lit(3))));
  vstore(fout, k, cast<float>(v) * 0.5f);
  Kernel kernel = compile_checked(kb.finish());
  auto& rt = runtime();
  std::vector<std::int32_t> input(64);
  std::iota(input.begin(), input.end(), -30);
  auto In = rt.upload(input);
  auto Out = rt.zeros<std::int32_t>(64);
  auto F = rt.zeros<float>(64);
  kernel.launch(NDRange{8}, Out, F, In);
  rt.synchronize();
  const auto o = Out.to_vector();
  const auto f = F.to_vector();
  for (std::size_t i = 0; i < 64; ++i) {
    const std::int32_t x = input[i];
    CHECK(o[i] ==
          std::abs(x) + __builtin_popcount(static_cast<unsigned>(x)) + std::clamp(x, -3, 3));
    CHECK(f[i] == static_cast<float>(x) * 0.5f);
  }
}

TEST_CASE("vector: unaligned, aligned and 3-lane loads and stores, global and local") {
  auto& rt = runtime();
  SUBCASE("element-aligned loads start anywhere") {
    KernelBuilder kb("vec_unaligned");
    auto out = kb.param<Global<float>>("Out");
    auto in = kb.param<Const<float>>("In");
    auto i = kb.global_index();
    vstore(out, i * 4, vload<4>(in, i * 4 + 1));  // one element past each vector boundary
    Kernel kernel = compile_checked(kb.finish());
    const auto input = ramp<float>(41, 1, 0);
    auto In = rt.upload(input);
    auto Out = rt.zeros<float>(40);
    kernel.launch(NDRange{10}, Out, In);
    rt.synchronize();
    const auto o = Out.to_vector();
    for (std::size_t i = 0; i < 40; ++i) CHECK(o[i] == input[i + 1]);
  }
  SUBCASE("3 lanes touch exactly 3 elements") {
    KernelBuilder kb("vec_three");
    auto out = kb.param<Global<double>>("Out");
    auto in = kb.param<Const<double>>("In");
    auto i = kb.global_index();
    vstore(out, i * 4, vload<3>(in, i * 3) * 2.0);  // every 4th element stays as it was
    Kernel kernel = compile_checked(kb.finish());
    const auto input = ramp<double>(30, 1, 1);
    auto In = rt.upload(input);
    auto Out = rt.upload(std::vector<double>(40, -1.0));
    kernel.launch(NDRange{10}, Out, In);
    rt.synchronize();
    const auto o = Out.to_vector();
    for (std::size_t v = 0; v < 10; ++v) {
      for (std::size_t l = 0; l < 3; ++l) CHECK(o[v * 4 + l] == 2.0 * input[v * 3 + l]);
      CHECK(o[v * 4 + 3] == -1.0);
    }
  }
  SUBCASE("vector-aligned access through local memory") {
    KernelBuilder kb("vec_local");
    auto out = kb.param<Global<std::int64_t>>("Out");
    auto in = kb.param<Const<std::int64_t>>("In");
    auto tile = local_array<std::int64_t>(kb, {64});
    auto l = kb.local_index();
    auto g = kb.global_index();
    vstore(tile.data(), l * 16, vload<16>(in, g * 16, VectorAlign::Vector), VectorAlign::Vector);
    barrier(kb);
    // Each work-item reads its neighbour's 16 elements back.
    auto other = (l + 1) % 4;
    vstore(out, g * 16, vload<16>(tile.data(), other * 16, VectorAlign::Vector) + std::int64_t{1});
    Kernel kernel = compile_checked(kb.finish(), static_workgroup(WorkGroup{4}));
    const auto input = ramp<std::int64_t>(128, 1, 0);
    auto In = rt.upload(input);
    auto Out = rt.zeros<std::int64_t>(128);
    kernel.launch(NDRange{8}, Out, In);
    rt.synchronize();
    const auto o = Out.to_vector();
    for (std::size_t i = 0; i < 128; ++i) {
      const std::size_t group = i / 64, item = (i / 16) % 4, lane = i % 16;
      CHECK(o[i] == input[group * 64 + ((item + 1) % 4) * 16 + lane] + 1);
    }
  }
  SUBCASE("bool memory (a private array)") {
    KernelBuilder kb("vec_bool");
    auto out = kb.param<Global<std::uint8_t>>("Out");
    auto in = kb.param<Const<float>>("In");
    auto flags = private_array<bool>(kb, {8});
    auto i = kb.global_index() * std::int64_t{8};
    vstore(flags.data(), 0, vload<8>(in, i) > 3.0f, VectorAlign::Vector);
    vstore(out, i, cast<std::uint8_t>(vload<8>(flags.data(), 0, VectorAlign::Vector)));
    Kernel kernel = compile_checked(kb.finish());
    const auto input = ramp<float>(16, 0.5, 0);
    auto In = rt.upload(input);
    auto Out = rt.zeros<std::uint8_t>(16);
    kernel.launch(NDRange{2}, Out, In);
    rt.synchronize();
    const auto o = Out.to_vector();
    for (std::size_t i = 0; i < 16; ++i) CHECK(o[i] == (input[i] > 3.0f ? 1 : 0));
  }
}

TEST_CASE("vector: half memory loads and stores the bits scalar accesses give") {
  auto& rt = runtime();
  // Every half bit pattern through a Vec<float, 16> and through scalar loads.
  KernelBuilder kb("vec_half_load");
  auto vec_out = kb.param<Global<float>>("V");
  auto scalar_out = kb.param<Global<float>>("S");
  auto in = kb.param<Const<half>>("In");
  auto k = kb.global_index() * std::int64_t{16};
  vstore(vec_out, k, vload<16>(in, k));
  for (std::int64_t lane = 0; lane < 16; ++lane) scalar_out[k + lane] = in[k + lane];
  Kernel load = compile_checked(kb.finish());
  std::vector<half> halves(65536);
  for (std::size_t i = 0; i < halves.size(); ++i) halves[i].bits = static_cast<std::uint16_t>(i);
  auto In = rt.upload(halves);
  auto V = rt.zeros<float>(65536), S = rt.zeros<float>(65536);
  load.launch(NDRange{4096}, V, S, In);
  rt.synchronize();
  const auto v = V.to_vector(), s = S.to_vector();
  CHECK(std::memcmp(v.data(), s.data(), v.size() * sizeof(float)) == 0);

  KernelBuilder sb("vec_half_store");
  auto vec_half = sb.param<Global<half>>("VH");
  auto scalar_half = sb.param<Global<half>>("SH");
  auto floats = sb.param<Const<float>>("F");
  auto j = sb.global_index() * std::int64_t{8};
  vstore(vec_half, j, vload<8>(floats, j));
  for (std::int64_t lane = 0; lane < 8; ++lane) scalar_half[j + lane] = floats[j + lane];
  Kernel store = compile_checked(sb.finish());
  std::vector<float> patterns(1 << 16);
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const std::uint32_t bits = static_cast<std::uint32_t>(i) * 65521u;  // spread over all floats
    std::memcpy(&patterns[i], &bits, 4);
  }
  auto F = rt.upload(patterns);
  auto VH = rt.zeros<half>(patterns.size()), SH = rt.zeros<half>(patterns.size());
  store.launch(NDRange{patterns.size() / 8}, VH, SH, F);
  rt.synchronize();
  const auto vh = VH.to_vector(), sh = SH.to_vector();
  CHECK(std::memcmp(vh.data(), sh.data(), vh.size() * sizeof(half)) == 0);
}

TEST_CASE("vector: extract, insert, shuffles and run-time lanes") {
  KernelBuilder kb("vec_lanes");
  auto out = kb.param<Global<std::int32_t>>("Out");
  auto in = kb.param<Const<std::int32_t>>("In");
  auto lane = kb.param<std::int32_t>("lane");
  Vec<std::int32_t, 4> a = vload<4>(in, 0), b = vload<4>(in, 4);
  vstore(out, 0, shuffle(a, {3, 2, 1, 0}));                 // reversed
  vstore(out, 4, shuffle(a, b, {0, 4, 1, 5, 2, 6, 3, 7}));  // interleaved into 8 lanes
  vstore(out, 12, a.with(2, kb.lit(99)));
  vstore(out, 16, b.with(lane, kb.lit(-1)));  // lane taken modulo 4
  out[20] = a[lane] + b[3];
  out[21] = make_vec(a[0], b[0], a[1])[kb.lit(5)];  // 5 mod 3 = lane 2
  Kernel kernel = compile_checked(kb.finish());
  auto& rt = runtime();
  const std::vector<std::int32_t> input = {10, 11, 12, 13, 20, 21, 22, 23};
  auto In = rt.upload(input);
  auto Out = rt.zeros<std::int32_t>(22);
  kernel.launch(NDRange{1}, Out, In, std::int32_t{6});  // 6 mod 4 = 2
  rt.synchronize();
  const std::vector<std::int32_t> expected = {13, 12, 11, 10, 10, 20, 11, 21, 12, 22,      13,
                                              23, 10, 11, 99, 13, 20, 21, -1, 23, 12 + 23, 11};
  CHECK(Out.to_vector() == expected);
}

TEST_CASE("vector: reductions in their documented order") {
  KernelBuilder kb("vec_reduce");
  auto out = kb.param<Global<float>>("F");
  auto iout = kb.param<Global<std::uint32_t>>("I");
  auto bout = kb.param<Global<std::uint8_t>>("B");
  auto f = kb.param<Const<float>>("In");
  auto u = kb.param<Const<std::uint32_t>>("U");
  Vec<float, 16> v = vload<16>(f, 0);
  Vec<float, 3> t = vload<3>(f, 0);
  out[0] = reduce_add(v);
  out[1] = reduce_mul(t);
  out[2] = reduce_min(v);
  out[3] = reduce_max(v);
  out[4] = reduce_add(t);
  Vec<std::uint32_t, 8> w = vload<8>(u, 0);
  iout[0] = reduce_add(w);
  iout[1] = reduce_and(w);
  iout[2] = reduce_or(w);
  iout[3] = reduce_xor(w);
  iout[4] = reduce_max(w);
  bout[0] = cast<std::uint8_t>(any(v > 1e6f));
  bout[1] = cast<std::uint8_t>(all(v > -1e6f));
  bout[2] = cast<std::uint8_t>(any(v > 8.0f));
  bout[3] = cast<std::uint8_t>(all(v > 8.0f));
  Kernel kernel = compile_checked(kb.finish());
  auto& rt = runtime();
  std::vector<float> fs(16);
  for (int i = 0; i < 16; ++i)
    fs[static_cast<std::size_t>(i)] = 1.0f / static_cast<float>(i + 3) - (i % 5 == 0 ? 2.5f : 0.0f);
  fs[7] = 9.0f;
  const std::vector<std::uint32_t> us = {0xff00ff01u, 0xf0f0f0f3u, 0xfffffff7u, 0x0f0f0f0fu,
                                         0x12345678u, 0xffffffffu, 0x7u,        0x80000001u};
  auto In = rt.upload(fs);
  auto U = rt.upload(us);
  auto F = rt.zeros<float>(5);
  auto I = rt.zeros<std::uint32_t>(5);
  auto B = rt.zeros<std::uint8_t>(4);
  kernel.launch(NDRange{1}, F, I, B, In, U);
  rt.synchronize();
  // Pairwise by halves: 16 -> 8 -> 4 -> 2 -> 1.
  std::vector<float> h(fs);
  for (std::size_t n = 16; n > 1; n /= 2) {
    for (std::size_t i = 0; i < n / 2; ++i) h[i] = h[i] + h[i + n / 2];
  }
  const auto got = F.to_vector();
  CHECK(got[0] == h[0]);
  CHECK(got[1] == (fs[0] * fs[1]) * fs[2]);
  CHECK(got[2] == *std::min_element(fs.begin(), fs.end()));
  CHECK(got[3] == *std::max_element(fs.begin(), fs.end()));
  CHECK(got[4] == (fs[0] + fs[1]) + fs[2]);
  std::uint32_t sum = 0, all_and = ~0u, all_or = 0, all_xor = 0;
  for (auto x : us) {
    sum += x;
    all_and &= x;
    all_or |= x;
    all_xor ^= x;
  }
  CHECK(I.to_vector() == std::vector<std::uint32_t>{sum, all_and, all_or, all_xor, 0xffffffffu});
  CHECK(B.to_vector() == std::vector<std::uint8_t>{0, 1, 1, 0});
}

TEST_CASE("vector: a vector accumulator across a loop (column sums of a row-major matrix)") {
  constexpr std::int64_t rows = 37, cols = 32;
  KernelBuilder kb("vec_column_sums");
  auto out = kb.param<Global<double>>("Out");
  auto a = kb.param<Const<double>>("A");
  auto c = kb.global_index() * std::int64_t{8};
  auto acc = vec_var(kb, Vec<double, 8>::splat(kb.lit(0.0)));
  kb.for_(kb.lit(std::int64_t{0}), kb.lit(rows), kb.lit(std::int64_t{1}),
          [&](Val<std::int64_t> r) { acc += vload<8>(a, r * cols + c, VectorAlign::Vector); });
  vstore(out, c, acc.get(), VectorAlign::Vector);
  Kernel kernel = compile_checked(kb.finish());
  auto& rt = runtime();
  const auto input = ramp<double>(rows * cols, 0.25, -3);
  auto A = rt.upload(input);
  auto Out = rt.zeros<double>(cols);
  kernel.launch(NDRange{cols / 8}, Out, A);
  rt.synchronize();
  const auto o = Out.to_vector();
  for (std::int64_t j = 0; j < cols; ++j) {
    double sum = 0;
    for (std::int64_t r = 0; r < rows; ++r) sum += input[static_cast<std::size_t>(r * cols + j)];
    CHECK(o[static_cast<std::size_t>(j)] == sum);
  }
}

TEST_CASE("vector: kernels written with Vec are not coarsened again, and stay correct") {
  KernelBuilder kb("vec_saxpy8");
  auto z = kb.param<Global<float>>("Z");
  auto x = kb.param<Const<float>>("X");
  auto y = kb.param<Const<float>>("Y");
  auto a = kb.param<float>("a");
  auto i = kb.global_index() * std::int64_t{8};
  kb.if_(kb.global_index() < kb.ndrange(),
         [&] { vstore(z, i, a * vload<8>(x, i) + vload<8>(y, i)); });
  const KernelDef def = kb.finish();
  CHECK_FALSE(is_coarsened(coarse_jit(), def));
  auto& rt = runtime();
  const auto xs = ramp<float>(800, 1, 0), ys = ramp<float>(800, 2, 1);
  auto X = rt.upload(xs), Y = rt.upload(ys);
  auto Z = rt.zeros<float>(800);
  coarse_jit().compile(def).launch(NDRange{100}, Z, X, Y, 2.0f);
  rt.synchronize();
  const auto zs = Z.to_vector();
  for (std::size_t k = 0; k < 800; ++k) CHECK(zs[k] == 2.0f * xs[k] + ys[k]);
}

TEST_CASE("vector: shape and type errors name the operation and both shapes") {
  KernelBuilder kb("vec_errors");
  auto out = kb.param<Global<float>>("Out");
  auto in = kb.param<Const<float>>("In");
  auto ints = kb.param<Const<std::int32_t>>("I");
  Vec<float, 4> v4 = vload<4>(in, 0);
  Vec<float, 8> v8 = vload<8>(in, 0);
  CHECK_THROWS_WITH_AS(
      binary(BinaryOp::Add, v4, v8),
      doctest::Contains("add of kernel 'vec_errors': operand shapes differ: f32x4 and f32x8"),
      UserError);
  CHECK_THROWS_WITH_AS(binary(BinaryOp::Mul, v4, static_cast<VecValue>(vload<4>(ints, 0))),
                       doctest::Contains("f32x4 and i32x4"), UserError);
  CHECK_THROWS_WITH_AS(extract(v4, 4u), doctest::Contains("lane 4 of a f32x4; expected 0 to 3"),
                       UserError);
  CHECK_THROWS_WITH_AS(insert(v4, 7u, kb.lit(1.0f)), doctest::Contains("lane 7"), UserError);
  CHECK_THROWS_WITH_AS(insert(v4, 0u, kb.lit(1)),
                       doctest::Contains("value of type i32 into a f32x4"), UserError);
  const int bad_mask[] = {0, 1, 8, 2};
  CHECK_THROWS_WITH_AS(shuffle_vector(v4, v4, std::span<const int>(bad_mask)),
                       doctest::Contains("mask lane 2 picks 8; expected 0 to 7"), UserError);
  const int five[] = {0, 1, 2, 3, 4};
  CHECK_THROWS_WITH_AS(shuffle_vector(v4, v4, std::span<const int>(five)),
                       doctest::Contains("5 lanes; expected 2, 3, 4, 8 or 16"), UserError);
  CHECK_THROWS_WITH_AS(reduce(ReduceOp::And, v4),
                       doctest::Contains("reduce_and of kernel 'vec_errors': not defined for f32"),
                       UserError);
  CHECK_THROWS_WITH_AS(cast(static_cast<VecValue>(v4), Scalar::F16),
                       doctest::Contains("f16 is a storage type"), UserError);
  CHECK_THROWS_WITH_AS(select(static_cast<VecValue>(v8 < v8), v4, v4),
                       doctest::Contains("condition is boolx8; expected boolx4"), UserError);
  CHECK_THROWS_WITH_AS(store_vector(in, kb.lit(0), v4, VectorAlign::Element),
                       doctest::Contains("read-only"), UserError);
  CHECK_THROWS_WITH_AS(
      store_vector(out, kb.lit(0), static_cast<VecValue>(vload<4>(ints, 0)), VectorAlign::Element),
      doctest::Contains("a i32x4 into memory of f32; expected f32x4"), UserError);
  CHECK_THROWS_WITH_AS(load_vector(in, kb.lit(0.5f), 4, VectorAlign::Element),
                       doctest::Contains("index must be an integer"), UserError);
  CHECK_THROWS_WITH_AS(load_vector(in, kb.lit(0), 5, VectorAlign::Element),
                       doctest::Contains("vload of kernel 'vec_errors': 5 lanes"), UserError);
  CHECK_THROWS_WITH_AS(splat(kb.lit(1.0f), 1),
                       doctest::Contains("splat of kernel 'vec_errors': 1 lanes"), UserError);
  const Value mixed[] = {kb.lit(1.0f), kb.lit(2.0)};
  CHECK_THROWS_WITH_AS(make_vector(mixed), doctest::Contains("lane 1 is f64, lane 0 f32"),
                       UserError);
  CHECK_THROWS_WITH_AS(math(MathFn::Sqrt, {static_cast<VecValue>(vload<4>(ints, 0))}),
                       doctest::Contains("sqrt of kernel 'vec_errors': not defined for i32"),
                       UserError);
  CHECK_THROWS_WITH_AS((Vec<float, 8>(static_cast<VecValue>(v4))),
                       doctest::Contains("expected f32x8, got f32x4"), UserError);
  KernelBuilder other("vec_other");
  auto other_in = other.param<Const<float>>("In");
  CHECK_THROWS_WITH_AS(binary(BinaryOp::Add, v4, static_cast<VecValue>(vload<4>(other_in, 0))),
                       doctest::Contains("belongs to another kernel"), UserError);
}

namespace {
template <class T>
void saxpy_vector_matches_scalar(unsigned lanes) {
  CAPTURE(lanes);
  using A = arithmetic_t<T>;
  auto& rt = runtime();
  for (std::size_t n : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{1001}}) {
    CAPTURE(n);
    const auto x = spvjit::test::random_data<T>(n, 11), y = spvjit::test::random_data<T>(n, 12);
    auto X = rt.upload(x), Y = rt.upload(y);
    auto scalar_z = rt.zeros<T>(n), vector_z = rt.zeros<T>(n);
    scalar_jit().compile(examples::saxpy(scalar_of<T>)).launch(NDRange{n}, scalar_z, X, Y, A(1.75));
    compile_checked(examples::saxpy_vector(scalar_of<T>, lanes))
        .launch(NDRange{(n + lanes - 1) / lanes}, vector_z, X, Y, A(1.75),
                static_cast<std::int64_t>(n));
    rt.synchronize();
    const auto s = scalar_z.to_vector(), v = vector_z.to_vector();
    CHECK(std::memcmp(s.data(), v.data(), n * sizeof(T)) == 0);
  }
}
}  // namespace

TEST_CASE("vector: examples::saxpy_vector gives the scalar saxpy's bits, tails included") {
  for (unsigned lanes : {2u, 4u, 8u, 16u}) {
    saxpy_vector_matches_scalar<half>(lanes);
    saxpy_vector_matches_scalar<float>(lanes);
    saxpy_vector_matches_scalar<double>(lanes);
  }
  CHECK_THROWS_WITH_AS(examples::saxpy_vector(Scalar::F32, 3), doctest::Contains("3 lanes"),
                       UserError);
  CHECK_THROWS_WITH_AS(examples::saxpy_vector(Scalar::I32, 4),
                       doctest::Contains("element type i32"), UserError);
}
