// A case that cannot check what it is for on this machine says so, and CTest reports it as
// skipped (exit code 77, SKIP_RETURN_CODE in test/CMakeLists.txt), never as passed.
#pragma once

#include <doctest/doctest.h>

#include <string>

namespace spvjit::test {

inline bool& case_skipped() {
  static bool skipped = false;
  return skipped;
}

/// Marks the running case skipped, with the reason in the output; the case then returns.
inline void skip(const std::string& why) {
  MESSAGE("skipped: " << why);
  case_skipped() = true;
}

}  // namespace spvjit::test
