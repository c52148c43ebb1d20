// What may sit at a disk-cache entry's path besides an entry: a FIFO (open() used to block
// compile() forever), a symlink, a directory, a huge sparse file (read whole, or std::bad_alloc
// on every compile). Each compile goes on and gets right results; the directory walks of the
// LRU eviction and of `spvjit cache stats|clear` count and remove regular files only.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jit/cache/cache_entry.hpp"
#include "jit/cache/disk_cache.hpp"
#include "common/log.hpp"
#include "spvjit/examples.hpp"
#include "test/disk_cache_helpers.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

// The probe's entry (saxpy f32, workgroup 64) in `dir`, written by a first run of the probe.
fs::path probe_entry(const TempDir& dir) {
  std::string out;
  REQUIRE_MESSAGE(run_command(probe(dir), out) == 0, out);
  const auto files = entries(dir.path());
  REQUIRE(files.size() == 1);
  return files[0];
}

// Runs the probe with a deadline: a compile that blocks is killed (timeout's exit 124) instead of
// hanging the suite. A compile takes well under a second here once PoCL's own cache is warm.
int probe_with_deadline(const TempDir& dir, std::string& out) {
  return run_command("timeout 60 " + probe(dir), out);
}

void make_sparse(const fs::path& path, off_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  CHECK(::ftruncate(fd, size) == 0);
  ::close(fd);
}

}  // namespace

TEST_CASE("a FIFO at an entry's path is removed without opening it for a blocking read") {
  TempDir dir;
  const fs::path entry = probe_entry(dir);
  fs::remove(entry);
  REQUIRE(::mkfifo(entry.c_str(), 0644) == 0);
  std::string out;
  CHECK_MESSAGE(probe_with_deadline(dir, out) == 0, out);
  CHECK_MESSAGE(out.find("compiles=1 disk_hits=0 disk_writes=1 wrong=0") != std::string::npos, out);
  CHECK_MESSAGE(out.find("is a FIFO, not a regular file; removed, rebuilding the kernel") !=
                    std::string::npos,
                out);
  CHECK(fs::is_regular_file(fs::symlink_status(entry)));
  CHECK(detail::decode_entry(read_all(entry)).ok());
}

TEST_CASE("a symlink at an entry's path is removed, never followed, and its target stays") {
  TempDir dir, elsewhere;
  const fs::path entry = probe_entry(dir);
  const fs::path target = elsewhere / "fifo";
  REQUIRE(::mkfifo(target.c_str(), 0644) == 0);  // following it would block
  fs::remove(entry);
  fs::create_symlink(target, entry);
  std::string out;
  CHECK_MESSAGE(probe_with_deadline(dir, out) == 0, out);
  CHECK_MESSAGE(out.find("compiles=1 disk_hits=0 disk_writes=1 wrong=0") != std::string::npos, out);
  CHECK_MESSAGE(out.find("is a symbolic link, not a regular file; removed") != std::string::npos,
                out);
  CHECK(fs::is_regular_file(fs::symlink_status(entry)));
  CHECK(fs::is_fifo(fs::symlink_status(target)));
}

