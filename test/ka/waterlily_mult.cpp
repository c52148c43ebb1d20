// WaterLily.jl's Poisson matrix-vector product (mult!, the kernel its @loop macro generates for
// KernelAbstractions), ported line for line as spvjit::examples::waterlily_mult: the Julia is
// quoted with its origin in example_kernels/examples.cpp. Against a C++ loop of the same arithmetic
// in the same order, bit for bit: odd sizes, WaterLily's inside() range and a narrower one (a
// different I0), the workgroup chosen at launch and WaterLily's static 64 (which divides none
// of these ranges, so padding work-items are skipped), coarsening on and off. This file is
// compiled with -ffp-contract=off (test/CMakeLists.txt): two roundings per multiply-add, as
// builder kernels compute.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "spvjit/examples.hpp"
#include "test/coarsen_support.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

// Values in [lo, lo + 1) with all their mantissa bits in use, so that any other order or fusion
// of the arithmetic changes some result's last bit.
std::vector<float> random_field(std::size_t size, std::uint32_t seed, float lo) {
  std::vector<float> field(size);
  for (float& v : field) {
    seed = seed * 1664525u + 1013904223u;
    v = lo + static_cast<float>(seed >> 8) / static_cast<float>(1u << 24);
  }
  return field;
}

struct Fields {
  std::size_t n, m;               // cells, column-major: (i, j) at i + n * j
  std::vector<float> z, L, D, x;  // L: n x m x 2, face d of cell (i, j) at i + n * (j + m * d)
};

Fields random_fields(std::size_t n, std::size_t m) {
  const auto seed = static_cast<std::uint32_t>(n * 977 + m);
  return {n,
          m,
          random_field(n * m, seed, -0.5f),
          random_field(2 * n * m, seed + 1, 0.0f),
          random_field(n * m, seed + 2, -4.0f),
          random_field(n * m, seed + 3, -0.5f)};
}

// mult(I, L, D, x) over the cells (i0 .. i0 + ri - 1, j0 .. j0 + rj - 1), in WaterLily's order.
std::vector<float> reference_mult(const Fields& f, std::size_t i0, std::size_t j0, std::size_t ri,
                                  std::size_t rj) {
  const std::size_t n = f.n, faces = f.n * f.m;
  std::vector<float> z = f.z;
  for (std::size_t j = j0; j < j0 + rj; ++j)
    for (std::size_t i = i0; i < i0 + ri; ++i) {
      const std::size_t at = i + n * j;
      float s = f.x[at] * f.D[at];
      s += f.x[at - 1] * f.L[at] + f.x[at + 1] * f.L[at + 1];
      s += f.x[at - n] * f.L[faces + at] + f.x[at + n] * f.L[faces + at + n];
      z[at] = s;
    }
  return z;
}

}  // namespace

TEST_CASE("WaterLily mult! (Poisson z = A x) equals the C++ loop bit for bit, coarsened or not") {
  auto& rt = test::runtime();
  const KernelDef def = examples::waterlily_mult();
  for (const Specialization& spec : {Specialization{}, test::static_workgroup(WorkGroup{64, 1})}) {
    CAPTURE(spec.workgroup.has_value());
    test::compile_checked(def, spec);  // spirv-val
    for (Jit* jit : {&test::scalar_jit(), &test::coarse_jit()}) {
      const std::string coarsening = jit == &test::scalar_jit() ? "off" : "on";
      CAPTURE(coarsening);
      if (jit != &test::scalar_jit()) CHECK(test::is_coarsened(*jit, def, spec));
      Kernel kernel = jit->compile(def, spec);
      // inside(z) is buff = 1: I0 = (1, 1); buff = 2 where the fields are wide enough.
      // Not a structured binding: clang 15 cannot capture those in CAPTURE's lambda.
      for (const auto& shape : {std::array<std::size_t, 3>{37, 23, 1},
                                {37, 23, 2},
                                {3, 50, 1},
                                {67, 5, 1},
                                {18, 3, 1},
                                {131, 9, 2}}) {
        const std::size_t n = shape[0], m = shape[1], buff = shape[2];
        CAPTURE(n);
        CAPTURE(m);
        CAPTURE(buff);
        const Fields f = random_fields(n, m);
        const std::size_t ri = n - 2 * buff, rj = m - 2 * buff;
        auto z = rt.upload(f.z);  // cells outside the range must stay as they were
        auto L = rt.upload(f.L);
        auto D = rt.upload(f.D);
        auto x = rt.upload(f.x);
        const auto i0 = static_cast<std::int64_t>(buff);
        kernel.launch(NDRange{ri, rj}, shaped(z, {n, m}), shaped(L, {n, m, 2}), shaped(D, {n, m}),
                      shaped(x, {n, m}), i0, i0);
        rt.synchronize();
        CHECK(z.to_vector() == reference_mult(f, buff, buff, ri, rj));
      }
    }
  }
}
