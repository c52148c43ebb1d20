// examples::performant_matmul (pack A, pack B, multiply) against a C++ loop that computes
// each element as performant_matmul documents: the mul_add chain over k from 0, which PoCL
// fuses on a device with FMA (std::fma's chain) and would not without. Inputs are not small
// integers, so the fused chain and a multiply-then-add loop differ, and the comparison is bit
// for bit; shapes cover blocks that overhang C on either edge and one-element sizes.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "spvjit/examples.hpp"
#include "test/lang_support.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;
namespace ex = spvjit::examples;

namespace {

std::vector<float> inputs(std::size_t count, std::uint32_t seed) {
  std::vector<float> v(count);
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<std::int32_t>(seed)) * 0x1p-31f;  // in [-1, 1)
  }
  return v;
}

// C = A * B, each element the chain c = fma(A(i, k), B(k, j), c) over k = 0 .. p-1 from 0
// (fused) or c = c + A(i, k) * B(k, j) (not).
std::vector<float> reference(const std::vector<float>& a, const std::vector<float>& b,
                             std::size_t n, std::size_t p, std::size_t m, bool fused) {
  std::vector<float> c(n * m);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      float acc = 0.0f;
      for (std::size_t k = 0; k < p; ++k) {
        const float x = a[i * p + k], y = b[k * m + j];
        if (fused) {
          acc = std::fma(x, y, acc);
        } else {
          const volatile float product = x * y;  // rounded on its own
          acc = acc + product;
        }
      }
      c[i * m + j] = acc;
    }
  return c;
}

struct Shape {
  std::size_t n, p, m;
};

std::vector<float> run(const std::vector<float>& a, const std::vector<float>& b, Shape s) {
  auto& rt = test::runtime();
  static Kernel pack_a = test::compile_checked(ex::performant_matmul_pack_a());
  static Kernel pack_b = test::compile_checked(ex::performant_matmul_pack_b());
  static Kernel product = test::compile_checked(ex::performant_matmul());
  auto A = rt.upload(a), B = rt.upload(b);
  auto Ap = rt.zeros<float>(ex::performant_matmul_packed_a_size(s.n, s.p));
  auto Bp = rt.zeros<float>(ex::performant_matmul_packed_b_size(s.p, s.m));
  auto C = rt.zeros<float>(s.n * s.m);
  const auto n = static_cast<std::int64_t>(s.n), p = static_cast<std::int64_t>(s.p),
             m = static_cast<std::int64_t>(s.m);
  pack_a.launch(ex::performant_matmul_pack_a_range(s.n, s.p), Ap, A, n, p);
  pack_b.launch(ex::performant_matmul_pack_b_range(s.p, s.m), Bp, B, p, m);
  product.launch(ex::performant_matmul_range(s.n, s.m), C, Ap, Bp, n, p, m);
  rt.synchronize();
  return C.to_vector();
}

std::size_t differing_bits(const std::vector<float>& x, const std::vector<float>& y) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    count += std::bit_cast<std::uint32_t>(x[i]) != std::bit_cast<std::uint32_t>(y[i]);
  return count;
}

}  // namespace

TEST_CASE("performant_matmul equals the fma chain over k bit for bit, edges included") {
  const bool fused = test::runtime().device().fma_f32;
  for (Shape s : {Shape{1, 1, 1}, Shape{7, 13, 5}, Shape{6, 1, 16}, Shape{6, 16, 1},
                  Shape{5, 3, 17}, Shape{12, 9, 32}, Shape{100, 37, 250}, Shape{13, 300, 35}}) {
    CAPTURE(s.n);
    CAPTURE(s.p);
    CAPTURE(s.m);
    const auto a = inputs(s.n * s.p, 1), b = inputs(s.p * s.m, 2);
    CHECK(differing_bits(run(a, b, s), reference(a, b, s.n, s.p, s.m, fused)) == 0);
  }
}

TEST_CASE("performant_matmul at 512: bit for bit, and the inputs tell fused from unfused") {
  const Shape s{512, 512, 512};
  const auto a = inputs(s.n * s.p, 3), b = inputs(s.p * s.m, 4);
  const bool fused = test::runtime().device().fma_f32;
  const auto want = reference(a, b, s.n, s.p, s.m, fused);
  CHECK(differing_bits(run(a, b, s), want) == 0);
  CHECK(differing_bits(want, reference(a, b, s.n, s.p, s.m, !fused)) > 1000);
}

TEST_CASE("performant_matmul's launch geometry and packed sizes round up to whole blocks") {
  CHECK(ex::performant_matmul_range(1, 1) == NDRange{1, 1});
  CHECK(ex::performant_matmul_range(7, 17) == NDRange{2, 2});
  CHECK(ex::performant_matmul_range(12, 32) == NDRange{2, 2});
  CHECK(ex::performant_matmul_pack_a_range(7, 5) == NDRange{5, 2});
  CHECK(ex::performant_matmul_pack_b_range(5, 17) == NDRange{5, 2});
  CHECK(ex::performant_matmul_packed_a_size(7, 5) == 12 * 5);
  CHECK(ex::performant_matmul_packed_b_size(5, 17) == 5 * 32);
}
