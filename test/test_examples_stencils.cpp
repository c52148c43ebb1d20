// The stencils of examples/stencils (issue #65's bench cases): stencil9_2d_step,
// stencil27_3d_step, upwind1d_step, heat2d_row_major_step and rows_damping_step, several steps with
// the two grids swapped as the benchmark runs them, against a C++ loop of the same arithmetic in
// the same order, bit for bit: odd sizes (and ones without an interior), coarsening off, on, and at
// 4 and 16 lanes with several vectors per work-item, bounds checks off, the workgroup chosen at
// launch and a static one the sizes do not divide (a padded ndrange the kernels guard against
// themselves). Compiled with -ffp-contract=off (test/CMakeLists.txt): two roundings per
// multiply-add, as the builder's kernels compute.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
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

constexpr int steps = 4;
constexpr float centre = 0.5f, face = 0.0625f, edge = 0.03125f, corner = 0.015625f;
constexpr float alpha = 0.1f;
constexpr float courant = 0.4f;

using Grid = std::vector<float>;
using Shape = std::vector<std::size_t>;

// unew as the 9-point step leaves it, column-major n x m: cell (i, j) at i + n * j.
Grid stencil9_reference(const Grid& u, const Shape& shape) {
  const std::size_t n = shape[0], m = shape[1];
  Grid unew = u;
  for (std::size_t j = 1; j + 1 < m; ++j)
    for (std::size_t i = 1; i + 1 < n; ++i) {
      const std::size_t at = i + j * n;
      const float edges = u[at - 1] + u[at + 1] + u[at - n] + u[at + n];
      const float corners = u[at - 1 - n] + u[at + 1 - n] + u[at - 1 + n] + u[at + 1 + n];
      unew[at] = centre * u[at] + face * edges + corner * corners;
    }
  return unew;
}

// The 27-point step, cell (i, j, k) at i + n * (j + m * k); each distance's sum in the order
// examples.hpp gives (k outermost, i innermost).
Grid stencil27_reference(const Grid& u, const Shape& shape) {
  const std::size_t n = shape[0], m = shape[1], p = shape[2];
  Grid unew = u;
  for (std::size_t k = 1; k + 1 < p; ++k)
    for (std::size_t j = 1; j + 1 < m; ++j)
      for (std::size_t i = 1; i + 1 < n; ++i) {
        std::array<float, 4> sums{};
        std::array<bool, 4> started{};
        for (int dk = -1; dk <= 1; ++dk)
          for (int dj = -1; dj <= 1; ++dj)
            for (int di = -1; di <= 1; ++di) {
              const float value = u[(i + di) + n * ((j + dj) + m * (k + dk))];
              const int distance = (di != 0) + (dj != 0) + (dk != 0);
              sums[distance] = started[distance] ? sums[distance] + value : value;
              started[distance] = true;
            }
        unew[i + n * (j + m * k)] =
            centre * sums[0] + face * sums[1] + edge * sums[2] + corner * sums[3];
      }
  return unew;
}

// Velocities of both signs (and zero), fixed per cell.
Grid velocities(std::size_t n) {
  Grid v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<float>(static_cast<int>(i * 7 % 11) - 5) / 5.0f;
  return v;
}

Grid upwind_reference(const Grid& u, const Grid& v) {
  Grid unew = u;
  for (std::size_t i = 1; i + 1 < u.size(); ++i) {
    const float flux = v[i] > 0.0f ? v[i] * (u[i] - u[i - 1]) : v[i] * (u[i + 1] - u[i]);
    unew[i] = u[i] - courant * flux;
  }
  return unew;
}

// Row-major rows x cols: cell (r, c) at r * cols + c.
Grid heat_rows_reference(const Grid& u, const Shape& shape) {
  const std::size_t rows = shape[0], cols = shape[1];
  Grid unew = u;
  for (std::size_t r = 1; r + 1 < rows; ++r)
    for (std::size_t c = 1; c + 1 < cols; ++c) {
      const std::size_t at = r * cols + c;
      unew[at] =
          u[at] + alpha * (u[at - 1] + u[at + 1] + u[at - cols] + u[at + cols] - 4.0f * u[at]);
    }
  return unew;
}

// rows_damping_step's unew: every cell of a row-major rows x cols grid.
Grid damping_reference(const Grid& u, const Shape& shape) {
  const std::size_t rows = shape[0], cols = shape[1];
  Grid unew = u;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      float w = 0.5f + 0.001f * static_cast<float>(static_cast<std::int64_t>(r + c));
      for (int k = 0; k < 12; ++k) w = w * 0.75f + 0.03125f;
      unew[r * cols + c] = u[r * cols + c] * w + 0.0625f;
    }
  return unew;
}

Jit& unchecked_jit() {
  static std::unique_ptr<Jit> jit = [] {
    JitOptions options = test::options(true);
    options.bounds_checks = false;
    return std::make_unique<Jit>(test::runtime(), options);
  }();
  return *jit;
}

// One step of a kernel on the device: launch(kernel, unew, u, shape).
using Launch = std::function<void(Kernel&, Buffer<float>&, Buffer<float>&, const Shape&)>;
using Reference = std::function<Grid(const Grid&, const Shape&)>;

