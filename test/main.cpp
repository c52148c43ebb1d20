// The test process gets its own kernel cache directory, removed at the end: a cache left by an
// earlier run would turn the compiles that tests count into disk hits.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

#include "test/temp_dir.hpp"

int main(int argc, char** argv) {
  const spvjit::test::TempDir dir("spvjit-test-cache");
  ::setenv("SPVJIT_CACHE_DIR", dir.path().c_str(), 1);
  doctest::Context context(argc, argv);
  return context.run();
}
