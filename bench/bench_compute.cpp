// Compute-heavy applications, each three ways in one process and in two math modes:
//   apps/black_scholes/{Float32,Float64}/<mode>/<way>: the call and put price of 2^20 European
//     options (log, exp, sqrt and the normal CDF as 0.5 erfc(-x / sqrt(2))), one work-item each;
//   apps/nbody/{global,local}/<mode>/<way>: the accelerations of 4096 bodies from all bodies
//     (softened, 1 / sqrt per pair), one work-item per body; `global` reads the bodies from
//     global memory in its inner loop, `local` stages them through a local array of 64 bodies
//     with barriers (a static workgroup of 64, the classic GPU n-body); the OpenMP loop has no
//     such variant and is registered under both names;
//   apps/mandelbrot/<mode>/<way>: the iteration count (at most 256) of each pixel of a
//     1024 x 1024 image of [-2, 1] x [-1.5, 1.5], one work-item per pixel, a data-dependent loop.
// <way>: `spvjit` (a KernelBuilder kernel compiled by the suite's Jit, launched through spvjit and
// synchronized), `openmp` (the loop of bench/openmp_compute.hpp) or `opencl` (the same kernel as
// OpenCL C, built from source and launched through raw OpenCL: bench/opencl_compute.hpp).
// <mode>: `exact` (no fast math: spvjit without fastmath, OpenMP -ffp-contract=off, OpenCL C with
// FP_CONTRACT off) or `fast` (kb.fastmath(), -ffast-math, -cl-fast-relaxed-math). Problem sizes
// and inputs: bench/compute_cases.hpp. An iteration is one launch (one call of the loop); each
// case reports allocs and bytes (per iteration), `us_per_step` (wall time per launch),
// bytes_per_second (inputs read and results written once) and items_per_second (options, body
// pairs or pixels per wall-clock second). After timing, each case checks its result against a
// host reference computed once (Black-Scholes and n-body: in double; Mandelbrot: the exact
// OpenMP loop, -ffp-contract=off) within the tolerance of its mode (below), and fails
// (SkipWithError) naming the first element outside it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bench/compute_cases.hpp"
#include "bench/compute_measure.hpp"
#include "bench/opencl_compute.hpp"
#include "bench/openmp_compute.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

using compute::MathMode;
using compute::measure;
using compute::to_string;
using compute::Way;

// The first element of `got` whose error against `want` exceeds both rel * |want| and abs, as
// "<what>[i] = <got> (<way>), <want> expected (error e)", or "" when there is none.
template <class T>
std::string first_outside(const char* what, Way way, const std::vector<T>& got,
                          const std::vector<double>& want, double rel, double abs) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double g = static_cast<double>(got.at(i));
    const double error = std::fabs(g - want[i]);
    if (!(error <= abs || error <= rel * std::fabs(want[i]))) {  // NaN fails
      char text[200];
      std::snprintf(text, sizeof text,
                    "%s[%zu] = %.17g (%s), %.17g expected (error %.3g; tolerance %g relative, %g "
                    "absolute)",
                    what, i, g, to_string(way), want[i], error, rel, abs);
      return text;
    }
  }
  return "";
}

void fail(benchmark::State& state, const std::string& difference) {
  if (!difference.empty()) state.SkipWithError(difference.c_str());
}

// ---------------------------------------------------------------------------------------------
// Black-Scholes.

// The kernel: the same operations in the same order as bench/openmp_compute.cpp's loop.
template <class T>
KernelDef build_black_scholes(MathMode mode) {
  KernelBuilder kb("black_scholes");
  if (mode == MathMode::fast) kb.fastmath();
  auto call = kb.param<Global<T>>("call");
  auto put = kb.param<Global<T>>("put");
  auto spot = kb.param<Const<T>>("spot");
  auto strike = kb.param<Const<T>>("strike");
  auto years = kb.param<Const<T>>("years");
  auto rate = kb.param<T>("rate");
  auto volatility = kb.param<T>("volatility");
  auto i = kb.global_index();
  const Val<T> half = kb.lit(static_cast<T>(0.5));
  const Val<T> sqrt1_2 = kb.lit(static_cast<T>(0.70710678118654752440));  // 1 / sqrt(2)
  const Val<T> s = spot[i], k = strike[i], t = years[i];
  auto sqrt_t = sqrt(t);
  auto d1 = (log(s / k) + (rate + half * volatility * volatility) * t) / (volatility * sqrt_t);
  auto d2 = d1 - volatility * sqrt_t;
  auto cnd1 = half * erfc(-d1 * sqrt1_2);
  auto cnd2 = half * erfc(-d2 * sqrt1_2);
  auto discount = k * exp(-rate * t);
  call[i] = s * cnd1 - discount * cnd2;
  put[i] = discount * (static_cast<T>(1) - cnd2) - s * (static_cast<T>(1) - cnd1);
  return kb.finish();
}