// `steps` steps of `def` on every shape, by every Jit, with `spec`; each against `reference`.
void check_steps(const KernelDef& def, const Specialization& spec, std::vector<Shape> shapes,
                 const Launch& launch, const Reference& reference) {
  auto& rt = test::runtime();
  test::compile_checked(def, spec);  // spirv-val
  const std::pair<Jit*, const char*> jits[] = {
      {&test::jit(), "on"},
      {&test::scalar_jit(), "off"},
      {&test::multi_vector_jit(16, 2), "16 lanes, 2 vectors per work-item"},
      {&test::multi_vector_jit(4, 8), "4 lanes, 8 vectors per work-item"},
      {&unchecked_jit(), "on, bounds checks off"}};
  for (const auto& [jit, coarsening] : jits) {
    CAPTURE(coarsening);
    Kernel kernel = jit->compile(def, spec);
    for (const Shape& shape : shapes) {
      std::string extents;
      std::size_t cells = 1;
      for (std::size_t extent : shape) {
        extents += (extents.empty() ? "" : "x") + std::to_string(extent);
        cells *= extent;
      }
      CAPTURE(extents);
      Grid host = test::full_mantissa_values<float>(cells, cells * 131 + shape[0]);
      auto a = rt.upload(host);
      auto b = rt.upload(host);  // the same boundary in both
      Buffer<float>* u = &a;
      Buffer<float>* unew = &b;
      for (int s = 0; s < steps; ++s) {
        launch(kernel, *unew, *u, shape);
        std::swap(u, unew);
        host = reference(host, shape);
      }
      rt.synchronize();
      CHECK(u->to_vector() == host);
    }
  }
}

const std::vector<Specialization> specializations(WorkGroup static_group) {
  return {Specialization{}, test::static_workgroup(static_group)};
}

}  // namespace

TEST_CASE("examples::stencil9_2d_step: swapped-grid steps equal the C++ loop bit for bit") {
  for (const Specialization& spec : specializations(WorkGroup{16, 16})) {
    CAPTURE(spec.workgroup.has_value());
    check_steps(
        examples::stencil9_2d_step(), spec, {{37, 23}, {3, 50}, {67, 5}, {2, 9}, {131, 6}},
        [](Kernel& k, Buffer<float>& unew, Buffer<float>& u, const Shape& s) {
          k.launch(NDRange{s[0], s[1]}, shaped(unew, {s[0], s[1]}), shaped(u, {s[0], s[1]}), centre,
                   face, corner);
        },
        stencil9_reference);
  }
}

TEST_CASE("examples::stencil27_3d_step: swapped-grid steps equal the C++ loop bit for bit") {
  for (const Specialization& spec : specializations(WorkGroup{8, 4, 2})) {
    CAPTURE(spec.workgroup.has_value());
    check_steps(
        examples::stencil27_3d_step(), spec, {{19, 7, 5}, {3, 3, 3}, {33, 4, 6}, {5, 2, 7}},
        [](Kernel& k, Buffer<float>& unew, Buffer<float>& u, const Shape& s) {
          k.launch(NDRange{s[0], s[1], s[2]}, shaped(unew, {s[0], s[1], s[2]}),
                   shaped(u, {s[0], s[1], s[2]}), centre, face, edge, corner);
        },
        stencil27_reference);
  }
}

TEST_CASE("examples::upwind1d_step: swapped-grid steps equal the C++ loop bit for bit") {
  for (const Specialization& spec : specializations(WorkGroup{64})) {
    CAPTURE(spec.workgroup.has_value());
    // One velocity field per size, uploaded once, as the benchmark does.
    std::vector<std::pair<std::size_t, Buffer<float>>> fields;
    check_steps(
        examples::upwind1d_step(), spec, {{1000}, {3}, {2}, {37}, {4099}},
        [&fields](Kernel& k, Buffer<float>& unew, Buffer<float>& u, const Shape& s) {
          Buffer<float>* v = nullptr;
          for (auto& [n, field] : fields) {
            if (n == s[0]) v = &field;
          }
          if (!v) v = &fields.emplace_back(s[0], test::runtime().upload(velocities(s[0]))).second;
          k.launch(NDRange{s[0]}, unew, u, *v, courant);
        },
        [](const Grid& u, const Shape& s) { return upwind_reference(u, velocities(s[0])); });
  }
}

TEST_CASE("examples::heat2d_row_major_step: swapped-grid steps equal the C++ loop bit for bit") {
  for (const Specialization& spec : specializations(WorkGroup{16, 16})) {
    CAPTURE(spec.workgroup.has_value());
    check_steps(
        examples::heat2d_row_major_step(), spec, {{23, 37}, {50, 3}, {5, 67}, {9, 2}, {6, 131}},
        [](Kernel& k, Buffer<float>& unew, Buffer<float>& u, const Shape& s) {
          k.launch(NDRange{s[0], s[1]}, shaped(unew, {s[0], s[1]}), shaped(u, {s[0], s[1]}), alpha);
        },
        heat_rows_reference);
  }
}

TEST_CASE("examples::rows_damping_step: swapped-grid steps equal the C++ loop bit for bit") {
  for (const Specialization& spec : specializations(WorkGroup{16, 16})) {
    CAPTURE(spec.workgroup.has_value());
    check_steps(
        examples::rows_damping_step(), spec, {{23, 37}, {50, 3}, {5, 67}, {1, 1}, {6, 131}},
        [](Kernel& k, Buffer<float>& unew, Buffer<float>& u, const Shape& s) {
          k.launch(NDRange{s[0], s[1]}, shaped(unew, {s[0], s[1]}), shaped(u, {s[0], s[1]}),
                   std::int64_t{12});
        },
        damping_reference);
  }
}
