// STREAM's copy, scale, add and triad with spvjit's step and OpenMP's loop interleaved in one
// process (issue #64, item 4; findings in docs/performance.md, "STREAM at 2^25"): `make bench`
// runs each side in a case of its own, seconds apart, and this VM's memory bandwidth drifts by
// 20-40 % between them; interleaved, both sides meet the same drift. Built as
// build/bench/spvjit_probe_stream_interleaved, run by no test and not by `make bench`:
//
//   build/bench/spvjit_probe_stream_interleaved copy 25 30     # kernel, log2 of n, steps
//   OMP_WAIT_POLICY=passive build/bench/spvjit_probe_stream_interleaved triad 25 30
//
// Each step of either side is timed alone (spvjit's with its synchronize); the line gives both
// medians, OpenMP's over spvjit's, and the best of each. With libgomp's default wait policy its
// idle workers spin for milliseconds after each loop, on the core spvjit's next launch needs:
// that is the run with OpenMP's loop right before every launch; OMP_WAIT_POLICY=passive is the
// run without it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/openmp_stream.hpp"
#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"

using namespace spvjit;

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double ms(F step) {
  const auto t0 = Clock::now();
  step();
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s copy|scale|add|triad LOG2_N STEPS\n", argv[0]);
    return 2;
  }
  const std::string kernel = argv[1];
  const int log2_n = std::atoi(argv[2]), steps = std::atoi(argv[3]);
  if (log2_n < 10 || log2_n > 28 || steps < 1 ||
      (kernel != "copy" && kernel != "scale" && kernel != "add" && kernel != "triad")) {
    std::fprintf(stderr, "expected copy, scale, add or triad, LOG2_N in 10..28, STEPS >= 1\n");
    return 2;
  }
  const std::size_t n = std::size_t{1} << log2_n;
  const double s = 3.0;
  RuntimeOptions options;
  options.dispatch = Dispatch::Adaptive;
  Runtime rt(options);
  Jit jit(rt);
  const KernelDef def = kernel == "copy"    ? examples::stream_copy()
                        : kernel == "scale" ? examples::stream_scale()
                        : kernel == "add"   ? examples::stream_add()
                                            : examples::stream_triad();
  Kernel k = jit.compile(def);
  std::vector<double> a(n, 1.0), b(n, 2.0), c(n, 0.5);
  Buffer<double> A = rt.upload(a), B = rt.upload(b), C = rt.upload(c);
  auto openmp_step = [&] {
    if (kernel == "copy") bench::openmp::stream_copy(c.data(), a.data(), n);
    if (kernel == "scale") bench::openmp::stream_scale(b.data(), c.data(), s, n);
    if (kernel == "add") bench::openmp::stream_add(c.data(), a.data(), b.data(), n);
    if (kernel == "triad") bench::openmp::stream_triad(a.data(), b.data(), c.data(), s, n);
  };
  auto spvjit_step = [&] {
    if (kernel == "copy") k.launch(NDRange{n}, C, A);
    if (kernel == "scale") k.launch(NDRange{n}, B, C, s);
    if (kernel == "add") k.launch(NDRange{n}, C, A, B);
    if (kernel == "triad") k.launch(NDRange{n}, A, B, C, s);
    rt.synchronize();
  };
  openmp_step();  // the thread pool started, the kernel's first launch: out of the figures
  spvjit_step();
  std::vector<double> openmp_ms, spvjit_ms;
  for (int i = 0; i < steps; ++i) {
    openmp_ms.push_back(ms(openmp_step));
    spvjit_ms.push_back(ms(spvjit_step));
  }
  const double o = median(openmp_ms), v = median(spvjit_ms);
  std::printf(
      "%s 2^%d: OpenMP %.3f ms, spvjit %.3f ms (medians of %d), OpenMP / spvjit %.2f; best %.3f / "
      "%.3f ms\n",
      kernel.c_str(), log2_n, o, v, steps, o / v,
      *std::min_element(openmp_ms.begin(), openmp_ms.end()),
      *std::min_element(spvjit_ms.begin(), spvjit_ms.end()));
}
