// disk_cache_info / clear_disk_cache, what `spvjit cache stats|clear` show.
#include <doctest/doctest.h>

#include <fstream>

#include "spvjit/examples.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

TEST_CASE("disk cache statistics count entries and clearing removes only cache files") {
  test::TempDir dir;
  JitOptions options;
  options.cache_dir = dir.path();
  {
    Jit jit(test::runtime(), options);
    jit.compile(examples::saxpy(Scalar::F32));
    jit.compile(examples::saxpy(Scalar::F64));
  }
  std::ofstream(dir / "unrelated.txt") << "keep me";
  std::ofstream(dir / "abc.spvk.tmp.1.0") << "half-written";
  DiskCacheInfo info = disk_cache_info(options);
  CHECK(info.dir == dir.path());
  CHECK(info.enabled);
  CHECK(info.entries == 2);
  CHECK(info.bytes > 0);
  CHECK(info.temporaries == 1);
  CHECK(clear_disk_cache(options) == 3);
  info = disk_cache_info(options);
  CHECK(info.entries == 0);
  CHECK(info.temporaries == 0);
  CHECK(std::ifstream(dir / "unrelated.txt").good());
}
