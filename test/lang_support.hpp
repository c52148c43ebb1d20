// Helpers for the kernel-language tests: every kernel they build is checked with spirv-val
// before it runs, so each construct is proven to translate to valid SPIR-V as well as to work.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

namespace spvjit::test {

/// Runs spirv-val on `words` (by default in the OpenCL 1.2 environment); returns its exit status.
inline int run_spirv_val(const std::vector<std::uint32_t>& words, std::string& output,
                         const char* env = "opencl1.2") {
  const TempDir dir("spvjit-lang");
  const std::string path = dir / "module.spv";
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(words.data()),
            static_cast<std::streamsize>(words.size() * 4));
  }
  return run_command(std::string(SPVJIT_SPIRV_VAL) + " --target-env " + env + " " + path, output);
}

/// A specialization for a static workgroup.
inline Specialization static_workgroup(WorkGroup wg) {
  Specialization spec;
  spec.workgroup = wg;
  return spec;
}

/// Whether `words` pass spirv-val. spirv-val's OpenCL 1.2 environment rejects OpCapability
/// Int64Atomics outright, though the cl_khr_int64_base_atomics extension (which PoCL has)
/// allows it, and FPFastMathModeINTEL though the module declares SPV_INTEL_fp_fast_math_mode
/// (the `contract` of mul_add, ir/values.cpp): such modules are checked against the SPIR-V 1.2
/// rules instead.
inline bool spirv_valid(const std::vector<std::uint32_t>& words, std::string& out) {
  int rc = run_spirv_val(words, out);
  if (rc != 0 &&
      (out.find("Capability Int64Atomics is not allowed by OpenCL 1.2") != std::string::npos ||
       out.find("Capability FPFastMathModeINTEL is not allowed by OpenCL 1.2") !=
           std::string::npos)) {
    out.clear();
    rc = run_spirv_val(words, out, "spv1.2");
  }
  return rc == 0;
}

/// Checks the kernel's SPIR-V with spirv-val, then compiles it.
inline Kernel compile_checked(const KernelDef& def, const Specialization& spec = {}) {
  std::string out;
  const bool valid = spirv_valid(jit().spirv(def, spec), out);
  INFO("kernel ", def.name(), "\n", out);
  REQUIRE(valid);
  return jit().compile(def, spec);
}

}  // namespace spvjit::test
