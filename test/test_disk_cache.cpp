// The disk cache: reuse by a new Jit and a new process, corrupt entries, an unwritable
// directory, SPVJIT_CACHE=off, the size cap, key changes, and two processes at once.
#include <doctest/doctest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "jit/cache_entry.hpp"
#include "jit/warn.hpp"
#include "spvjit/examples.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;
namespace fs = std::filesystem;

namespace {

JitOptions in_dir(const test::TempDir& dir) {
  JitOptions o;
  o.cache_dir = dir.path();
  return o;
}

Specialization wg(std::size_t size) {
  Specialization s;
  s.workgroup = WorkGroup{size};
  return s;
}

// Runs saxpy through `k` and says whether every element is right.
bool saxpy_right(Kernel& k) {
  auto& rt = test::runtime();
  const std::size_t n = 777;
  auto X = rt.upload(std::vector<float>(n, 2.0f));
  auto Y = rt.upload(std::vector<float>(n, 0.5f));
  auto Z = rt.zeros<float>(n);
  k.launch(NDRange{n}, Z, X, Y, 3.0f);
  test::runtime().synchronize();
  for (float z : Z.to_vector()) {
    if (z != 6.5f) return false;
  }
  return true;
}

std::vector<fs::path> entries(const std::string& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) out.push_back(e.path());
  return out;
}

std::vector<std::uint8_t> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// popen with both streams; returns the exit code (-1: did not exit normally).
FILE* start(const std::string& cmd) { return ::popen((cmd + " 2>&1").c_str(), "r"); }
int finish(FILE* p, std::string& out) {
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
std::string probe(const test::TempDir& dir) { return std::string(SPVJIT_CACHE_PROBE) + " " + dir.path(); }

}  // namespace

TEST_CASE("a new Jit loads a compiled kernel from disk instead of compiling it") {
  test::TempDir dir;
  const auto def = examples::saxpy(Scalar::F32);
  {
    Jit first(test::runtime(), in_dir(dir));
    Kernel k = first.compile(def, wg(32));
    CHECK(saxpy_right(k));
    CHECK(first.stats().compiles == 1);
    CHECK(first.stats().disk_writes == 1);
    CHECK(first.cache_dir() == dir.path());
  }
  REQUIRE(entries(dir.path()).size() == 1);
  Jit second(test::runtime(), in_dir(dir));
  Kernel k = second.compile(def, wg(32));
  CHECK(second.stats().compiles == 0);
  CHECK(second.stats().disk_hits == 1);
  CHECK(saxpy_right(k));
  // Dynamic sizes are not in the key: another launch size is the same kernel.
  CHECK(second.compile(def, wg(32)).valid());
  CHECK(second.stats().disk_hits == 1);
}

TEST_CASE("a new process loads the kernel another process compiled") {
  test::TempDir dir;
  std::string out;
  CHECK_MESSAGE(finish(start(probe(dir)), out) == 0, out);
  CHECK_MESSAGE(out.find("compiles=1 disk_hits=0 disk_writes=1 wrong=0") != std::string::npos, out);
  out.clear();
  CHECK_MESSAGE(finish(start(probe(dir)), out) == 0, out);
  CHECK_MESSAGE(out.find("compiles=0 disk_hits=1 disk_writes=0 wrong=0") != std::string::npos, out);
}

TEST_CASE("two processes compiling the same kernel at once both succeed and leave one entry") {
  test::TempDir dir;
  FILE* a = start(probe(dir));
  FILE* b = start(probe(dir));
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  std::string out_a, out_b;
  CHECK_MESSAGE(finish(a, out_a) == 0, out_a);
  CHECK_MESSAGE(finish(b, out_b) == 0, out_b);
  const auto files = entries(dir.path());
  REQUIRE(files.size() == 1);  // no temporary files left behind
  CHECK(files[0].extension() == ".spvk");
  CHECK(detail::decode_entry(read_all(files[0])).ok());
  std::string out;
  CHECK(finish(start(probe(dir)), out) == 0);
  CHECK_MESSAGE(out.find("disk_hits=1") != std::string::npos, out);
}