TEST_CASE("an entry larger than an entry may hold is removed by its size, before it is read") {
  const auto def = examples::saxpy(Scalar::F32);
  struct Case {
    const char* what;
    off_t size;
    std::uint64_t budget;  // JitOptions::cache_max_bytes
  };
  const Case cases[] = {
      // before: std::bad_alloc on every compile, the entry staying
      {"64 GiB sparse, the default 1 GiB budget", off_t{64} << 30, std::uint64_t{1} << 30},
      // before: read whole (2.1 GB resident, 8 s), then called corrupt
      {"2 GiB sparse, the default 1 GiB budget", off_t{2} << 30, std::uint64_t{1} << 30},
      {"2 GiB sparse, an 8 GiB budget", off_t{2} << 30, std::uint64_t{8} << 30},
      {"1 MiB, a 512 KiB budget", off_t{1} << 20, std::uint64_t{512} << 10},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    TempDir dir;
    JitOptions options = in_dir(dir);
    options.cache_max_bytes = c.budget;
    const fs::path entry = write_one_entry(def, options);
    make_sparse(entry, c.size);
    const auto warnings = detail::warning_count();
    Jit reader(runtime(), options);
    Kernel k = reader.compile(def, wg(16));
    CHECK(detail::warning_count() == warnings + 1);
    CHECK_MESSAGE(detail::last_warning().find(
                      "is " + std::to_string(c.size) + " bytes, more than an entry may hold (" +
                      std::to_string(std::min(detail::max_entry_size, c.budget)) + " bytes") !=
                      std::string::npos,
                  detail::last_warning());
    CHECK(detail::last_warning().find("; removed, rebuilding the kernel") != std::string::npos);
    CHECK(reader.stats().compiles == 1);
    CHECK(saxpy_right(k));
    // Removed and written again at its real size.
    CHECK(fs::file_size(entry) < (std::uintmax_t{1} << 20));
    CHECK(detail::decode_entry(read_all(entry)).ok());
  }
}

TEST_CASE("a directory at an entry's path is left alone, and the Jit keeps its disk cache") {
  TempDir dir;
  const auto def = examples::saxpy(Scalar::F32);
  const fs::path entry = write_one_entry(def, in_dir(dir));
  fs::remove(entry);
  fs::create_directory(entry);
  std::ofstream(entry / "someone's file") << "keep me";
  const auto warnings = detail::warning_count();
  Jit reader(runtime(), in_dir(dir));
  Kernel k = reader.compile(def, wg(16));
  CHECK(detail::warning_count() == warnings + 1);
  CHECK(detail::last_warning().find("is a directory, not a regular file; left alone") !=
        std::string::npos);
  CHECK(saxpy_right(k));
  CHECK(reader.stats().disk_writes == 0);
  CHECK(std::ifstream(entry / "someone's file").good());
  // Only that kernel goes uncached: the next one is stored.
  CHECK(reader.cache_dir() == dir.path());
  reader.compile(def, wg(8));
  CHECK(reader.stats().disk_writes == 1);
  CHECK(entries(dir.path()).size() == 2);
}

TEST_CASE(
    "the cache's directory walks count and remove regular files only, never through a symlink") {
  TempDir dir, elsewhere;
  const auto def = examples::saxpy(Scalar::F32);
  JitOptions options = in_dir(dir);
  {
    Jit writer(runtime(), options);
    writer.compile(def, wg(16));
  }
  const fs::path target = elsewhere / "big";
  make_sparse(target, off_t{64} << 30);
  REQUIRE(::mkfifo((dir / "a.spvk").c_str(), 0644) == 0);
  fs::create_symlink(target, dir / "b.spvk");
  fs::create_directory(dir / "c.spvk");
  std::ofstream(dir / "c.spvk/someone's file") << "keep me";
  REQUIRE(::mkfifo((dir / "d.spvk.tmp.1.0").c_str(), 0644) == 0);

  DiskCacheInfo info = disk_cache_info(options);
  CHECK(info.entries == 1);
  CHECK(info.bytes < (std::uint64_t{1} << 20));  // the symlink's 64 GiB target is not counted
  CHECK(info.temporaries == 0);

  // Eviction past a 1 GiB budget neither counts the target nor deletes anything odd.
  {
    Jit jit(runtime(), options);
    jit.compile(def, wg(8));
    CHECK(jit.stats().disk_writes == 1);
  }
  CHECK(disk_cache_info(options).entries == 2);
  CHECK(fs::file_size(target) == (std::uintmax_t{64} << 30));

  // Clearing removes the entries, the FIFOs and the symlink, not its target nor the directory.
  CHECK(clear_disk_cache(options) == 5);
  CHECK(fs::file_size(target) == (std::uintmax_t{64} << 30));
  CHECK(std::ifstream(dir / "c.spvk/someone's file").good());
  const auto left = entries(dir.path());
  REQUIRE(left.size() == 1);
  CHECK(left[0] == dir / "c.spvk");
}
