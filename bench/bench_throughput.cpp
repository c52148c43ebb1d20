// throughput/saxpy/<T>/<N>/{scalar,coarsened,coarsened_unchecked,vector,openmp}: the saxpy
// kernel without and with SIMD coarsening (jit/coarsen/coarsen.hpp), coarsened with its bounds
// checks compiled out (JitOptions::bounds_checks = false: what the checks cost), saxpy written with
// Vec<T, W> by hand (W = the coarsening's width), and the OpenMP loop; launch + synchronize
// per iteration.
// throughput/matmul/Float32/<N>/{cpp_naive,openmp_tiled,scalar,coarsened,coarsened_unchecked,
// tiled,performant}:
// C = A * B (N x N) as the naive C++ triple loop, the OpenMP loop tiled as the tiled kernel is
// (bench/openmp_matmul.hpp), the one-output-per-work-item kernel without and with coarsening (and
// coarsened without bounds checks), the 16 x 16 tiled kernel, and the
// register-blocked examples::performant_matmul (shared Jit, bounds checks on; its two packing
// launches are inside each iteration). Each case reports `wall_us` (wall time per iteration)
// besides bytes_per_second (saxpy) or flops (matmul, 2 N^3 per product, over wall time).
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "spvjit/examples.hpp"
#include "bench/matmul_inputs.hpp"
#include "bench/naive_matmul.hpp"
#include "bench/openmp_matmul.hpp"
#include "bench/openmp_saxpy.hpp"
#include "bench/saxpy_sizes.hpp"
#include "bench/suite.hpp"
#include "bench/wall_rate.hpp"