template <class T>
const KernelDef& black_scholes_kernel(MathMode mode) {
  static const KernelDef exact = build_black_scholes<T>(MathMode::exact);
  static const KernelDef fast = build_black_scholes<T>(MathMode::fast);
  return mode == MathMode::exact ? exact : fast;
}

template <class T>
const compute::OptionInputs<T>& black_scholes_inputs() {
  static const compute::OptionInputs<T> inputs = compute::black_scholes_inputs<T>();
  return inputs;
}

struct Prices {
  std::vector<double> call, put;
};

// The prices of the T inputs, computed in double.
template <class T>
const Prices& black_scholes_reference() {
  static const Prices prices = [] {
    const auto& in = black_scholes_inputs<T>();
    const std::size_t n = in.spot.size();
    const double r = compute::black_scholes_rate, v = compute::black_scholes_volatility;
    Prices p{std::vector<double>(n), std::vector<double>(n)};
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
      const double s = in.spot[i], k = in.strike[i], t = in.years[i];
      const double d1 = (std::log(s / k) + (r + 0.5 * v * v) * t) / (v * std::sqrt(t));
      const double d2 = d1 - v * std::sqrt(t);
      const double cnd1 = 0.5 * std::erfc(-d1 / std::sqrt(2.0));
      const double cnd2 = 0.5 * std::erfc(-d2 / std::sqrt(2.0));
      const double discount = k * std::exp(-r * t);
      p.call[i] = s * cnd1 - discount * cnd2;
      p.put[i] = discount * (1.0 - cnd2) - s * (1.0 - cnd1);
    }
    return p;
  }();
  return prices;
}

// The relative and absolute tolerance of a price (0 to about 100); a price passes within either.
// Float32 exact, 1e-4: computed in float (from float inputs), the prices differ from the double
// reference by up to 1.6e-5 absolute, and those below ~0.15 by up to 1.1e-4 relative (there the
// absolute bound holds). Float64 exact, 1e-9 (measured: 4e-14 absolute). fast: ten times looser,
// for math functions allowed to be less accurate (glibc's vector erfc, exp and log under
// -ffast-math; OpenCL's -cl-fast-relaxed-math bounds); measured as exact on this machine.
template <class T>
std::pair<double, double> black_scholes_tolerance(MathMode mode) {
  if (sizeof(T) == 4)
    return mode == MathMode::exact ? std::pair{1e-4, 1e-4} : std::pair{1e-3, 1e-3};
  return mode == MathMode::exact ? std::pair{1e-9, 1e-9} : std::pair{1e-8, 1e-8};
}

template <class T>
void black_scholes(benchmark::State& state, MathMode mode, Way way) {
  const auto& in = black_scholes_inputs<T>();
  const std::size_t n = in.spot.size();
  const T rate = static_cast<T>(compute::black_scholes_rate);
  const T volatility = static_cast<T>(compute::black_scholes_volatility);
  const double items = static_cast<double>(n);
  const double bytes = 5.0 * sizeof(T) * items;  // three inputs read, two prices written
  std::vector<T> call(n), put(n);
  switch (way) {
    case Way::spvjit: {
      Context* ctx = context(state);
      if (!ctx) return;
      Kernel kernel = ctx->jit.compile(black_scholes_kernel<T>(mode));
      Buffer<T> c = ctx->runtime.zeros<T>(n), p = ctx->runtime.zeros<T>(n);
      Buffer<T> s = ctx->runtime.upload(in.spot), k = ctx->runtime.upload(in.strike),
                t = ctx->runtime.upload(in.years);
      measure(
          state, items, bytes, [&] { kernel.launch(NDRange{n}, c, p, s, k, t, rate, volatility); },
          [&] { ctx->runtime.synchronize(); });
      c.read(call);
      p.read(put);
      break;
    }
    case Way::openmp: {
      auto loop =
          mode == MathMode::exact
              ? static_cast<void (*)(T*, T*, const T*, const T*, const T*, T, T, std::size_t)>(
                    openmp::exact::black_scholes)
              : static_cast<void (*)(T*, T*, const T*, const T*, const T*, T, T, std::size_t)>(
                    openmp::fast::black_scholes);
      measure(
          state, items, bytes,
          [&] {
            loop(call.data(), put.data(), in.spot.data(), in.strike.data(), in.years.data(), rate,
                 volatility, n);
          },
          [] { benchmark::ClobberMemory(); });
      break;
    }
    case Way::opencl: {
      opencl::BlackScholes<T> kernel(mode, in);
      measure(
          state, items, bytes, [&] { kernel.run(); }, [] {});
      kernel.read(call, put);
      break;
    }
  }
  const Prices& want = black_scholes_reference<T>();
  const auto [rel, abs] = black_scholes_tolerance<T>(mode);
  std::string difference = first_outside("call", way, call, want.call, rel, abs);
  if (difference.empty()) difference = first_outside("put", way, put, want.put, rel, abs);
  fail(state, difference);
}

