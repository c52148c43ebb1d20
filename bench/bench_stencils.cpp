// apps/stencil9/<N>, apps/stencil27/<N>, apps/upwind1d/<N>, apps/heat2d_rows/<N> and
// apps/rows_damping/<N>, each {spvjit,openmp} (issue #65): the stencil shapes beside
// heat2d/heat3d, examples::stencil9_2d_step (N x N), stencil27_3d_step (N^3), upwind1d_step (N
// cells, a branch on the data), heat2d_row_major_step (N x N, dimension 0 of the launch the rows,
// as OpenCL C codes write it) and rows_damping_step (N x N row-major, a loop per cell: legal to
// coarsen in both dimensions), launched once per step with the two grids swapped, against the same
// step as an OpenMP loop (bench/openmp_stencils.hpp). The counters are bench_heat.cpp's: allocs and
// bytes (per iteration), `steps`, `us_per_step` and bytes_per_second (one read and one write of
// every cell per step, and upwind's velocity read, over wall time). After timing, each spvjit case
// compares its grid with the OpenMP loop's after as many steps from the same start, bit for bit,
// and fails (SkipWithError) naming the first cell that differs.
#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "spvjit/examples.hpp"
#include "bench/openmp_stencils.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

// The weights of the 9- and 27-point steps by distance (centre, face, edge, corner): they sum
// to 1 over the 27 neighbours, so the grids stay bounded.
constexpr std::array<float, 4> weight = {0.125f, 0.0625f, 0.03125f, 0.015625f};
constexpr float heat_alpha = 0.1f;  // stable (<= 1/4)
constexpr float courant = 0.4f;     // stable (|c v| <= 1)
constexpr std::int64_t damping_terms = 12;

enum class Shape { stencil9, stencil27, upwind1d, heat2d_rows, rows_damping };

struct StencilCase {
  Shape shape;
  std::size_t n;      // grid side (cells for upwind1d)
  std::size_t steps;  // per iteration: some milliseconds at OpenMP's speed
};

constexpr StencilCase stencil_cases[] = {
    {Shape::stencil9, 256, 50},     {Shape::stencil9, 1024, 10},     {Shape::stencil9, 4096, 2},
    {Shape::stencil27, 64, 20},     {Shape::stencil27, 128, 5},      {Shape::stencil27, 256, 2},
    {Shape::upwind1d, 1 << 16, 50}, {Shape::upwind1d, 1 << 20, 10},  {Shape::upwind1d, 1 << 24, 2},
    {Shape::heat2d_rows, 256, 50},  {Shape::heat2d_rows, 1024, 10},  {Shape::heat2d_rows, 4096, 2},
    {Shape::rows_damping, 256, 50}, {Shape::rows_damping, 1024, 10}, {Shape::rows_damping, 4096, 2},
};

const char* name(Shape s) {
  switch (s) {
    case Shape::stencil9:
      return "stencil9";
    case Shape::stencil27:
      return "stencil27";
    case Shape::upwind1d:
      return "upwind1d";
    case Shape::heat2d_rows:
      return "heat2d_rows";
    case Shape::rows_damping:
      return "rows_damping";
  }
  return "";
}

std::size_t cells(const StencilCase& c) {
  switch (c.shape) {
    case Shape::stencil27:
      return c.n * c.n * c.n;
    case Shape::upwind1d:
      return c.n;
    default:
      return c.n * c.n;
  }
}

// A deterministic pattern of 64ths around 1, in memory order.
std::vector<float> initial_grid(const StencilCase& c) {
  std::vector<float> grid(cells(c));
  for (std::size_t at = 0; at < grid.size(); ++at) {
    grid[at] = 1.0f + static_cast<float>(at * 7919 % 64) / 128.0f;
  }
  return grid;
}

// Velocities of both signs and zero, from -1 to 1 in fifths.
std::vector<float> velocities(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = static_cast<float>(static_cast<int>(i * 7 % 11) - 5) / 5.0f;
  }
  return v;
}

// One OpenMP step from `u` into `unew`.
void openmp_step(const StencilCase& c, float* unew, const float* u, const float* v) {
  const std::size_t n = c.n;
  switch (c.shape) {
    case Shape::stencil9:
      return openmp::stencil9_2d_step(unew, u, n, n, weight[0], weight[1], weight[3]);
    case Shape::stencil27:
      return openmp::stencil27_3d_step(unew, u, n, n, n, weight);
    case Shape::upwind1d:
      return openmp::upwind1d_step(unew, u, v, n, courant);
    case Shape::heat2d_rows:
      return openmp::heat2d_rows_step(unew, u, n, n, heat_alpha);
    case Shape::rows_damping:
      return openmp::rows_damping_step(unew, u, n, n, damping_terms);
  }
}

// `steps` OpenMP steps from `start`.
std::vector<float> openmp_run(const StencilCase& c, const std::vector<float>& start,
                              std::size_t steps) {
  const std::vector<float> v = velocities(c.shape == Shape::upwind1d ? c.n : 0);
  std::vector<float> a = start, b = start;  // the same boundary in both: steps leave it be
  float* u = a.data();
  float* unew = b.data();
  for (std::size_t s = 0; s < steps; ++s) {
    openmp_step(c, unew, u, v.data());
    std::swap(u, unew);
  }
  return u == a.data() ? a : b;
}

