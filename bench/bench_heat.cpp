// apps/heat2d/<N>/{spvjit,openmp} (N x N grids) and apps/heat3d/<N>/{spvjit,openmp} (N x N x N):
// explicit heat diffusion, examples::heat2d_step / heat3d_step launched once per step with the
// two grids swapped (synchronize at the end of each iteration), against the same step as an
// OpenMP loop (bench/openmp_heat.hpp). An iteration is a fixed number of steps. Besides allocs
// and bytes (per iteration), each case reports `steps` (per iteration), `us_per_step` (wall
// time per step) and bytes_per_second (one read and one write of every cell per step, over
// wall time). After timing, each spvjit case compares its grid with the OpenMP loop's after as
// many steps from the same start (the untimed first one included), bit for bit, and fails
// (SkipWithError) naming the first cell that differs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "spvjit/examples.hpp"
#include "bench/openmp_heat.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

constexpr float heat_alpha = 0.1f;  // stable in 2D (<= 1/4) and 3D (<= 1/6)

struct HeatCase {
  unsigned rank;      // 2 or 3
  std::size_t n;      // grid side
  std::size_t steps;  // per iteration: some milliseconds at OpenMP's speed
};

constexpr HeatCase heat_cases[] = {
    {2, 256, 50}, {2, 1024, 10}, {2, 4096, 2},  // 4096^2 floats: 64 MiB per grid
    {3, 64, 20},  {3, 128, 5},   {3, 256, 2},   // 256^3 floats: 64 MiB per grid
};

std::size_t cells(const HeatCase& c) { return c.rank == 2 ? c.n * c.n : c.n * c.n * c.n; }

// Smooth (a product of cosines, nonzero on the boundary) plus a deterministic pattern of
// sixteenths, column-major: cell (i, j, k) at i + n * (j + n * k).
std::vector<float> initial_grid(const HeatCase& c) {
  std::vector<double> wave(c.n);
  for (std::size_t i = 0; i < c.n; ++i) {
    wave[i] = std::cos(2.0 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(c.n));
  }
  const std::size_t depth = c.rank == 2 ? 1 : c.n;
  std::vector<float> grid(cells(c));
  std::size_t at = 0;
  for (std::size_t k = 0; k < depth; ++k) {
    for (std::size_t j = 0; j < c.n; ++j) {
      const double jk = wave[j] * (c.rank == 2 ? 1.0 : wave[k]);
      for (std::size_t i = 0; i < c.n; ++i, ++at) {
        const double pattern = static_cast<double>((i * 7 + j * 13 + k * 5) % 16) / 16.0;
        grid[at] = static_cast<float>(1.0 + 0.5 * wave[i] * jk + 0.125 * pattern);
      }
    }
  }
  return grid;
}

// One OpenMP step from `u` into `unew`.
void openmp_step(const HeatCase& c, float* unew, const float* u) {
  if (c.rank == 2) {
    openmp::heat2d_step(unew, u, c.n, c.n, heat_alpha);
  } else {
    openmp::heat3d_step(unew, u, c.n, c.n, c.n, heat_alpha);
  }
}

// `steps` OpenMP steps from `start`.
std::vector<float> openmp_run(const HeatCase& c, const std::vector<float>& start,
                              std::size_t steps) {
  std::vector<float> a = start, b = start;  // the same boundary in both: steps leave it be
  float* u = a.data();
  float* unew = b.data();
  for (std::size_t s = 0; s < steps; ++s) {
    openmp_step(c, unew, u);
    std::swap(u, unew);
  }
  return u == a.data() ? a : b;
}

// "cell (i, j) = <spvjit> (spvjit), <OpenMP> (OpenMP)" for the first cell that differs, or "".
std::string first_difference(const HeatCase& c, const std::vector<float>& got,
                             const std::vector<float>& expected) {
  const auto mismatch = std::mismatch(got.begin(), got.end(), expected.begin(),
                                      [](float a, float b) { return a == b; });
  if (mismatch.first == got.end()) return "";
  const auto at = static_cast<std::size_t>(mismatch.first - got.begin());
  std::string cell = "(" + std::to_string(at % c.n) + ", " + std::to_string(at / c.n % c.n);
  if (c.rank == 3) cell += ", " + std::to_string(at / (c.n * c.n));
  char values[96];
  std::snprintf(values, sizeof values, ") = %.9g (spvjit), %.9g (OpenMP)", *mismatch.first,
                *mismatch.second);
  return "cell " + cell + values;
}

// One read and one write of every cell per step.
double bytes_per_step(const HeatCase& c) {
  return 2.0 * sizeof(float) * static_cast<double>(cells(c));
}

void heat_openmp(benchmark::State& state, const HeatCase& c) {
  const std::vector<float> start = initial_grid(c);
  std::vector<float> a = start, b = start;
  float* u = a.data();
  float* unew = b.data();
  openmp_step(c, unew, u);  // starts the thread pool, untimed

  measure_steps(
      state, c.steps, bytes_per_step(c),
      [&] {
        openmp_step(c, unew, u);
        std::swap(u, unew);
      },
      [] { benchmark::ClobberMemory(); });
}

const KernelDef& heat_kernel(unsigned rank) {
  static const KernelDef two = examples::heat2d_step();
  static const KernelDef three = examples::heat3d_step();
  return rank == 3 ? three : two;
}

void heat_spvjit(benchmark::State& state, const HeatCase& c) {
  Context* ctx = context(state);
  if (!ctx) return;
  Kernel kernel = ctx->jit.compile(heat_kernel(c.rank));
  const std::vector<float> start = initial_grid(c);
  Buffer<float> a = ctx->runtime.upload(start);
  Buffer<float> b = ctx->runtime.upload(start);  // the same boundary in both
  Buffer<float>* u = &a;
  Buffer<float>* unew = &b;
  const std::size_t n = c.n;
  auto step = [&] {
    if (c.rank == 2) {
      kernel.launch(NDRange{n, n}, shaped(*unew, {n, n}), shaped(*u, {n, n}), heat_alpha);
    } else {
      kernel.launch(NDRange{n, n, n}, shaped(*unew, {n, n, n}), shaped(*u, {n, n, n}), heat_alpha);
    }
    std::swap(u, unew);
  };
  step();  // the first launch, out of the measurement
  ctx->runtime.synchronize();

  measure_steps(state, c.steps, bytes_per_step(c), step, [&] { ctx->runtime.synchronize(); });

  const std::size_t steps = 1 + static_cast<std::size_t>(state.iterations()) * c.steps;
  const std::string difference = first_difference(c, u->to_vector(), openmp_run(c, start, steps));
  if (!difference.empty()) {
    state.SkipWithError(("after " + std::to_string(steps) +
                         " steps from the same start, spvjit and OpenMP differ at " + difference)
                            .c_str());
  }
}

}  // namespace

void register_heat() {
  for (const HeatCase& c : heat_cases) {
    const std::string prefix =
        "apps/heat" + std::to_string(c.rank) + "d/" + std::to_string(c.n) + "/";
    add_case(prefix + "spvjit", [c](benchmark::State& s) {
      heat_spvjit(s, c);
    })->Unit(benchmark::kMillisecond);
    add_case(prefix + "openmp", [c](benchmark::State& s) {
      heat_openmp(s, c);
    })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace spvjit::bench
