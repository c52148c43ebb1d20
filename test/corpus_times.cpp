// Cold compile times of the kernel corpus, printed as a markdown table (docs/corpus.md); asserts
// nothing. Both sides build a whole file, all its kernels at once: spvjit from clang's bitcode
// (module_from_bitcode -> Jit::compile(ModuleDef), every kernel ready to launch, in a new Jit with
// a fresh, empty disk cache), clBuildProgram from the .cl source. POCL_KERNEL_CACHE=0 makes PoCL
// build every time.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

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
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// spvjit's cold compile of one file's module, or -1 when it throws (the corpus test says why).
double spvjit_ms(Runtime& rt, const std::string& file, Opt opt) {
  const test::TempDir cache("spvjit-corpus-times");
  try {
    return milliseconds([&] {
      Jit jit(rt, JitOptions{.cache_dir = cache.path()});
      const std::string bitcode = read_file(bitcode_path(file, opt));
      const Program program = jit.compile(module_from_bitcode(bitcode));
      if (program.kernel_names().empty()) std::abort();
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
  std::printf(
      "| file | its kernels the corpus runs | spvjit -O2 (ms) | spvjit -O0 (ms) | clBuildProgram "
      "(ms) |\n");
  std::printf("|---|---|---:|---:|---:|\n");
  // A file's kernels, in the order the cases first launch them.
  std::vector<std::pair<std::string, std::vector<std::string>>> files;
  for (const Entry& entry : registry()) {
    const Case c = entry.make();
    auto file =
        std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.first == c.file; });
    if (file == files.end()) file = files.insert(files.end(), {c.file, {}});
    for (const Launch& l : c.launches) {
      if (std::find(file->second.begin(), file->second.end(), l.kernel) == file->second.end()) {
        file->second.push_back(l.kernel);
      }
    }
  }
  for (const auto& [file, kernels] : files) {
    const double o2 = spvjit_ms(rt, file, Opt::O2);
    const double o0 = spvjit_ms(rt, file, Opt::O0);
    const std::string source = reference_source(file);
    const double reference =
        milliseconds([&] { build_reference(spvjit::detail::core_of(rt), source); });
    std::string names;
    for (const auto& k : kernels) names += (names.empty() ? "" : ", ") + k;
    std::printf("| %s | %s | %s | %s | %s |\n", file.c_str(), names.c_str(), cell(o2).c_str(),
                cell(o0).c_str(), cell(reference).c_str());
  }
  return 0;
}