// "cell <k> = <spvjit> (spvjit), <OpenMP> (OpenMP)" for the first cell that differs, or "".
std::string first_difference(const std::vector<float>& got, const std::vector<float>& expected) {
  for (std::size_t at = 0; at < got.size(); ++at) {
    if (got[at] != expected[at]) {
      char text[128];
      std::snprintf(text, sizeof text, "cell %zu (in memory order) = %.9g (spvjit), %.9g (OpenMP)",
                    at, got[at], expected[at]);
      return text;
    }
  }
  return "";
}

// One read and one write of every cell per step, and upwind's velocities.
double bytes_per_step(const StencilCase& c) {
  const double arrays = c.shape == Shape::upwind1d ? 3.0 : 2.0;
  return arrays * sizeof(float) * static_cast<double>(cells(c));
}

void stencil_openmp(benchmark::State& state, const StencilCase& c) {
  const std::vector<float> start = initial_grid(c);
  const std::vector<float> v = velocities(c.shape == Shape::upwind1d ? c.n : 0);
  std::vector<float> a = start, b = start;
  float* u = a.data();
  float* unew = b.data();
  openmp_step(c, unew, u, v.data());  // starts the thread pool, untimed

  measure_steps(
      state, c.steps, bytes_per_step(c),
      [&] {
        openmp_step(c, unew, u, v.data());
        std::swap(u, unew);
      },
      [] { benchmark::ClobberMemory(); });
}

const KernelDef& stencil_kernel(Shape s) {
  static const KernelDef nine = examples::stencil9_2d_step();
  static const KernelDef twenty_seven = examples::stencil27_3d_step();
  static const KernelDef upwind = examples::upwind1d_step();
  static const KernelDef rows = examples::heat2d_row_major_step();
  static const KernelDef damping = examples::rows_damping_step();
  switch (s) {
    case Shape::stencil9:
      return nine;
    case Shape::stencil27:
      return twenty_seven;
    case Shape::upwind1d:
      return upwind;
    case Shape::heat2d_rows:
      break;
    case Shape::rows_damping:
      return damping;
  }
  return rows;
}

void stencil_spvjit(benchmark::State& state, const StencilCase& c) {
  Context* ctx = context(state);
  if (!ctx) return;
  Kernel kernel = ctx->jit.compile(stencil_kernel(c.shape));
  const std::vector<float> start = initial_grid(c);
  Buffer<float> a = ctx->runtime.upload(start);
  Buffer<float> b = ctx->runtime.upload(start);  // the same boundary in both
  Buffer<float> v = ctx->runtime.upload(velocities(c.shape == Shape::upwind1d ? c.n : 1));
  Buffer<float>* u = &a;
  Buffer<float>* unew = &b;
  const std::size_t n = c.n;
  auto step = [&] {
    switch (c.shape) {
      case Shape::stencil9:
        kernel.launch(NDRange{n, n}, shaped(*unew, {n, n}), shaped(*u, {n, n}), weight[0],
                      weight[1], weight[3]);
        break;
      case Shape::stencil27:
        kernel.launch(NDRange{n, n, n}, shaped(*unew, {n, n, n}), shaped(*u, {n, n, n}), weight[0],
                      weight[1], weight[2], weight[3]);
        break;
      case Shape::upwind1d:
        kernel.launch(NDRange{n}, *unew, *u, v, courant);
        break;
      case Shape::heat2d_rows:
        kernel.launch(NDRange{n, n}, shaped(*unew, {n, n}), shaped(*u, {n, n}), heat_alpha);
        break;
      case Shape::rows_damping:
        kernel.launch(NDRange{n, n}, shaped(*unew, {n, n}), shaped(*u, {n, n}), damping_terms);
        break;
    }
    std::swap(u, unew);
  };
  step();  // the first launch, out of the measurement
  ctx->runtime.synchronize();

  measure_steps(state, c.steps, bytes_per_step(c), step, [&] { ctx->runtime.synchronize(); });

  const std::size_t steps = 1 + static_cast<std::size_t>(state.iterations()) * c.steps;
  const std::string difference = first_difference(u->to_vector(), openmp_run(c, start, steps));
  if (!difference.empty()) {
    state.SkipWithError(("after " + std::to_string(steps) +
                         " steps from the same start, spvjit and OpenMP differ at " + difference)
                            .c_str());
  }
}

}  // namespace

void register_stencils() {
  for (const StencilCase& c : stencil_cases) {
    const std::string prefix =
        std::string("apps/") + name(c.shape) + "/" + std::to_string(c.n) + "/";
    add_case(prefix + "spvjit", [c](benchmark::State& s) {
      stencil_spvjit(s, c);
    })->Unit(benchmark::kMillisecond);
    add_case(prefix + "openmp", [c](benchmark::State& s) {
      stencil_openmp(s, c);
    })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace spvjit::bench
