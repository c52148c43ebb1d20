// The process's resident set size, for the soak and churn programs that check memory stays flat.
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>

namespace spvjit::test {

/// Resident set size in KiB, from the kernel's own accounting; -1 when it cannot be read.
inline long rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

}  // namespace spvjit::test
