// The disk cache within one process: reuse by a new Jit, corrupt entries, a rejected binary, an
// unwritable directory, SPVJIT_CACHE=off, key changes, the size cap, stale temporary files.
#include <doctest/doctest.h>

#include <cstring>
#include <thread>

#include "jit/cache/cache_entry.hpp"
#include "common/log.hpp"
#include "runtime/launch_state.hpp"
#include "spvjit/examples.hpp"
#include "test/disk_cache_helpers.hpp"

using namespace spvjit;
using namespace spvjit::test;

TEST_CASE("a new Jit loads a compiled kernel from disk instead of compiling it") {
  TempDir dir;
  const auto def = examples::saxpy(Scalar::F32);
  {
    Jit first(runtime(), in_dir(dir));
    Kernel k = first.compile(def, wg(32));
    CHECK(saxpy_right(k));
    CHECK(first.stats().compiles == 1);
    CHECK(first.stats().disk_writes == 1);
    CHECK(first.cache_dir() == dir.path());
  }
  REQUIRE(entries(dir.path()).size() == 1);
  Jit second(runtime(), in_dir(dir));
  Kernel k = second.compile(def, wg(32));
  CHECK(second.stats().compiles == 0);
  CHECK(second.stats().disk_hits == 1);
  CHECK(saxpy_right(k));
  // What the launch needs came from the entry's header: the same as a compile finds.
  JitOptions uncached = in_dir(dir);
  uncached.disk_cache = false;
  Jit third(runtime(), uncached);
  const auto& compiled = detail::KernelAccess::state(third.compile(def, wg(32))).facts.launch;
  const auto& loaded = detail::KernelAccess::state(k).facts.launch;
  CHECK(compiled.coarsen > 1);  // saxpy is coarsened on this CPU device
  CHECK(loaded == compiled);
  // Dynamic sizes are not in the key: another launch size is the same kernel.
  CHECK(second.compile(def, wg(32)).valid());
  CHECK(second.stats().disk_hits == 1);
}

TEST_CASE("compile() writes the entry before it returns, and another Jit loads it") {
  TempDir dir;
  const auto f32 = examples::saxpy(Scalar::F32), f64 = examples::saxpy(Scalar::F64);
  {
    Jit writer(runtime(), in_dir(dir));
    Kernel k = writer.compile(f32, wg(16));
    // Before stats() or anything else that could wait for a write.
    const auto files = entries(dir.path());
    REQUIRE(files.size() == 1);  // no temporary file left
    CHECK(detail::decode_entry(read_all(files[0])).ok());
    CHECK(writer.stats().disk_writes == 1);
    // Loaded by another Jit while the writer lives, and right.
    Jit reader(runtime(), in_dir(dir));
    Kernel loaded = reader.compile(f32, wg(16));
    CHECK(reader.stats().disk_hits == 1);
    CHECK(reader.stats().compiles == 0);
    CHECK(saxpy_right(loaded));
    CHECK(saxpy_right(k));
    writer.compile(f32, wg(32));
    writer.compile(f32, wg(64));
    writer.compile(f64, wg(16));
    CHECK(entries(dir.path()).size() == 4);
  }
  const auto files = entries(dir.path());
  CHECK(files.size() == 4);
  for (const auto& p : files) {
    CHECK(p.extension() == ".spvk");
    CHECK(detail::decode_entry(read_all(p)).ok());
  }
  Jit again(runtime(), in_dir(dir));
  again.compile(f32, wg(64));
  again.compile(f64, wg(16));
  CHECK(again.stats().disk_hits == 2);
  CHECK(again.stats().compiles == 0);
}

TEST_CASE("two Jits of one process storing the same kernel at once share the directory") {
  TempDir dir;
  const auto warnings = detail::warning_count();
  Jit a(runtime(), in_dir(dir)), b(runtime(), in_dir(dir));
  const auto def = examples::saxpy(Scalar::F64);
  std::thread other([&] { a.compile(def, wg(8)); });
  b.compile(def, wg(8));
  other.join();
  CHECK(detail::warning_count() == warnings);
  CHECK(!a.cache_dir().empty());
  CHECK(!b.cache_dir().empty());
  CHECK(entries(dir.path()).size() == 1);
}

