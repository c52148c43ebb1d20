// Helpers of the disk-cache tests: a Jit in a test directory, a saxpy check, directory and
// file access, and the probe process (test/cache_probe.cpp; run it with test/run_command.hpp).
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "spvjit/spvjit.hpp"
#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

namespace spvjit::test {

namespace fs = std::filesystem;

inline JitOptions in_dir(const TempDir& dir) {
  JitOptions o;
  o.cache_dir = dir.path();
  return o;
}

inline Specialization wg(std::size_t size) {
  Specialization s;
  s.workgroup = WorkGroup{size};
  return s;
}

// Runs saxpy through `k` and says whether every element is right.
inline bool saxpy_right(Kernel& k) {
  auto& rt = runtime();
  const std::size_t n = 777;
  auto X = rt.upload(std::vector<float>(n, 2.0f));
  auto Y = rt.upload(std::vector<float>(n, 0.5f));
  auto Z = rt.zeros<float>(n);
  k.launch(NDRange{n}, Z, X, Y, 3.0f);
  rt.synchronize();
  for (float z : Z.to_vector()) {
    if (z != 6.5f) return false;
  }
  return true;
}

inline std::vector<fs::path> entries(const std::string& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) out.push_back(e.path());
  return out;
}

// Compiles `def` (workgroup 16) with a Jit caching in `options.cache_dir`, and returns the one
// entry that wrote.
inline fs::path write_one_entry(const KernelDef& def, const JitOptions& options) {
  {
    Jit writer(runtime(), options);
    writer.compile(def, wg(16));
  }
  const auto files = entries(options.cache_dir);
  REQUIRE(files.size() == 1);
  return files[0];
}

inline std::vector<std::uint8_t> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_all(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

inline std::string probe(const TempDir& dir) {
  return std::string(SPVJIT_CACHE_PROBE) + " " + dir.path();
}

}  // namespace spvjit::test
