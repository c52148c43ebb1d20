// Kernel churn: a long-running host that specializes kernels as it goes (issue #71). One
// process, one Jit, `kernels` distinct small kernels (a fill with its own constant; names reused
// every 100), each compiled, launched once, checked and dropped. Prints resident memory at each
// tenth and passes when, past the in-memory cache's budget, memory stays flat: the last half of
// the kernels adds at most 50 KB each (docs/runtime.md, "The kernel cache").
//
//   spvjit_kernel_churn [kernels (default 3000)] [budget bytes (default: JitOptions')]
//
// The disk cache is off: every kernel is a compile, as for a host whose kernels are all new.
// Set POCL_CACHE_DIR to an empty folder to measure PoCL's compiles too (~0.25 s a kernel).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "spvjit/spvjit.hpp"
#include "test/resident_memory.hpp"

using namespace spvjit;
using spvjit::test::rss_kib;

namespace {

KernelDef fill(int constant) {
  KernelBuilder kb("fill_" + std::to_string(constant % 100));
  auto z = kb.param<Global<float>>("Z");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[i] = static_cast<float>(constant) + 0.5f; });
  return kb.finish();
}

}  // namespace

int main(int argc, char** argv) {
  const int kernels = argc > 1 ? std::atoi(argv[1]) : 3000;
  if (kernels < 20) {
    std::fprintf(stderr, "kernel_churn: at least 20 kernels\n");
    return 2;
  }
  try {
    Runtime rt;
    JitOptions options;
    options.disk_cache = false;
    if (argc > 2) options.memory_cache_bytes = std::strtoull(argv[2], nullptr, 10);
    Jit jit(rt, options);
    auto Z = rt.zeros<float>(256);
    long half_rss = 0;
    for (int c = 1; c <= kernels; ++c) {
      {
        Kernel k = jit.compile(fill(c));
        k.launch(NDRange{256}, Z);
        if (Z.to_vector()[255] != static_cast<float>(c) + 0.5f) {
          std::fprintf(stderr, "kernel_churn: kernel %d gave a wrong result\n", c);
          return 1;
        }
      }
      if (c % (kernels / 10) == 0 || c == kernels / 2) {
        const JitStats s = jit.stats();
        std::printf(
            "%6d kernels: RSS %7ld KiB, cache holds %llu kernels, %llu KiB (estimated), "
            "%llu evicted\n",
            c, rss_kib(), static_cast<unsigned long long>(s.memory_kernels),
            static_cast<unsigned long long>(s.memory_bytes / 1024),
            static_cast<unsigned long long>(s.evictions));
        std::fflush(stdout);
        if (c == kernels / 2) half_rss = rss_kib();
      }
    }
    const double per_kernel =
        1024.0 * static_cast<double>(rss_kib() - half_rss) / (kernels - kernels / 2);
    std::printf("kernel_churn: the last %d kernels added %.0f bytes each\n", kernels - kernels / 2,
                per_kernel);
    return per_kernel <= 50 * 1024 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kernel_churn: %s\n", e.what());
    return 2;
  }
}