TEST_CASE("a corrupt or truncated entry is removed and rebuilt with one warning") {
  const auto def = examples::saxpy(Scalar::F32);
  struct Damage {
    const char* what;
    void (*apply)(std::vector<std::uint8_t>&);
  };
  const Damage damages[] = {
      {"truncated", [](std::vector<std::uint8_t>& b) { b.resize(b.size() / 2); }},
      {"flipped byte", [](std::vector<std::uint8_t>& b) { b[b.size() - 100] ^= 0x20; }},
      {"empty", [](std::vector<std::uint8_t>& b) { b.clear(); }},
      {"garbage", [](std::vector<std::uint8_t>& b) { b.assign(4096, 0xAB); }},
  };
  for (const auto& damage : damages) {
    CAPTURE(damage.what);
    TempDir dir;
    const fs::path entry = write_one_entry(def, in_dir(dir));
    auto bytes = read_all(entry);
    damage.apply(bytes);
    write_all(entry, bytes);

    const auto warnings = detail::warning_count();
    Jit reader(runtime(), in_dir(dir));
    Kernel k = reader.compile(def, wg(16));
    CHECK(detail::warning_count() == warnings + 1);
    CHECK(detail::last_warning().find("is corrupt") != std::string::npos);
    CHECK(reader.stats().compiles == 1);
    CHECK(reader.stats().disk_hits == 0);
    CHECK(saxpy_right(k));
    // Rebuilt and stored again, valid this time.
    CHECK(detail::decode_entry(read_all(entry)).ok());
  }
}

TEST_CASE("a binary the device rejects is rebuilt from the entry's SPIR-V") {
  TempDir dir;
  const auto def = examples::saxpy(Scalar::F32);
  const fs::path entry = write_one_entry(def, in_dir(dir));
  // A well-formed entry under the right key whose binary is not one PoCL made.
  const auto good = read_all(entry);
  const auto d = detail::decode_entry(good);
  REQUIRE(d.ok());
  std::vector<std::uint32_t> words(d.entry.spirv.size() / 4);
  std::memcpy(words.data(), d.entry.spirv.data(), d.entry.spirv.size());
  const std::string junk = "this is not a device binary";
  write_all(entry, detail::encode_entry(d.entry.key, words,
                                        std::vector<std::uint8_t>(junk.begin(), junk.end()),
                                        d.entry.launch));
  const auto warnings = detail::warning_count();
  Jit reader(runtime(), in_dir(dir));
  Kernel k = reader.compile(def, wg(16));
  CHECK(detail::warning_count() == warnings + 1);
  CHECK(detail::last_warning().find("rejected the cached binary") != std::string::npos);
  CHECK(reader.stats().compiles == 0);  // no translation: the stored SPIR-V was built
  CHECK(reader.stats().disk_writes == 1);
  CHECK(saxpy_right(k));
  const auto fixed = read_all(entry);
  CHECK(detail::decode_entry(fixed).ok());
  CHECK(fixed != detail::encode_entry(d.entry.key, words,
                                      std::vector<std::uint8_t>(junk.begin(), junk.end()),
                                      d.entry.launch));
}

TEST_CASE("an unwritable cache directory falls back to memory with one warning") {
  TempDir dir;
  { std::ofstream(dir / "file") << "not a directory"; }
  JitOptions options;
  options.cache_dir = dir / "file/cache";  // ENOTDIR even for root, unlike permission bits
  Jit jit(runtime(), options);
  const auto warnings = detail::warning_count();
  Kernel a = jit.compile(examples::saxpy(Scalar::F32), wg(8));
  Kernel b = jit.compile(examples::saxpy(Scalar::F32), wg(4));
  CHECK(jit.cache_dir().empty());  // after the background writes, which it waits for
  CHECK(detail::warning_count() == warnings + 1);
  CHECK(detail::last_warning().find("caching in memory only") != std::string::npos);
  CHECK(jit.stats().compiles == 2);
  CHECK(saxpy_right(a));
  CHECK(saxpy_right(b));
  jit.compile(examples::saxpy(Scalar::F32), wg(8));
  CHECK(jit.stats().compiles == 2);  // the memory cache still works
}