TEST_CASE("two Jits of one process storing the same kernel at once share the directory") {
  test::TempDir dir;
  const auto warnings = detail::warning_count();
  Jit a(test::runtime(), in_dir(dir)), b(test::runtime(), in_dir(dir));
  const auto def = examples::saxpy(Scalar::F64);
  std::thread other([&] { a.compile(def, wg(8)); });
  b.compile(def, wg(8));
  other.join();
  CHECK(detail::warning_count() == warnings);
  CHECK(!a.cache_dir().empty());
  CHECK(!b.cache_dir().empty());
  CHECK(entries(dir.path()).size() == 1);
}

TEST_CASE("a process killed while compiling leaves no entry a later process trips over") {
  test::TempDir dir;
  // The kill lands somewhere in start-up, compile or the write; wherever it does, every entry
  // left must be whole and the next process must get a right answer.
  for (int delay_ms : {20, 60, 100, 140, 180}) {
    CAPTURE(delay_ms);
    for (const auto& p : entries(dir.path())) fs::remove(p);
    std::string path = dir.path();
    char* argv[] = {const_cast<char*>(SPVJIT_CACHE_PROBE), path.data(), nullptr};
    pid_t pid = 0;
    REQUIRE(::posix_spawn(&pid, SPVJIT_CACHE_PROBE, nullptr, nullptr, argv, environ) == 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    for (const auto& p : entries(dir.path())) {
      if (p.extension() == ".spvk") CHECK(detail::decode_entry(read_all(p)).ok());
    }
    std::string out;
    CHECK_MESSAGE(finish(start(probe(dir)), out) == 0, out);
  }
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
    test::TempDir dir;
    {
      Jit writer(test::runtime(), in_dir(dir));
      writer.compile(def, wg(16));
    }
    const auto files = entries(dir.path());
    REQUIRE(files.size() == 1);
    auto bytes = read_all(files[0]);
    damage.apply(bytes);
    write_all(files[0], bytes);

    const auto warnings = detail::warning_count();
    Jit reader(test::runtime(), in_dir(dir));
    Kernel k = reader.compile(def, wg(16));
    CHECK(detail::warning_count() == warnings + 1);
    CHECK(detail::last_warning().find("is corrupt") != std::string::npos);
    CHECK(reader.stats().compiles == 1);
    CHECK(reader.stats().disk_hits == 0);
    CHECK(saxpy_right(k));
    // Rebuilt and stored again, valid this time.
    CHECK(detail::decode_entry(read_all(files[0])).ok());
  }
}

TEST_CASE("a binary the device rejects is rebuilt from the entry's SPIR-V") {
  test::TempDir dir;
  const auto def = examples::saxpy(Scalar::F32);
  {
    Jit writer(test::runtime(), in_dir(dir));
    writer.compile(def, wg(16));
  }
  const auto files = entries(dir.path());
  REQUIRE(files.size() == 1);
  // A well-formed entry under the right key whose binary is not one PoCL made.
  const auto good = read_all(files[0]);
  const auto d = detail::decode_entry(good);
  REQUIRE(d.ok());
  std::vector<std::uint32_t> words(d.entry.spirv.size() / 4);
  std::memcpy(words.data(), d.entry.spirv.data(), d.entry.spirv.size());
  const std::string junk = "this is not a device binary";
  write_all(files[0], detail::encode_entry(d.entry.key, words,
                                           std::vector<std::uint8_t>(junk.begin(), junk.end())));
  const auto warnings = detail::warning_count();
  Jit reader(test::runtime(), in_dir(dir));
  Kernel k = reader.compile(def, wg(16));
  CHECK(detail::warning_count() == warnings + 1);
  CHECK(detail::last_warning().find("rejected the cached binary") != std::string::npos);
  CHECK(reader.stats().compiles == 0);  // no translation: the stored SPIR-V was built
  CHECK(reader.stats().disk_writes == 1);
  CHECK(saxpy_right(k));
  const auto fixed = read_all(files[0]);
  CHECK(detail::decode_entry(fixed).ok());
  CHECK(fixed != detail::encode_entry(d.entry.key, words,
                                      std::vector<std::uint8_t>(junk.begin(), junk.end())));
}

