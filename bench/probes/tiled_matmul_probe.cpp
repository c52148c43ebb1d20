// Why KernelAbstractions' barrier-tiled matmul (examples::tiled_matmul) is slow on PoCL 6.0, and
// what changes it (issue #16; findings in docs/performance.md, "Barrier-tiled kernels on PoCL").
// Built as build/bench/spvjit_probe_tiled_matmul but run by no test and not by `make bench`: a
// probe, run by hand on a quiet machine.
//
//   g++ -std=c++20 -O2 bench/probes/tiled_matmul_probe.cpp -I include -I build/include
//       -L build -lspvjit -Wl,-rpath,$PWD/build -o /tmp/tiled_probe      (one line)
//   OCL_ICD_VENDORS=/opt/spvjit-pocl-6.0/etc/OpenCL/vendors /tmp/tiled_probe 512 1024
//   PROBE_ONLY=tiled,vec /tmp/tiled_probe 512      # only these variants
//
// Each line: the best of a few launches, wall time and the process's CPU time over it (CPU
// time is steadier than wall time on a shared machine), and whether C matches the first
// variant's (small integers: every order of summation gives the same bits).
//
// Variants, all C = A * B over n x n floats:
//   coarsened          examples::naive_matmul, coarsened by spvjit (the reference)
//   tiled              examples::tiled_matmul(16), WorkGroup{16, 16}
//   tiled_unchecked    the same, compiled without bounds checks
//   unrolled           tiled with the 16-step k loop unrolled by the builder
//   unrolled_unchecked the same without bounds checks
//   local_unchecked    tiled with inbounds() local tiles (global accesses still checked)
//   recalled_ids       tiled, asking get_local_id / get_global_id again after each barrier
//   vec                tiled by hand-coarsening: each work-item does 8 columns as Vec<float, 8>;
//                      WorkGroup{2, 16}, ndrange {n / 8, n} (what coarsening a barrier
//                      kernel would produce)
//   vec_in_group       the same vectors in a WorkGroup{16, 16}: work-items with tx % 8 == 0
//                      do 8 columns, the others only reach the barriers
// vec and vec_in_group assume n % 16 == 0.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <spvjit/spvjit.hpp>
#include <spvjit/examples.hpp>
#include <spvjit/builder.hpp>
#include <spvjit/index.hpp>
#include <spvjit/memory.hpp>
#include <spvjit/vector.hpp>

using namespace spvjit;

namespace {

constexpr std::int64_t tile = 16;

struct TiledOptions {
  bool unroll = false;       // the k loop as 16 statements
  bool local_checks = true;  // bounds checks on the local tiles
  bool recall_ids = false;   // get_local_id / get_global_id asked again after each barrier
};

// examples::tiled_matmul's kernel with one thing changed at a time.
KernelDef tiled_variant(const std::string& name, TiledOptions o) {
  KernelBuilder kb(name);
  kb.allow_padding();
  auto c = kb.param<Global<float>>("C");
  auto a = kb.param<Const<float>>("A");
  auto b = kb.param<Const<float>>("B");
  auto n = kb.param<std::int64_t>("n");
  auto p = kb.param<std::int64_t>("p");
  auto m = kb.param<std::int64_t>("m");
  auto A = view(a, n, p);
  auto B = view(b, p, m);
  auto C = view(c, n, m);
  auto As = local_array<float>(kb, {tile, tile}, "As");
  auto Bs = local_array<float>(kb, {tile, tile}, "Bs");
  if (!o.local_checks) {
    As = inbounds(As);
    Bs = inbounds(Bs);
  }
  const auto local0 = local_indices<2>(kb);
  const auto global0 = global_indices<2>(kb);
  auto ids = [&](bool again) {
    return std::pair{again ? local_indices<2>(kb) : local0,
                     again ? global_indices<2>(kb) : global0};
  };
  auto acc = kb.var(0.0f);
  auto tiles = (p + (tile - 1)) / tile;
  kb.for_(kb.lit<std::int64_t>(0), tiles, kb.lit<std::int64_t>(1), [&](Val<std::int64_t> t) {
    {
      const auto [local, global] = ids(o.recall_ids);
      const Val<std::int64_t> tx = local[0], ty = local[1], col = global[0], row = global[1];
      auto ak = t * tile + tx;
      auto bk = t * tile + ty;
      auto av = kb.var(0.0f), bv = kb.var(0.0f);
      kb.if_(row < n && ak < p, [&] { av = A(row, ak); });
      kb.if_(bk < p && col < m, [&] { bv = B(bk, col); });
      As(ty, tx) = av.get();
      Bs(ty, tx) = bv.get();
    }
    barrier(kb, Fence::Local);
    {
      const auto [local, global] = ids(o.recall_ids);
      const Val<std::int64_t> tx = local[0], ty = local[1];
      if (o.unroll) {
        for (std::int64_t k = 0; k < tile; ++k) acc += As(ty, kb.lit(k)) * Bs(kb.lit(k), tx);
      } else {
        kb.for_(kb.lit<std::int64_t>(0), kb.lit(tile), kb.lit<std::int64_t>(1),
                [&](Val<std::int64_t> k) { acc += As(ty, k) * Bs(k, tx); });
      }
    }
    barrier(kb, Fence::Local);
  });
  const auto [local, global] = ids(o.recall_ids);
  const Val<std::int64_t> col = global[0], row = global[1];
  kb.if_(row < n && col < m, [&] { C(row, col) = acc.get(); });
  return kb.finish();
}

// Each work-item computes 8 consecutive columns of the 16 x 16 tile as one Vec<float, 8>.
KernelDef tiled_vectors(bool in_group) {
  constexpr std::int64_t W = 8;
  KernelBuilder kb(in_group ? "tiled_vec_in_group" : "tiled_vec");
  kb.allow_padding();
  auto c = kb.param<Global<float>>("C");
  auto a = kb.param<Const<float>>("A");
  auto b = kb.param<Const<float>>("B");
  kb.param<std::int64_t>("n");
  auto p = kb.param<std::int64_t>("p");
  auto m = kb.param<std::int64_t>("m");
  auto As = local_array<float>(kb, {tile * tile}, "As");
  auto Bs = local_array<float>(kb, {tile * tile}, "Bs");
  auto acc = vec_var(kb, Vec<float, 8>::splat(kb.lit(0.0f)));
  // fn(first local column, first global column) for the work-items that compute.
  auto computing = [&](auto fn) {
    if (in_group) {
      auto tx = kb.local_index(0);
      kb.if_(tx % W == 0, [&] { fn(tx, kb.global_index(0)); });
    } else {
      fn(kb.local_index(0) * W, kb.global_index(0) * W);
    }
  };
  kb.for_(kb.lit<std::int64_t>(0), p / tile, kb.lit<std::int64_t>(1), [&](Val<std::int64_t> t) {
    computing([&](Val<std::int64_t> tx, Val<std::int64_t> col) {
      auto ty = kb.local_index(1);
      auto row = kb.global_index(1);
      vstore(As.data(), ty * tile + tx, vload<8>(a, row * p + t * tile + tx));
      vstore(Bs.data(), ty * tile + tx, vload<8>(b, (t * tile + ty) * m + col));
    });
    barrier(kb, Fence::Local);
    computing([&](Val<std::int64_t> tx, Val<std::int64_t>) {
      auto ty = kb.local_index(1);
      kb.for_(
          kb.lit<std::int64_t>(0), kb.lit(tile), kb.lit<std::int64_t>(1), [&](Val<std::int64_t> k) {
            acc +=
                Vec<float, 8>::splat(As.data()[ty * tile + k]) * vload<8>(Bs.data(), k * tile + tx);
          });
    });
    barrier(kb, Fence::Local);
  });
  computing([&](Val<std::int64_t>, Val<std::int64_t> col) {
    vstore(c, kb.global_index(1) * m + col, acc.get());
  });
  return kb.finish();
}

double cpu_ms() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e3 +
         static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e3;
}

