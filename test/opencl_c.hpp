// OpenCL C compiled by clang-15 as a porter would (docs/porting-opencl.md): the bitcode handed to
// kernel_from_bitcode / module_from_bitcode.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "test/run_command.hpp"
#include "test/temp_dir.hpp"

namespace spvjit::test {

/// `source` through `clang-15 -target spir64 -cl-std=CL1.2 -O2 -emit-llvm -Xclang
/// -no-opaque-pointers` plus `flags`; REQUIREs that clang succeeds.
inline std::string opencl_c_bitcode(const std::string& source, const std::string& flags = "") {
  const TempDir dir("spvjit-opencl-c");
  const std::string cl = dir / "kernels.cl";
  const std::string bc = dir / "kernels.bc";
  std::ofstream(cl) << source;
  std::string out;
  const int rc = run_command(std::string(SPVJIT_CLANG) +
                                 " -target spir64 -cl-std=CL1.2 -O2 -Xclang -no-opaque-pointers "
                                 "-emit-llvm -c " +
                                 flags + " -o " + bc + " " + cl + " 2>&1",
                             out);
  INFO(out);
  REQUIRE(rc == 0);
  std::ifstream in(bc, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace spvjit::test
