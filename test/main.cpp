// The test process gets its own kernel cache directory, removed at the end: a cache left by an
// earlier run would turn the compiles that tests count into disk hits.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>

#include "test/skip.hpp"
#include "test/temp_dir.hpp"

int main(int argc, char** argv) {
  const spvjit::test::TempDir dir("spvjit-test-cache");
  ::setenv("SPVJIT_CACHE_DIR", dir.path().c_str(), 1);
  doctest::Context context(argc, argv);
  const int failed = context.run();
  // One case per process, as CTest runs them: a case that skipped reports it (test/skip.hpp).
  bool one_case = false;
  for (int i = 1; i < argc; ++i) one_case |= std::strncmp(argv[i], "--test-case=", 12) == 0;
  if (failed == 0 && one_case && spvjit::test::case_skipped()) return 77;
  return failed;
}