struct Timing {
  double wall_ms = 1e300, cpu_ms = 1e300;
  std::vector<float> c;
};

Timing time_launches(Runtime& rt, Kernel& kernel, std::size_t n, std::size_t columns_per_item) {
  std::vector<float> a(n * n), b(n * n);
  for (std::size_t i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
    b[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
  }
  auto A = rt.upload(a);
  auto B = rt.upload(b);
  auto C = rt.zeros<float>(n * n);
  const auto size = static_cast<std::int64_t>(n);
  const NDRange nd{n / columns_per_item, n};
  kernel.launch(nd, C, A, B, size, size, size);
  rt.synchronize();
  Timing t;
  for (int rep = 0, reps = n >= 1024 ? 3 : 10; rep < reps; ++rep) {
    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_ms();
    kernel.launch(nd, C, A, B, size, size, size);
    rt.synchronize();
    t.cpu_ms = std::min(t.cpu_ms, cpu_ms() - cpu0);
    t.wall_ms =
        std::min(t.wall_ms,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0)
                     .count());
  }
  t.c = C.to_vector();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  Runtime rt;
  JitOptions unchecked_options;
  unchecked_options.bounds_checks = false;
  Jit checked(rt), unchecked(rt, unchecked_options);
  Specialization group16;
  group16.workgroup = WorkGroup{16, 16};
  Specialization group2;
  group2.workgroup = WorkGroup{2, 16};
  struct Variant {
    const char* name;
    Jit* jit;
    KernelDef def;
    Specialization spec;
    std::size_t columns_per_item;
  };
  const Variant variants[] = {
      {"coarsened", &checked, examples::naive_matmul(), {}, 1},
      {"tiled", &checked, examples::tiled_matmul(tile), group16, 1},
      {"tiled_unchecked", &unchecked, examples::tiled_matmul(tile), group16, 1},
      {"unrolled", &checked, tiled_variant("unrolled", {.unroll = true}), group16, 1},
      {"unrolled_unchecked", &unchecked, tiled_variant("unrolled", {.unroll = true}), group16, 1},
      {"local_unchecked", &checked, tiled_variant("local_unchecked", {.local_checks = false}),
       group16, 1},
      {"recalled_ids", &checked, tiled_variant("recalled_ids", {.recall_ids = true}), group16, 1},
      {"vec", &checked, tiled_vectors(false), group2, 8},
      {"vec_in_group", &checked, tiled_vectors(true), group16, 1},
  };
  const char* only = std::getenv("PROBE_ONLY");
  for (int arg = 1; arg < argc; ++arg) {
    const std::size_t n = std::strtoul(argv[arg], nullptr, 10);
    std::vector<float> first;
    for (const auto& v : variants) {
      if (only && ("," + std::string(only) + ",").find("," + std::string(v.name) + ",") ==
                      std::string::npos) {
        continue;
      }
      Kernel kernel = v.jit->compile(v.def, v.spec);
      const Timing t = time_launches(rt, kernel, n, v.columns_per_item);
      if (first.empty()) first = t.c;
      std::printf("%5zu %-19s %9.2f ms wall %9.2f ms cpu %7.2f GFLOP/s%s\n", n, v.name, t.wall_ms,
                  t.cpu_ms, 2.0 * static_cast<double>(n * n * n) / t.wall_ms / 1e6,
                  t.c == first ? "" : "  WRONG RESULT");
      std::fflush(stdout);
    }
  }
}
