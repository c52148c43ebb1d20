// The test process gets its own kernel cache directory, removed at the end: a cache left by an
// earlier run would turn the compiles that tests count into disk hits.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

int main(int argc, char** argv) {
  char dir[] = "/tmp/spvjit-test-cache-XXXXXX";
  if (!::mkdtemp(dir)) return 1;
  ::setenv("SPVJIT_CACHE_DIR", dir, 1);
  doctest::Context context(argc, argv);
  const int code = context.run();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return code;
}
