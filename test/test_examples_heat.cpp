// examples::heat2d_step and heat3d_step, several steps with the two grids swapped as the
// benchmark runs them, against a C++ loop of the same arithmetic in the same order, bit for
// bit: odd sizes (and ones without an interior), coarsening on and off (and at 4 and 16 lanes
// with several vectors per work-item, JitOptions::coarsen_vectors), the workgroup chosen
// at launch and a static one the sizes do not divide (a padded ndrange the kernels guard
// against themselves). This file is compiled with -ffp-contract=off (test/CMakeLists.txt), so
// the reference is two roundings per multiply-add, as the builder's kernels are.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "spvjit/examples.hpp"
#include "test/coarsen_support.hpp"
#include "test/full_mantissa.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

constexpr float alpha = 0.1f;
constexpr int steps = 5;

// One step on column-major grids, cell (i, j) at i + n * j: boundary cells stay as they are.
std::vector<float> reference_step(const std::vector<float>& u, std::array<std::size_t, 2> shape) {
  const auto [n, m] = shape;
  std::vector<float> unew = u;
  for (std::size_t j = 1; j + 1 < m; ++j)
    for (std::size_t i = 1; i + 1 < n; ++i) {
      const std::size_t at = i + j * n;
      unew[at] = u[at] + alpha * (u[at - 1] + u[at + 1] + u[at - n] + u[at + n] - 4.0f * u[at]);
    }
  return unew;
}

// Cell (i, j, k) at i + n * (j + m * k).
std::vector<float> reference_step(const std::vector<float>& u, std::array<std::size_t, 3> shape) {
  const auto [n, m, p] = shape;
  const std::size_t plane = n * m;
  std::vector<float> unew = u;
  for (std::size_t k = 1; k + 1 < p; ++k)
    for (std::size_t j = 1; j + 1 < m; ++j)
      for (std::size_t i = 1; i + 1 < n; ++i) {
        const std::size_t at = i + j * n + k * plane;
        unew[at] = u[at] + alpha * (u[at - 1] + u[at + 1] + u[at - n] + u[at + n] + u[at - plane] +
                                    u[at + plane] - 6.0f * u[at]);
      }
  return unew;
}

Jit& scalar_jit() {
  static std::unique_ptr<Jit> jit = [] {
    JitOptions options;
    options.coarsen = false;
    return std::make_unique<Jit>(test::runtime(), options);
  }();
  return *jit;
}

// `steps` steps of `def` on every shape, by both Jits, with `spec`; each against the reference.
template <std::size_t Rank>
void check_steps(const KernelDef& def, const Specialization& spec,
                 std::initializer_list<std::array<std::size_t, Rank>> shapes) {
  auto& rt = test::runtime();
  test::compile_checked(def, spec);  // spirv-val
  for (Jit* jit : {&test::jit(), &scalar_jit(), &test::multi_vector_jit(16, 2),
                   &test::multi_vector_jit(4, 8)}) {
    const std::string coarsening = jit == &scalar_jit()  ? "off"
                                   : jit == &test::jit() ? "on"
                                                         : "with several vectors per work-item";
    CAPTURE(coarsening);
    Kernel kernel = jit->compile(def, spec);
    for (const auto& shape : shapes) {
      std::string extents;
      for (std::size_t extent : shape)
        extents += (extents.empty() ? "" : "x") + std::to_string(extent);
      CAPTURE(extents);
      std::size_t cells = 1;
      for (std::size_t extent : shape) cells *= extent;
      std::vector<float> host = test::full_mantissa_values<float>(cells, cells * 131 + shape[0]);
      auto a = rt.upload(host);
      auto b = rt.upload(host);  // the same boundary in both
      Buffer<float>* u = &a;
      Buffer<float>* unew = &b;
      for (int s = 0; s < steps; ++s) {
        if constexpr (Rank == 2) {
          const auto [n, m] = shape;
          kernel.launch(NDRange{n, m}, shaped(*unew, {n, m}), shaped(*u, {n, m}), alpha);
        } else {
          const auto [n, m, p] = shape;
          kernel.launch(NDRange{n, m, p}, shaped(*unew, {n, m, p}), shaped(*u, {n, m, p}), alpha);
        }
        std::swap(u, unew);
        host = reference_step(host, shape);
      }
      rt.synchronize();
      CHECK(u->to_vector() == host);
    }
  }
}

}  // namespace

TEST_CASE("examples::heat2d_step: swapped-grid steps equal the C++ loop bit for bit") {
  const KernelDef def = examples::heat2d_step();
  for (const Specialization& spec : {Specialization{}, test::static_workgroup(WorkGroup{16, 16})}) {
    CAPTURE(spec.workgroup.has_value());
    check_steps<2>(def, spec, {{37, 23}, {3, 50}, {67, 5}, {2, 9}, {131, 6}});
  }
}

TEST_CASE("examples::heat3d_step: swapped-grid steps equal the C++ loop bit for bit") {
  const KernelDef def = examples::heat3d_step();
  for (const Specialization& spec :
       {Specialization{}, test::static_workgroup(WorkGroup{8, 4, 2})}) {
    CAPTURE(spec.workgroup.has_value());
    check_steps<3>(def, spec, {{19, 7, 5}, {3, 3, 3}, {33, 4, 6}, {5, 2, 7}});
  }
}