namespace spvjit::bench {

// The tiled matmul's tile: 16 x 16 work-items per group, as in README.md.
constexpr std::size_t matmul_tile = 16;

namespace {

constexpr std::size_t throughput_sizes[] = {4096, 65536, 262144, 1048576};

// Jits beside the shared one (which coarsens and checks bounds): one with coarsening off, for
// the scalar kernels, and one with bounds checks compiled out, for what the checks cost.
enum class SideJit { Scalar, Unchecked };
Jit& side_jit(Context& ctx, SideJit which) {
  static std::unique_ptr<Jit> jits[2];
  auto& jit = jits[static_cast<int>(which)];
  if (!jit) {
    JitOptions options;
    (which == SideJit::Scalar ? options.coarsen : options.bounds_checks) = false;
    jit = std::make_unique<Jit>(ctx.runtime, options);
  }
  return *jit;
}

enum class Variant { Scalar, Coarsened, CoarsenedUnchecked, Vector, OpenMP };

// The hand-written vector kernel's lanes: what the coarsening picks on PoCL here.
template <class T>
constexpr unsigned vector_lanes = sizeof(T) == 8 ? 8 : 16;

template <class T>
void saxpy(benchmark::State& state, Variant variant, std::size_t n) {
  using A = arithmetic_t<T>;
  Context* ctx = context(state);
  if (!ctx) return;
  std::vector<T> x(n), y(n), z(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = from_double<T>(saxpy_x(i));
    y[i] = from_double<T>(saxpy_y(i));
  }
  const A a = static_cast<A>(saxpy_a);
  if (variant == Variant::OpenMP) {
    openmp::saxpy(z.data(), x.data(), y.data(), a, n);  // starts the thread pool, untimed
    WallRate rate;
    for (auto _ : state) {
      openmp::saxpy(z.data(), x.data(), y.data(), a, n);
      benchmark::ClobberMemory();
    }
    rate.report(state, "bytes_per_second", saxpy_bytes<T>(n));
  } else {
    auto X = ctx->runtime.upload(x);
    auto Y = ctx->runtime.upload(y);
    auto Z = ctx->runtime.zeros<T>(n);
    Kernel kernel;
    std::function<void()> launch;
    if (variant == Variant::Vector) {
      static const KernelDef def = examples::saxpy_vector(scalar_of<T>, vector_lanes<T>);
      kernel = side_jit(*ctx, SideJit::Scalar).compile(def);
      const NDRange ndrange{(n + vector_lanes<T> - 1) / vector_lanes<T>};
      const auto count = static_cast<std::int64_t>(n);
      launch = [&, ndrange, count] { kernel.launch(ndrange, Z, X, Y, a, count); };
    } else {
      Jit& jit = variant == Variant::Scalar               ? side_jit(*ctx, SideJit::Scalar)
                 : variant == Variant::CoarsenedUnchecked ? side_jit(*ctx, SideJit::Unchecked)
                                                          : ctx->jit;
      kernel = jit.compile(saxpy_kernel(scalar_of<T>));
      const NDRange ndrange{n};
      launch = [&, ndrange] { kernel.launch(ndrange, Z, X, Y, a); };
    }
    launch();  // the first launch, out of the measurement
    ctx->runtime.synchronize();
    WallRate rate;
    for (auto _ : state) {
      launch();
      ctx->runtime.synchronize();
    }
    rate.report(state, "bytes_per_second", saxpy_bytes<T>(n));
    z = Z.to_vector();
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (to_double(z[i]) != saxpy_a * saxpy_x(i) + saxpy_y(i)) {
      state.SkipWithError(("saxpy computed a wrong result at index " + std::to_string(i)).c_str());
      return;
    }
  }
}

enum class Matmul {
  CppNaive,
  OpenMPTiled,
  Scalar,
  Coarsened,
  CoarsenedUnchecked,
  Tiled,
  Performant
};

const KernelDef& naive_kernel() {
  static const KernelDef def = examples::naive_matmul();
  return def;
}
const KernelDef& tiled_kernel() {
  static const KernelDef def = examples::tiled_matmul(static_cast<std::int64_t>(matmul_tile));
  return def;
}

// examples::performant_matmul: pack A, pack B, multiply, every product (packing is O(N^2)).
std::function<void()> performant_launch(Jit& jit, Runtime& rt, Buffer<float>& C, Buffer<float>& A,
                                        Buffer<float>& B, std::size_t n) {
  static const KernelDef defs[] = {examples::performant_matmul_pack_a(),
                                   examples::performant_matmul_pack_b(),
                                   examples::performant_matmul()};
  Kernel pack_a = jit.compile(defs[0]), pack_b = jit.compile(defs[1]),
         product = jit.compile(defs[2]);
  auto Ap = std::make_shared<Buffer<float>>(
      rt.zeros<float>(examples::performant_matmul_packed_a_size(n, n)));
  auto Bp = std::make_shared<Buffer<float>>(
      rt.zeros<float>(examples::performant_matmul_packed_b_size(n, n)));
  const auto size = static_cast<std::int64_t>(n);
  return [=, &C, &A, &B]() mutable {
    pack_a.launch(examples::performant_matmul_pack_a_range(n, n), *Ap, A, size, size);
    pack_b.launch(examples::performant_matmul_pack_b_range(n, n), *Bp, B, size, size);
    product.launch(examples::performant_matmul_range(n, n), C, *Ap, *Bp, size, size, size);
  };
}

void matmul(benchmark::State& state, Matmul variant, std::size_t n) {
  Context* ctx = context(state);
  if (!ctx) return;
  // Small integers: every sum is exact in f32, so all variants must agree bit for bit.
  MatmulInputs in(n);
  const std::vector<float>& a = in.a;
  const std::vector<float>& b = in.b;
  std::vector<float> c(n * n);
  const double flops = matmul_flops(n);
  if (variant == Matmul::CppNaive) {
    WallRate rate;
    for (auto _ : state) {
      naive::matmul(c.data(), a.data(), b.data(), n, n, n);
      benchmark::ClobberMemory();
    }
    rate.report(state, "flops", flops);
  } else if (variant == Matmul::OpenMPTiled) {
    WallRate rate;
    for (auto _ : state) {
      openmp::tiled_matmul(c.data(), a.data(), b.data(), n, n, n, matmul_tile);
      benchmark::ClobberMemory();
    }
    rate.report(state, "flops", flops);
  } else {
    const bool tiled = variant == Matmul::Tiled;
    Specialization spec;
    if (tiled) spec.workgroup = WorkGroup{matmul_tile, matmul_tile};
    Jit& jit = variant == Matmul::Scalar               ? side_jit(*ctx, SideJit::Scalar)
               : variant == Matmul::CoarsenedUnchecked ? side_jit(*ctx, SideJit::Unchecked)
                                                       : ctx->jit;
    auto A = ctx->runtime.upload(a);
    auto B = ctx->runtime.upload(b);
    auto C = ctx->runtime.zeros<float>(n * n);
    std::function<void()> launch;
    if (variant == Matmul::Performant) {
      launch = performant_launch(jit, ctx->runtime, C, A, B, n);
    } else {
      Kernel kernel = jit.compile(tiled ? tiled_kernel() : naive_kernel(), spec);
      const auto size = static_cast<std::int64_t>(n);
      launch = [=, &C, &A, &B]() mutable {
        kernel.launch(NDRange{n, n}, C, A, B, size, size, size);
      };
    }
    launch();
    ctx->runtime.synchronize();
    WallRate rate;
    for (auto _ : state) {
      launch();
      ctx->runtime.synchronize();
    }
    rate.report(state, "flops", flops);
    c = C.to_vector();
  }
  if (c != in.expected()) state.SkipWithError("matmul computed a wrong result");
}

template <class T>
void register_saxpy_type() {
  const std::pair<Variant, const char*> variants[] = {
      {Variant::Scalar, "scalar"},
      {Variant::Coarsened, "coarsened"},
      {Variant::CoarsenedUnchecked, "coarsened_unchecked"},
      {Variant::Vector, "vector"},
      {Variant::OpenMP, "openmp"}};
  for (std::size_t n : throughput_sizes) {
    for (auto [variant, label] : variants) {
      const std::string name = std::string("throughput/saxpy/") + julia_name<T>() + "/" +
                               std::to_string(n) + "/" + label;
      add_case(name, [variant, n](benchmark::State& s) {
        saxpy<T>(s, variant, n);
      })->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace

void register_throughput() {
  register_saxpy_type<half>();
  register_saxpy_type<float>();
  register_saxpy_type<double>();
  const std::pair<Matmul, const char*> variants[] = {
      {Matmul::CppNaive, "cpp_naive"},
      {Matmul::OpenMPTiled, "openmp_tiled"},
      {Matmul::Scalar, "scalar"},
      {Matmul::Coarsened, "coarsened"},
      {Matmul::CoarsenedUnchecked, "coarsened_unchecked"},
      {Matmul::Tiled, "tiled"},
      {Matmul::Performant, "performant"}};
  for (std::size_t n : sgemm_sizes) {
    for (auto [variant, label] : variants) {
      const std::string name = "throughput/matmul/Float32/" + std::to_string(n) + "/" + label;
      add_case(name, [variant, n](benchmark::State& s) {
        matmul(s, variant, n);
      })->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace spvjit::bench
