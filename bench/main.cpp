// spvjit_bench: KernelAbstractions' benchmark suite (PR #768) reproduced on spvjit, plus
// spvjit's own cases and baselines. `--spvjit-child=<mode>` makes it one of the suite's child
// processes instead (bench_process.cpp).
#include <string_view>

#include "bench/child_process.hpp"
#include "bench/suite.hpp"

int main(int argc, char** argv) {
  constexpr std::string_view child_flag = "--spvjit-child=";
  if (argc == 2 && std::string_view(argv[1]).starts_with(child_flag)) {
    return spvjit::bench::child_main(std::string(std::string_view(argv[1]).substr(child_flag.size())));
  }
  // Registered here, in the order the table shows, rather than by static initializers whose
  // order across files is unspecified.
  spvjit::bench::register_launch();
  spvjit::bench::register_raw_opencl();
  spvjit::bench::register_partition();
  spvjit::bench::register_saxpy();
  spvjit::bench::register_openmp();
  spvjit::bench::register_process();

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
