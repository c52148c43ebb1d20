// A fresh process for the disk-cache tests: compiles saxpy (f32, static workgroup 64) with the
// disk cache in argv[1] ("-": the directory the environment selects), runs it over 1000 items
// and checks the result. Prints the Jit's stats and cache directory; exit 0: right answer, 1:
// wrong answer, 2: an exception.
// With a second argument it only compiles, then leaves at once: "exit" calls std::exit with the
// Jit alive, "_exit" calls _exit (no exit handlers), "return" returns from main (the Jit
// destroyed).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"

int main(int argc, char** argv) {
  using namespace spvjit;
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: spvjit_cache_probe <cache dir> [exit|_exit|return]\n");
    return 2;
  }
  const std::string leave = argc == 3 ? argv[2] : "";
  try {
    Runtime rt;
    JitOptions options;
    if (std::string(argv[1]) != "-") options.cache_dir = argv[1];
    Jit jit(rt, options);
    Specialization spec;
    spec.workgroup = WorkGroup{64};
    Kernel k = jit.compile(examples::saxpy(Scalar::F32), spec);
    if (leave == "exit") std::exit(0);
    if (leave == "_exit") _exit(0);
    if (leave == "return") return 0;
    const std::size_t n = 1000;
    auto X = rt.upload(std::vector<float>(n, 1.5f));
    auto Y = rt.upload(std::vector<float>(n, 0.25f));
    auto Z = rt.zeros<float>(n);
    k.launch(NDRange{n}, Z, X, Y, 2.0f);
    rt.synchronize();
    std::size_t wrong = 0;
    for (float z : Z.to_vector()) wrong += z != 3.25f;
    const JitStats s = jit.stats();
    std::printf("compiles=%llu disk_hits=%llu disk_writes=%llu wrong=%zu cache_dir=%s\n",
                static_cast<unsigned long long>(s.compiles),
                static_cast<unsigned long long>(s.disk_hits),
                static_cast<unsigned long long>(s.disk_writes), wrong, jit.cache_dir().c_str());
    return wrong == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 2;
  }
}
