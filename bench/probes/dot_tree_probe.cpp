// What issue #66's step 2 would gain on KA's dot (examples::stream_dot), measured before building
// it (findings in docs/performance.md, "Reductions at loop speed"): the kernel as KA writes it
// against the same reduction written by hand the way the step would lower it, every variant
// giving the same bits (the same additions in the same order):
//   ka          examples::stream_dot: each work-item's product into tmp[li]; then levels
//               s = G/2 .. 1, tmp[li] += tmp[li + s]
//   fused       the first level folded into the first region: work-items li < G/2 store
//               a[i] * b[i] + a[i + G/2] * b[i + G/2], the others nothing; levels from G/4
//   fused_regs  fused, and the last three levels (s = 4, 2, 1: 8 doubles, one AVX-512 vector) as
//               one work-item's additions in registers, in the tree's order
// Built as build/bench/spvjit_probe_dot_tree, run by no test and not by `make bench`:
//
//   build/bench/spvjit_probe_dot_tree 18 200      # log2 of n, launches per variant
//
// Each launch: the group's partial sums, read back, summed on the host (as apps/stream/dot does);
// medians of the interleaved launches, and whether every variant's partial sums equal ka's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"

using namespace spvjit;

namespace {

constexpr std::int64_t group = 1024;

enum class Variant { ka, fused, fused_regs };

// KA's dot is examples::stream_dot itself; the others written out as step 2 would lower it.
KernelDef dot(Variant v) {
  if (v == Variant::ka) return examples::stream_dot(group);
  KernelBuilder kb(v == Variant::fused ? "dot_fused" : "dot_fused_regs");
  auto partial = kb.param<Global<double>>("partial");
  auto a = kb.param<Const<double>>("a");
  auto b = kb.param<Const<double>>("b");
  auto li = kb.local_index();
  auto gi = kb.group_index();
  auto i = kb.global_index();
  auto tmp = local_array<double>(kb, {group}, "tmp");
  kb.if_(li < group / 2, [&] { tmp(li) = a[i] * b[i] + a[i + group / 2] * b[i + group / 2]; });
  barrier(kb, Fence::Local);
  const std::int64_t last = v == Variant::fused_regs ? 8 : 1;
  auto s = kb.var(kb.lit(group / 4));
  kb.while_([&] { return s >= last; },
            [&] {
              kb.if_(li < s, [&] { tmp(li) += tmp(li + s); });
              barrier(kb, Fence::Local);
              s /= 2;
            });
  kb.if_(li == 0, [&] {
    if (v == Variant::fused_regs) {
      // Levels 4, 2, 1 of the tree: t[l] + t[l + 4], then + [l + 2], then + [l + 1].
      Val<double> t[8] = {tmp(0), tmp(1), tmp(2), tmp(3), tmp(4), tmp(5), tmp(6), tmp(7)};
      for (int l = 0; l < 4; ++l) t[l] = t[l] + t[l + 4];
      for (int l = 0; l < 2; ++l) t[l] = t[l] + t[l + 2];
      partial[gi] = t[0] + t[1];
    } else {
      partial[gi] = tmp(0);
    }
  });
  return kb.finish();
}

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s LOG2_N LAUNCHES\n", argv[0]);
    return 2;
  }
  const int log2_n = std::atoi(argv[1]), launches = std::atoi(argv[2]);
  if (log2_n < 11 || log2_n > 28 || launches < 1) {
    std::fprintf(stderr, "expected LOG2_N in 11..28 and LAUNCHES >= 1\n");
    return 2;
  }
  const std::size_t n = std::size_t{1} << log2_n, groups = n / group;
  RuntimeOptions options;
  options.dispatch = Dispatch::Adaptive;
  Runtime rt(options);
  Jit jit(rt);
  Specialization spec;
  spec.workgroup = WorkGroup{static_cast<std::size_t>(group)};
  const Variant variants[] = {Variant::ka, Variant::fused, Variant::fused_regs};
  const char* names[] = {"ka", "fused", "fused_regs"};
  std::vector<Kernel> kernels;
  for (Variant v : variants) kernels.push_back(jit.compile(dot(v), spec));
  std::vector<double> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = 1.0 + static_cast<double>(i % 16) / 16.0 + 1.0 / static_cast<double>(i + 3);
    b[i] = static_cast<double>(i % 7) / 8.0 - 1.0 / static_cast<double>(i + 5);
  }
  Buffer<double> A = rt.upload(a), B = rt.upload(b);
  Buffer<double> partial = rt.zeros<double>(groups);
  std::vector<double> host(groups);
  std::vector<std::vector<double>> bits(3), times(3);
  auto launch = [&](std::size_t k) {
    kernels[k].launch(NDRange{n}, partial, A, B);
    partial.read(std::span<double>(host));
    double sum = 0.0;
    for (double p : host) sum += p;
    return sum;
  };
  for (std::size_t k = 0; k < 3; ++k) {
    launch(k);
    bits[k] = host;
  }
  double sink = 0.0;
  for (int r = 0; r < launches; ++r) {
    for (std::size_t k = 0; k < 3; ++k) {
      const auto t0 = Clock::now();
      sink += launch(k);
      times[k].push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
  }
  const double base = median(times[0]);
  for (std::size_t k = 0; k < 3; ++k) {
    std::printf("dot 2^%d %-10s %9.1f us (median of %d), ka / this %.2f, partial sums %s\n", log2_n,
                names[k], median(times[k]), launches, base / median(times[k]),
                bits[k] == bits[0] ? "equal to ka's" : "DIFFER from ka's");
  }
  return sink == 0.1234 ? 1 : 0;  // keeps the sums
}