// ---------------------------------------------------------------------------------------------
// n-body.

// The kernel: the same operations in the same order as bench/openmp_compute.cpp's loop, the
// bodies in the same order in both variants.
KernelDef build_nbody(bool local, MathMode mode) {
  KernelBuilder kb(local ? "nbody_local" : "nbody_global");
  if (mode == MathMode::fast) kb.fastmath();
  // Each work-item loops over every body: spread the 4096 work-items over the cores.
  kb.work_per_item(compute::nbody_bodies);
  const auto group = static_cast<std::int64_t>(compute::nbody_group);
  if (local) kb.workgroup(WorkGroup{compute::nbody_group});
  auto acc = kb.param<Global<float>>("acc");
  auto pos = kb.param<Const<float>>("pos");
  auto n = kb.param<std::int64_t>("n");
  auto softening2 = kb.param<float>("softening2");
  auto i = kb.global_index();
  const Val<float> xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
  auto ax = kb.var(0.0f), ay = kb.var(0.0f), az = kb.var(0.0f);
  auto interact = [&](Val<float> xj, Val<float> yj, Val<float> zj, Val<float> mj) {
    auto dx = xj - xi, dy = yj - yi, dz = zj - zi;
    auto r2 = dx * dx + dy * dy + dz * dz + softening2;
    auto inv = 1.0f / sqrt(r2);
    auto s = mj * inv * inv * inv;
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  };
  if (local) {
    auto tile = local_array<float>(kb, {4 * group}, "tile");
    auto lid = kb.local_index();
    kb.for_(0, n, group, [&](Val<std::int64_t> base) {
      for (int c = 0; c < 4; ++c) tile[4 * lid + c] = Val<float>(pos[4 * (base + lid) + c]);
      barrier(kb, Fence::Local);
      kb.for_(0, group, [&](Val<std::int64_t> k) {
        interact(tile[4 * k], tile[4 * k + 1], tile[4 * k + 2], tile[4 * k + 3]);
      });
      barrier(kb, Fence::Local);
    });
  } else {
    kb.for_(0, n, [&](Val<std::int64_t> j) {
      interact(pos[4 * j], pos[4 * j + 1], pos[4 * j + 2], pos[4 * j + 3]);
    });
  }
  acc[3 * i] = ax.get();
  acc[3 * i + 1] = ay.get();
  acc[3 * i + 2] = az.get();
  return kb.finish();
}

const KernelDef& nbody_kernel(bool local, MathMode mode) {
  static std::map<std::pair<bool, MathMode>, KernelDef> built;
  auto it = built.find({local, mode});
  if (it == built.end()) it = built.emplace(std::pair{local, mode}, build_nbody(local, mode)).first;
  return it->second;
}

const std::vector<float>& nbody_positions() {
  static const std::vector<float> pos = compute::nbody_positions();
  return pos;
}

// The accelerations in double, acc[3 i + c].
const std::vector<double>& nbody_reference() {
  static const std::vector<double> acc = [] {
    const auto& pos = nbody_positions();
    const std::size_t n = compute::nbody_bodies;
    std::vector<double> a(3 * n);
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
      double ax = 0, ay = 0, az = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const double dx = double{pos[4 * j]} - pos[4 * i],
                     dy = double{pos[4 * j + 1]} - pos[4 * i + 1],
                     dz = double{pos[4 * j + 2]} - pos[4 * i + 2];
        const double r2 = dx * dx + dy * dy + dz * dz + double{compute::nbody_softening2};
        const double s = pos[4 * j + 3] / (r2 * std::sqrt(r2));
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
      }
      a[3 * i] = ax;
      a[3 * i + 1] = ay;
      a[3 * i + 2] = az;
    }
    return a;
  }();
  return acc;
}

