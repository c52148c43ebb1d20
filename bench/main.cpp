// spvjit_bench: KernelAbstractions' benchmark suite (PR #768) reproduced on spvjit, plus
// spvjit's own cases and baselines. Google Benchmark's flags, and two of its own:
//   --spvjit_group=all|in_process|fresh_process   which cases to register (default all). The
//       fresh-process cases start a child per iteration; run_suite.sh runs them apart with a
//       tiny min_time so that each repetition is exactly one process.
//   --spvjit-child=<mode>   be one of those child processes (bench_process.cpp).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "bench/child_process.hpp"
#include "bench/suite.hpp"

namespace {

// Removes `--spvjit_group=<value>` from argv (Google Benchmark rejects flags it does not know)
// and returns the value.
std::string take_group(int& argc, char** argv) {
  constexpr std::string_view flag = "--spvjit_group=";
  std::string group = "all";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg.starts_with(flag)) {
      group = std::string(arg.substr(flag.size()));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  argv[argc] = nullptr;
  return group;
}

}  // namespace

int main(int argc, char** argv) {
  constexpr std::string_view child_flag = "--spvjit-child=";
  if (argc == 2 && std::string_view(argv[1]).starts_with(child_flag)) {
    return spvjit::bench::child_main(
        std::string(std::string_view(argv[1]).substr(child_flag.size())));
  }
  // PoCL reads POCL_DEVICES once, at its first use: name both devices before any OpenCL call,
  // for the adaptive Runtime and for the raw OpenCL baseline, which takes the first SPIR-V
  // device (basic) and so runs the 16-item launches where spvjit routes them.
  if (!std::getenv("SPVJIT_BENCH_DISPATCH") ||
      std::string_view(std::getenv("SPVJIT_BENCH_DISPATCH")) != "single") {
    ::setenv("POCL_DEVICES", "basic pthread", 0);
  }
  const std::string group = take_group(argc, argv);
  if (group != "all" && group != "in_process" && group != "fresh_process") {
    std::fprintf(stderr,
                 "spvjit_bench: --spvjit_group=%s; expected all, in_process or fresh_process\n",
                 group.c_str());
    return 1;
  }
  // Registered here, in the order the table shows, rather than by static initializers whose
  // order across files is unspecified.
  if (group != "fresh_process") {
    spvjit::bench::register_launch();
    spvjit::bench::register_raw_opencl();
    spvjit::bench::register_partition();
    spvjit::bench::register_saxpy();
    spvjit::bench::register_openmp();
    spvjit::bench::register_compile_hit();
    spvjit::bench::register_throughput();
    spvjit::bench::register_blas();
    spvjit::bench::register_heat();
    spvjit::bench::register_stencils();
    spvjit::bench::register_waterlily();
    spvjit::bench::register_stream();
    spvjit::bench::register_compute();
    spvjit::bench::register_docking();
    spvjit::bench::register_algorithms_reduce();
    spvjit::bench::register_algorithms_compact();
    spvjit::bench::register_algorithms_sort();
  }
  if (group != "in_process") spvjit::bench::register_process();

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
