// Cold compile times of the kernel corpus, printed as a markdown table (docs/corpus.md); asserts
// nothing. spvjit: clang's bitcode -> kernel_from_bitcode -> Jit::compile, a kernel ready to
// launch, with a fresh, empty disk cache per kernel. clBuildProgram: the .cl source -> a built
// program holding all of the file's kernels. POCL_KERNEL_CACHE=0 makes PoCL build every time.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>

#include "spvjit/raw_module.hpp"
#include "spvjit/spvjit.hpp"
#include "test/corpus_reference.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;
using namespace spvjit::corpus;

namespace {

template <class F>
double milliseconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// spvjit's cold compile of one kernel, or -1 when it throws (the corpus test says why).
double spvjit_ms(Runtime& rt, const std::string& file, const std::string& kernel, Opt opt) {
  const test::TempDir cache("spvjit-corpus-times");
  try {
    return milliseconds([&] {
      Jit jit(rt, JitOptions{.cache_dir = cache.path()});
      const std::string bitcode = read_file(bitcode_path(file, opt));
      const Kernel k = jit.compile(kernel_from_bitcode(bitcode, kernel));
      if (!k.valid()) std::abort();
    });
  } catch (const std::exception&) {
    return -1;
  }
}

std::string cell(double ms) {
  if (ms < 0) return "fails";
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", ms);
  return text;
}

}  // namespace

int main() {
  ::setenv("POCL_KERNEL_CACHE", "0", 1);
  Runtime rt;
  std::printf("device: %s\n\n", rt.device().summary().c_str());
  std::printf("| file | kernel | spvjit -O2 (ms) | spvjit -O0 (ms) | clBuildProgram, whole file (ms) |\n");
  std::printf("|---|---|---:|---:|---:|\n");
  std::set<std::pair<std::string, std::string>> seen;
  std::set<std::string> built;
  for (const Entry& entry : registry()) {
    const Case c = entry.make();
    for (const Launch& l : c.launches) {
      if (!seen.emplace(c.file, l.kernel).second) continue;
      const double o2 = spvjit_ms(rt, c.file, l.kernel, Opt::O2);
      const double o0 = spvjit_ms(rt, c.file, l.kernel, Opt::O0);
      std::string reference = "(above)";
      if (built.insert(c.file).second) {
        const std::string source = reference_source(c.file);
        reference = cell(milliseconds([&] { build_reference(rt.core(), source); }));
      }
      std::printf("| %s | %s | %s | %s | %s |\n", c.file.c_str(), l.kernel.c_str(), cell(o2).c_str(),
                  cell(o0).c_str(), reference.c_str());
    }
  }
  return 0;
}
