// Tiled matmul with local memory (spvjit::examples::tiled_matmul), timed against a naive C++
// triple loop and checked element by element.
//   matmul [n]    multiplies two n x n Float32 matrices (default 512)
#include <spvjit/examples.hpp>
#include <spvjit/spvjit.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Integers 0..7: every dot product stays exact in float, so the two results compare exactly.
std::vector<float> small_ints(std::size_t count, unsigned seed) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<float>((i * 7 + seed * 3 + i / 5) % 8);
  return v;
}

std::vector<float> naive(const std::vector<float>& a, const std::vector<float>& b, std::size_t n) {
  std::vector<float> c(n * n, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (std::size_t k = 0; k < n; ++k) acc += a[i * n + k] * b[k * n + j];
      c[i * n + j] = acc;
    }
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  const long requested = argc > 1 ? std::atol(argv[1]) : 512;
  if (requested < 1 || requested > 8192) {
    std::fprintf(stderr, "usage: matmul [n], n from 1 to 8192\n");
    return 2;
  }
  const auto n = static_cast<std::size_t>(requested);
  try {
    using namespace spvjit;
    const auto a = small_ints(n * n, 1), b = small_ints(n * n, 2);
    Runtime rt;
    Jit jit(rt);
    constexpr std::int64_t tile = 16;
    Kernel k = jit.compile(examples::tiled_matmul(tile), {.workgroup = WorkGroup{tile, tile}});
    auto A = rt.upload(a), B = rt.upload(b);
    auto C = rt.zeros<float>(n * n);
    const auto dim = static_cast<std::int64_t>(n);
    k.launch(NDRange{n, n}, C, A, B, dim, dim,
             dim);  // warm-up: PoCL builds the work-group function
    rt.synchronize();
    auto t0 = Clock::now();
    k.launch(NDRange{n, n}, C, A, B, dim, dim, dim);
    rt.synchronize();
    const double device_ms = ms_since(t0);
    t0 = Clock::now();
    const auto expected = naive(a, b, n);
    const double cpu_ms = ms_since(t0);
    const bool ok = C.to_vector() == expected;
    std::printf(
        "matmul %zux%zu Float32: spvjit tiled %.2f ms, naive C++ loop %.2f ms (%.2fx); %s\n", n, n,
        device_ms, cpu_ms, cpu_ms / device_ms, ok ? "results identical" : "RESULTS DIFFER");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "matmul: %s\n", e.what());
    return 1;
  }
}