void nbody(benchmark::State& state, bool local, MathMode mode, Way way) {
  const auto& pos = nbody_positions();
  const std::size_t n = compute::nbody_bodies;
  const double items = static_cast<double>(n) * static_cast<double>(n);  // body pairs
  const double bytes = (4.0 + 3.0) * sizeof(float) * static_cast<double>(n);
  std::vector<float> acc(3 * n);
  switch (way) {
    case Way::spvjit: {
      Context* ctx = context(state);
      if (!ctx) return;
      Kernel kernel = ctx->jit.compile(nbody_kernel(local, mode));
      Buffer<float> a = ctx->runtime.zeros<float>(3 * n);
      Buffer<float> p = ctx->runtime.upload(pos);
      const auto bodies = static_cast<std::int64_t>(n);
      measure(
          state, items, bytes,
          [&] { kernel.launch(NDRange{n}, a, p, bodies, compute::nbody_softening2); },
          [&] { ctx->runtime.synchronize(); });
      a.read(acc);
      break;
    }
    case Way::openmp: {
      auto loop = mode == MathMode::exact ? openmp::exact::nbody : openmp::fast::nbody;
      measure(
          state, items, bytes, [&] { loop(acc.data(), pos.data(), n, compute::nbody_softening2); },
          [] { benchmark::ClobberMemory(); });
      break;
    }
    case Way::opencl: {
      opencl::NBody kernel(mode, local, pos);
      measure(
          state, items, bytes, [&] { kernel.run(); }, [] {});
      acc = kernel.read();
      break;
    }
  }
  // Each component within 1e-3 relative: the float sums of 4096 terms differ from the double
  // reference by up to 4.1e-4 relative (measured, every way and mode; summed in order or not).
  fail(state, first_outside("acc", way, acc, nbody_reference(), 1e-3, 0.0));
}

// ---------------------------------------------------------------------------------------------
// Mandelbrot.

// The kernel: the same operations in the same order as bench/openmp_compute.cpp's loop.
KernelDef build_mandelbrot(MathMode mode) {
  KernelBuilder kb("mandelbrot");
  if (mode == MathMode::fast) kb.fastmath();
  auto out = kb.param<Global<std::int32_t>>("out");
  auto x0 = kb.param<float>("x0");
  auto y0 = kb.param<float>("y0");
  auto step = kb.param<float>("step");
  auto iterations = kb.param<std::int32_t>("iterations");
  auto px = kb.global_index(0), py = kb.global_index(1);
  auto cx = x0 + cast<float>(px) * step, cy = y0 + cast<float>(py) * step;
  auto x = kb.var(0.0f), y = kb.var(0.0f);
  auto it = kb.var(std::int32_t{0});
  kb.while_([&] { return it < iterations && x * x + y * y <= 4.0f; },
            [&] {
              const Val<float> xv = x, yv = y;
              x = xv * xv - yv * yv + cx;
              y = 2.0f * xv * yv + cy;
              it += 1;
            });
  out[py * kb.ndrange(0) + px] = it.get();
  return kb.finish();
}

const KernelDef& mandelbrot_kernel(MathMode mode) {
  static const KernelDef exact = build_mandelbrot(MathMode::exact);
  static const KernelDef fast = build_mandelbrot(MathMode::fast);
  return mode == MathMode::exact ? exact : fast;
}

// The exact OpenMP loop's image (-ffp-contract=off: the arithmetic as written).
const std::vector<std::int32_t>& mandelbrot_reference() {
  static const std::vector<std::int32_t> image = [] {
    std::vector<std::int32_t> out(compute::mandelbrot_width * compute::mandelbrot_height);
    openmp::exact::mandelbrot(out.data(), compute::mandelbrot_width, compute::mandelbrot_height,
                              compute::mandelbrot_x0, compute::mandelbrot_y0,
                              compute::mandelbrot_step, compute::mandelbrot_iterations);
    return out;
  }();
  return image;
}