TEST_CASE("SPVJIT_CACHE=off and disk_cache = false write nothing") {
  TempDir dir;
  ::setenv("SPVJIT_CACHE", "off", 1);
  Jit off_by_env(runtime(), in_dir(dir));
  ::unsetenv("SPVJIT_CACHE");
  CHECK(off_by_env.cache_dir().empty());
  off_by_env.compile(examples::saxpy(Scalar::F32), wg(2));
  JitOptions options = in_dir(dir);
  options.disk_cache = false;
  Jit off_by_option(runtime(), options);
  off_by_option.compile(examples::saxpy(Scalar::F32), wg(2));
  CHECK(entries(dir.path()).empty());
  CHECK(off_by_option.stats().compiles == 1);
}

TEST_CASE("a change of build options misses the entry of other options") {
  TempDir dir;
  const auto def = examples::saxpy(Scalar::F32);
  Jit plain(runtime(), in_dir(dir));
  plain.compile(def, wg(64));
  CHECK(plain.stats().disk_writes == 1);  // waits for its background write
  JitOptions options = in_dir(dir);
  options.build_options = "-cl-mad-enable";
  Jit mad(runtime(), options);
  Kernel k = mad.compile(def, wg(64));
  CHECK(mad.stats().disk_hits == 0);
  CHECK(mad.stats().compiles == 1);
  CHECK(entries(dir.path()).size() == 2);
  CHECK(saxpy_right(k));
  // And a different static size or kernel type is a different entry too.
  mad.compile(def, wg(32));
  mad.compile(examples::saxpy(Scalar::F64), wg(64));
  CHECK(mad.stats().compiles == 3);
  CHECK(entries(dir.path()).size() == 4);
}

TEST_CASE("past the size cap the least recently used entries are evicted") {
  TempDir dir;
  const auto def = examples::saxpy(Scalar::F32);
  std::string file1, file2;
  {
    Jit jit(runtime(), in_dir(dir));
    jit.compile(def, wg(16));
    jit.stats();  // waits for the entry's background write
    file1 = entries(dir.path()).at(0);
    jit.compile(def, wg(32));
    jit.stats();
    for (const auto& p : entries(dir.path())) {
      if (p != file1) file2 = p;
    }
  }
  REQUIRE(!file2.empty());
  // file1 older than file2 ...
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(file1, now - std::chrono::seconds(200));
  fs::last_write_time(file2, now - std::chrono::seconds(100));
  // ... until a hit makes it the most recently used.
  {
    Jit jit(runtime(), in_dir(dir));
    jit.compile(def, wg(16));
    CHECK(jit.stats().disk_hits == 1);
  }
  const auto size1 = fs::file_size(file1), size2 = fs::file_size(file2);
  JitOptions capped = in_dir(dir);
  capped.cache_max_bytes = size1 + size2 + std::min(size1, size2) / 2;  // room for two
  Jit jit(runtime(), capped);
  jit.compile(def, wg(64));
  CHECK(jit.stats().disk_writes == 1);  // written, and the eviction after it done
  CHECK(fs::exists(file1));
  CHECK_FALSE(fs::exists(file2));
  CHECK(entries(dir.path()).size() == 2);
}

TEST_CASE("a temporary file left by a killed writer is cleaned up, a fresh one is kept") {
  TempDir dir;
  const std::string stale = dir / "0123.spvk.tmp.99999.0";
  const std::string fresh = dir / "4567.spvk.tmp.99999.1";
  std::ofstream(stale) << "half an entry";
  std::ofstream(fresh) << "an entry being written";
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(1));
  Jit jit(runtime(), in_dir(dir));
  jit.compile(examples::saxpy(Scalar::F32), wg(8));
  CHECK(jit.stats().disk_writes == 1);  // the write, and the eviction scan after it, done
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(fresh));
}
