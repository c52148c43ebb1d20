// Soak test: many warm launches of saxpy in one process. Passes when resident memory after the
// first `warmup` launches grows by less than 1 % by the end, and every result checked along the
// way is exact. Prints the figures docs/reliability.md's guarantees section quotes.
//
//   spvjit_soak [launches (default 1000000)] [warmup (default 10000)]
//
// The queue is drained every `batch` launches: an in-order queue holding 10^6 pending commands
// would measure PoCL's queue, not a leak. `a` changes on every launch so each one re-sets an
// argument (the memo in the launch path cannot skip it) and a stale result would show.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"
#include "test/resident_memory.hpp"

using namespace spvjit;
using spvjit::test::rss_kib;

namespace {

constexpr std::size_t elements = 256;
constexpr std::size_t batch = 1000;

float scale_for(std::size_t launch) { return static_cast<float>(launch % 7 + 1); }

// Exact: small integers times small integers stay exact in float.
bool exact(const Buffer<float>& z, const std::vector<float>& x, const std::vector<float>& y,
           float a, std::size_t launch) {
  const auto got = z.to_vector();
  for (std::size_t i = 0; i < elements; ++i) {
    if (got[i] != a * x[i] + y[i]) {
      std::fprintf(stderr, "soak: launch %zu: Z[%zu] = %g, expected %g\n", launch, i,
                   static_cast<double>(got[i]), static_cast<double>(a * x[i] + y[i]));
      return false;
    }
  }
  return true;
}

std::size_t arg_or(int argc, char** argv, int index, std::size_t fallback) {
  return argc > index ? static_cast<std::size_t>(std::strtoull(argv[index], nullptr, 10))
                      : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t launches = arg_or(argc, argv, 1, 1000000);
  const std::size_t warmup = arg_or(argc, argv, 2, 10000);
  if (warmup == 0 || warmup >= launches || warmup % batch != 0) {
    std::fprintf(stderr, "soak: need 0 < warmup < launches, warmup a multiple of %zu\n", batch);
    return 2;
  }
  try {
    Runtime rt;
    Jit jit(rt);
    Kernel k = jit.compile(examples::saxpy(Scalar::F32));
    std::vector<float> x(elements), y(elements);
    for (std::size_t i = 0; i < elements; ++i) {
      x[i] = static_cast<float>(i % 29);
      y[i] = static_cast<float>(i % 13);
    }
    auto X = rt.upload(x);
    auto Y = rt.upload(y);
    auto Z = rt.zeros<float>(elements);

    long base_rss = 0;
    long peak_rss = 0;
    std::size_t checks = 0;
    const auto start = std::chrono::steady_clock::now();
    auto warm_start = start;
    for (std::size_t n = 1; n <= launches; ++n) {
      k.launch(NDRange{elements}, Z, X, Y, scale_for(n));
      if (n % batch != 0 && n != launches) continue;
      rt.synchronize();
      if (n % (10 * batch) == 0 || n == launches) {
        if (!exact(Z, x, y, scale_for(n), n)) return 1;
        ++checks;
        const long rss = rss_kib();
        if (n == warmup) {
          base_rss = rss;
          warm_start = std::chrono::steady_clock::now();
        }
        if (n > warmup && rss > peak_rss) peak_rss = rss;
      }
    }
    const auto end = std::chrono::steady_clock::now();
    const long end_rss = rss_kib();
    const double growth =
        100.0 * static_cast<double>(end_rss - base_rss) / static_cast<double>(base_rss);
    const double seconds = std::chrono::duration<double>(end - start).count();
    const double warm_seconds = std::chrono::duration<double>(end - warm_start).count();
    std::printf("soak: %zu launches of %s in %.1f s (%.1f us per launch, synchronized every %zu)\n",
                launches, k.name().c_str(), seconds,
                1e6 * warm_seconds / static_cast<double>(launches - warmup), batch);
    std::printf("soak: device %s\n", rt.device().summary().c_str());
    std::printf(
        "soak: RSS after %zu launches %ld KiB, peak after %ld KiB, at the end %ld KiB: "
        "growth %+.3f %% (limit 1 %%)\n",
        warmup, base_rss, peak_rss, end_rss, growth);
    std::printf("soak: %zu result checks, all exact\n", checks);
    if (growth >= 1.0) {
      std::fprintf(stderr, "soak: FAILED: resident memory grew by %.3f %%\n", growth);
      return 1;
    }
    std::printf("soak: PASSED\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "soak: FAILED: %s\n", e.what());
    return 1;
  }
}