TEST_CASE("an unwritable cache directory falls back to memory with one warning") {
  test::TempDir dir;
  { std::ofstream(dir / "file") << "not a directory"; }
  JitOptions options;
  options.cache_dir = dir / "file/cache";  // ENOTDIR even for root, unlike permission bits
  Jit jit(test::runtime(), options);
  const auto warnings = detail::warning_count();
  Kernel a = jit.compile(examples::saxpy(Scalar::F32), wg(8));
  Kernel b = jit.compile(examples::saxpy(Scalar::F32), wg(4));
  CHECK(detail::warning_count() == warnings + 1);
  CHECK(detail::last_warning().find("caching in memory only") != std::string::npos);
  CHECK(jit.cache_dir().empty());
  CHECK(jit.stats().compiles == 2);
  CHECK(saxpy_right(a));
  CHECK(saxpy_right(b));
  jit.compile(examples::saxpy(Scalar::F32), wg(8));
  CHECK(jit.stats().compiles == 2);  // the memory cache still works
}

TEST_CASE("SPVJIT_CACHE=off and disk_cache = false write nothing") {
  test::TempDir dir;
  ::setenv("SPVJIT_CACHE", "off", 1);
  Jit off_by_env(test::runtime(), in_dir(dir));
  ::unsetenv("SPVJIT_CACHE");
  CHECK(off_by_env.cache_dir().empty());
  off_by_env.compile(examples::saxpy(Scalar::F32), wg(2));
  JitOptions options = in_dir(dir);
  options.disk_cache = false;
  Jit off_by_option(test::runtime(), options);
  off_by_option.compile(examples::saxpy(Scalar::F32), wg(2));
  CHECK(entries(dir.path()).empty());
  CHECK(off_by_option.stats().compiles == 1);
}

TEST_CASE("a change of build options misses the entry of other options") {
  test::TempDir dir;
  const auto def = examples::saxpy(Scalar::F32);
  Jit plain(test::runtime(), in_dir(dir));
  plain.compile(def, wg(64));
  JitOptions options = in_dir(dir);
  options.build_options = "-cl-mad-enable";
  Jit mad(test::runtime(), options);
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
  test::TempDir dir;
  const auto def = examples::saxpy(Scalar::F32);
  std::string file1, file2;
  {
    Jit jit(test::runtime(), in_dir(dir));
    jit.compile(def, wg(16));
    file1 = entries(dir.path()).at(0);
    jit.compile(def, wg(32));
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
    Jit jit(test::runtime(), in_dir(dir));
    jit.compile(def, wg(16));
    CHECK(jit.stats().disk_hits == 1);
  }
  const auto size1 = fs::file_size(file1), size2 = fs::file_size(file2);
  JitOptions capped = in_dir(dir);
  capped.cache_max_bytes = size1 + size2 + std::min(size1, size2) / 2;  // room for two
  Jit jit(test::runtime(), capped);
  jit.compile(def, wg(64));
  CHECK(fs::exists(file1));
  CHECK_FALSE(fs::exists(file2));
  CHECK(entries(dir.path()).size() == 2);
}

TEST_CASE("a temporary file left by a killed writer is cleaned up, a fresh one is kept") {
  test::TempDir dir;
  const std::string stale = dir / "0123.spvk.tmp.99999.0";
  const std::string fresh = dir / "4567.spvk.tmp.99999.1";
  std::ofstream(stale) << "half an entry";
  std::ofstream(fresh) << "an entry being written";
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(1));
  Jit jit(test::runtime(), in_dir(dir));
  jit.compile(examples::saxpy(Scalar::F32), wg(8));
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(fresh));
}
