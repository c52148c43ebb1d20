// libFuzzer target: random well-typed kernels (fuzz/kernel_program.hpp) must build, verify,
// translate to SPIR-V, build in PoCL, run, and agree with the CPU model. Any exception or
// wrong result aborts with the kernel's IR, which libFuzzer turns into a saved crash input.
#include <cstdio>
#include <cstdlib>

#include "fuzz/kernel_program.hpp"
#include "spvjit/spvjit.hpp"

using namespace spvjit;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail, const std::string& ir) {
  std::fprintf(stderr, "kernel_builder_fuzzer: %s: %s\n--- kernel IR ---\n%s\n", what,
               detail.c_str(), ir.c_str());
  std::abort();
}

Runtime& runtime() {
  // Never destroyed: PoCL's own teardown at exit is not what this target tests.
  static Runtime* rt = new Runtime();
  return *rt;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::ByteReader bytes(data, size);
  const fuzz::Inputs inputs = fuzz::make_inputs(static_cast<std::int32_t>(bytes.u64()));
  KernelBuilder kb("fuzz_kernel");
  fuzz::Program program;
  KernelDef def;
  try {
    program = fuzz::generate(kb, bytes, inputs);
    def = kb.finish();
  } catch (const Error& e) {
    fail("the builder refused a well-typed kernel", e.what(), kb.to_string());
  }
  Runtime& rt = runtime();
  Jit jit(rt);  // per input, so compiled programs do not pile up across runs
  std::vector<std::int64_t> out;
  try {
    Kernel k = jit.compile(def);
    auto Out = rt.zeros<std::int64_t>(fuzz::work_items);
    auto OutF = rt.zeros<float>(fuzz::work_items);
    auto Ints = rt.upload(inputs.ints);
    auto Floats = rt.upload(inputs.floats);
    k.launch(NDRange{fuzz::work_items}, Out, OutF, Ints, Floats, inputs.scalar);
    rt.synchronize();
    out = Out.to_vector();
  } catch (const TranslationError& e) {
    fail("translation failed", e.what(), e.ir());
  } catch (const BuildError& e) {
    fail("PoCL could not build the kernel", std::string(e.what()) + "\n" + e.build_log(),
         def.to_string());
  } catch (const Error& e) {
    fail("compile or launch failed", e.what(), def.to_string());
  }
  if (!program.result.exact) return 0;
  for (std::size_t w = 0; w < fuzz::work_items; ++w) {
    const auto expected = static_cast<std::int64_t>(program.result.model[w]);
    if (out[w] != expected) {
      fail("wrong result",
           "work-item " + std::to_string(w) + ": device " + std::to_string(out[w]) + ", model " +
               std::to_string(expected),
           def.to_string());
    }
  }
  return 0;
}
