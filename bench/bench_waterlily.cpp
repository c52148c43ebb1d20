// apps/waterlily_mult/<N>/{spvjit,openmp} (N x N cells, ghosts included): WaterLily.jl's Poisson
// matrix-vector product z = A x (mult!, the kernel of every conjugate-gradient iteration of its
// pressure solver), examples::waterlily_mult launched once per step over inside(z) with
// WaterLily's static workgroup of 64, against the same product as an OpenMP loop
// (bench/openmp_waterlily.hpp). Every step computes z from the same x, as each CG iteration
// does from its own direction; an iteration is a fixed number of steps. The counters are
// bench_heat.cpp's: allocs and bytes (per iteration), `steps` (per iteration), `us_per_step`
// and bytes_per_second (x, D, both faces of L and z, once per cell and step, over wall time).
// After timing, each spvjit case compares its z with the OpenMP loop's, bit for bit, and fails
// (SkipWithError) naming the first cell that differs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "spvjit/examples.hpp"
#include "bench/openmp_waterlily.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

struct MultCase {
  std::size_t n;      // cells per side, ghosts included
  std::size_t steps;  // per iteration: some milliseconds at OpenMP's speed
};

constexpr MultCase mult_cases[] = {{256, 50}, {1024, 10}, {2048, 3}};  // 2048^2: 80 MiB of fields

// A WaterLily-like Poisson problem, column-major (cell (i, j) at i + n * j): L is 1 in the
// fluid, 0 inside a circle (the body) with a one-cell linear ramp at its edge, and 0 on the
// faces between ghost and interior cells (no flux through the domain boundary); D = diag(I, L)
// as WaterLily computes it (0 in the ghosts); x a smooth field plus a pattern of sixteenths.
struct Fields {
  std::vector<float> L, D, x;
};

Fields problem(std::size_t n) {
  Fields f{std::vector<float>(2 * n * n), std::vector<float>(n * n), std::vector<float>(n * n)};
  const double radius = static_cast<double>(n) / 8.0;
  const double cx = static_cast<double>(n) / 4.0, cy = static_cast<double>(n) / 2.0;
  // Face d of cell (i, j) lies half a cell below its centre in dimension d.
  auto fluid = [&](double px, double py) {
    const double distance = std::hypot(px - cx, py - cy) - radius;
    return std::clamp(0.5 + distance, 0.0, 1.0);
  };
  const std::size_t faces = n * n;
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto x = static_cast<double>(i), y = static_cast<double>(j);
      const std::size_t at = i + n * j;
      const bool wall_i = i <= 1 || i >= n - 1, wall_j = j <= 1 || j >= n - 1;
      f.L[at] = wall_i ? 0.0f : static_cast<float>(fluid(x - 0.5, y));
      f.L[faces + at] = wall_j ? 0.0f : static_cast<float>(fluid(x, y - 0.5));
      const double wave = std::cos(2.0 * std::numbers::pi * x / static_cast<double>(n)) *
                          std::sin(2.0 * std::numbers::pi * y / static_cast<double>(n));
      const double pattern = static_cast<double>((i * 7 + j * 13) % 16) / 16.0;
      f.x[at] = static_cast<float>(wave + 0.125 * pattern);
    }
  }
  for (std::size_t j = 1; j + 1 < n; ++j) {
    for (std::size_t i = 1; i + 1 < n; ++i) {
      const std::size_t at = i + n * j;
      float s = 0.0f;  // diag(I, L): s -= L[I,i] + L[I+δ(i,I),i] for each i
      s -= f.L[at] + f.L[at + 1];
      s -= f.L[faces + at] + f.L[faces + at + n];
      f.D[at] = s;
    }
  }
  return f;
}

// "cell (i, j) = <spvjit> (spvjit), <OpenMP> (OpenMP)" for the first cell that differs, or "".
std::string first_difference(std::size_t n, const std::vector<float>& got,
                             const std::vector<float>& expected) {
  const auto mismatch = std::mismatch(got.begin(), got.end(), expected.begin(),
                                      [](float a, float b) { return a == b; });
  if (mismatch.first == got.end()) return "";
  const auto at = static_cast<std::size_t>(mismatch.first - got.begin());
  char text[160];
  std::snprintf(text, sizeof text, "cell (%zu, %zu) = %.9g (spvjit), %.9g (OpenMP)", at % n, at / n,
                *mismatch.first, *mismatch.second);
  return text;
}

// x, D, two faces of L and z: once per cell and step.
double bytes_per_step(const MultCase& c) {
  return 5.0 * sizeof(float) * static_cast<double>(c.n * c.n);
}

void mult_openmp(benchmark::State& state, const MultCase& c) {
  const Fields f = problem(c.n);
  std::vector<float> z(c.n * c.n, 0.0f);                                           // fill!(p.z, 0)
  openmp::waterlily_mult(z.data(), f.L.data(), f.D.data(), f.x.data(), c.n, c.n);  // untimed

  measure_steps(
      state, c.steps, bytes_per_step(c),
      [&] { openmp::waterlily_mult(z.data(), f.L.data(), f.D.data(), f.x.data(), c.n, c.n); },
      [] { benchmark::ClobberMemory(); });
}

void mult_spvjit(benchmark::State& state, const MultCase& c) {
  Context* ctx = context(state);
  if (!ctx) return;
  static const KernelDef def = examples::waterlily_mult();
  Specialization spec;
  spec.workgroup = WorkGroup{64, 1};  // kern_(get_backend(z), 64)
  Kernel kernel = ctx->jit.compile(def, spec);
  const Fields f = problem(c.n);
  const std::size_t n = c.n;
  Buffer<float> z = ctx->runtime.zeros<float>(n * n);  // fill!(p.z, 0)
  const Buffer<float> L = ctx->runtime.upload(f.L);
  const Buffer<float> D = ctx->runtime.upload(f.D);
  const Buffer<float> x = ctx->runtime.upload(f.x);
  const std::int64_t first = 1;  // inside(z) starts at (1, 1): I0
  auto step = [&] {
    kernel.launch(NDRange{n - 2, n - 2}, shaped(z, {n, n}), shaped(L, {n, n, 2}), shaped(D, {n, n}),
                  shaped(x, {n, n}), first, first);
  };
  step();  // the first launch, out of the measurement
  ctx->runtime.synchronize();

  measure_steps(state, c.steps, bytes_per_step(c), step, [&] { ctx->runtime.synchronize(); });

  std::vector<float> expected(n * n, 0.0f);
  openmp::waterlily_mult(expected.data(), f.L.data(), f.D.data(), f.x.data(), n, n);
  const std::string difference = first_difference(n, z.to_vector(), expected);
  if (!difference.empty()) {
    state.SkipWithError(("spvjit and OpenMP differ at " + difference).c_str());
  }
}

}  // namespace

void register_waterlily() {
  for (const MultCase& c : mult_cases) {
    const std::string prefix = "apps/waterlily_mult/" + std::to_string(c.n) + "/";
    add_case(prefix + "spvjit", [c](benchmark::State& s) {
      mult_spvjit(s, c);
    })->Unit(benchmark::kMillisecond);
    add_case(prefix + "openmp", [c](benchmark::State& s) {
      mult_openmp(s, c);
    })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace spvjit::bench