// exact: every pixel as the reference's (measured: every way, bit for bit; the OpenCL C needs its
// FP_CONTRACT OFF for that: with OpenCL C's default, fused multiply-adds, 1264 pixels differ);
// fast: fused or reordered arithmetic changes the counts of pixels near the set's boundary (the
// orbit is chaotic there), at most 1% of them (measured: 0.11-0.13%).
std::string mandelbrot_difference(Way way, MathMode mode, const std::vector<std::int32_t>& got) {
  const auto& want = mandelbrot_reference();
  std::size_t differ = 0, first = want.size();
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got.at(i) != want[i]) {
      if (differ++ == 0) first = i;
    }
  }
  const double allowed = mode == MathMode::exact ? 0.0 : 0.01 * static_cast<double>(want.size());
  if (static_cast<double>(differ) <= allowed) return "";
  const std::size_t w = compute::mandelbrot_width;
  return std::to_string(differ) + " of " + std::to_string(want.size()) +
         " pixels differ from the exact host loop's (" + (mode == MathMode::exact ? "none" : "1%") +
         " allowed); the first, (" + std::to_string(first % w) + ", " + std::to_string(first / w) +
         "): " + std::to_string(got[first]) + " iterations (" + to_string(way) + "), " +
         std::to_string(want[first]) + " expected";
}

void mandelbrot(benchmark::State& state, MathMode mode, Way way) {
  const std::size_t w = compute::mandelbrot_width, h = compute::mandelbrot_height;
  const double items = static_cast<double>(w * h);
  const double bytes = sizeof(std::int32_t) * items;  // the counts written
  std::vector<std::int32_t> image(w * h);
  switch (way) {
    case Way::spvjit: {
      Context* ctx = context(state);
      if (!ctx) return;
      Kernel kernel = ctx->jit.compile(mandelbrot_kernel(mode));
      Buffer<std::int32_t> out = ctx->runtime.zeros<std::int32_t>(w * h);
      measure(
          state, items, bytes,
          [&] {
            kernel.launch(NDRange{w, h}, out, compute::mandelbrot_x0, compute::mandelbrot_y0,
                          compute::mandelbrot_step, compute::mandelbrot_iterations);
          },
          [&] { ctx->runtime.synchronize(); });
      out.read(image);
      break;
    }
    case Way::openmp: {
      auto loop = mode == MathMode::exact ? openmp::exact::mandelbrot : openmp::fast::mandelbrot;
      measure(
          state, items, bytes,
          [&] {
            loop(image.data(), w, h, compute::mandelbrot_x0, compute::mandelbrot_y0,
                 compute::mandelbrot_step, compute::mandelbrot_iterations);
          },
          [] { benchmark::ClobberMemory(); });
      break;
    }
    case Way::opencl: {
      opencl::Mandelbrot kernel(mode);
      measure(
          state, items, bytes, [&] { kernel.run(); }, [] {});
      image = kernel.read();
      break;
    }
  }
  fail(state, mandelbrot_difference(way, mode, image));
}

}  // namespace

void register_compute() {
  constexpr MathMode modes[] = {MathMode::exact, MathMode::fast};
  constexpr std::pair<Way, const char*> ways[] = {
      {Way::spvjit, "spvjit"}, {Way::openmp, "openmp"}, {Way::opencl, "opencl"}};
  for (const char* type : {"Float32", "Float64"}) {
    const bool f64 = std::string(type) == "Float64";
    for (MathMode mode : modes) {
      for (const auto& [way, name] : ways) {
        add_case(
            std::string("apps/black_scholes/") + type + "/" + compute::to_string(mode) + "/" + name,
            [f64, mode, way = way](benchmark::State& s) {
              f64 ? black_scholes<double>(s, mode, way) : black_scholes<float>(s, mode, way);
            })
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  for (bool local : {false, true}) {
    for (MathMode mode : modes) {
      for (const auto& [way, name] : ways) {
        add_case(std::string("apps/nbody/") + (local ? "local/" : "global/") +
                     compute::to_string(mode) + "/" + name,
                 [local, mode, way = way](benchmark::State& s) { nbody(s, local, mode, way); })
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  for (MathMode mode : modes) {
    for (const auto& [way, name] : ways) {
      add_case(std::string("apps/mandelbrot/") + compute::to_string(mode) + "/" + name,
               [mode, way = way](benchmark::State& s) { mandelbrot(s, mode, way); })
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace spvjit::bench
