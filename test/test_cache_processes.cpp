// The disk cache across processes (test/cache_probe.cpp): a new process reuses another's
// entry, two processes compile at once, a process killed mid-compile leaves no broken entry, a
// process leaving right after a compile (its entry still being written) leaves it whole.
#include <doctest/doctest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

#include "jit/cache/cache_entry.hpp"
#include "test/disk_cache_helpers.hpp"

using namespace spvjit;
using namespace spvjit::test;

TEST_CASE("a new process loads the kernel another process compiled") {
  TempDir dir;
  std::string out;
  CHECK_MESSAGE(run_command(probe(dir), out) == 0, out);
  CHECK_MESSAGE(out.find("compiles=1 disk_hits=0 disk_writes=1 wrong=0") != std::string::npos, out);
  out.clear();
  CHECK_MESSAGE(run_command(probe(dir), out) == 0, out);
  CHECK_MESSAGE(out.find("compiles=0 disk_hits=1 disk_writes=0 wrong=0") != std::string::npos, out);
}

TEST_CASE("two processes compiling the same kernel at once both succeed and leave one entry") {
  TempDir dir;
  FILE* a = start_command(probe(dir));
  FILE* b = start_command(probe(dir));
  std::string out_a, out_b;
  CHECK_MESSAGE(finish_command(a, out_a) == 0, out_a);
  CHECK_MESSAGE(finish_command(b, out_b) == 0, out_b);
  const auto files = entries(dir.path());
  REQUIRE(files.size() == 1);  // no temporary files left behind
  CHECK(files[0].extension() == ".spvk");
  CHECK(detail::decode_entry(read_all(files[0])).ok());
  std::string out;
  CHECK(run_command(probe(dir), out) == 0);
  CHECK_MESSAGE(out.find("disk_hits=1") != std::string::npos, out);
}

TEST_CASE("a process killed while compiling leaves no entry a later process trips over") {
  TempDir dir;
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
    CHECK_MESSAGE(run_command(probe(dir), out) == 0, out);
  }
}

TEST_CASE("a process leaving right after a compile leaves its entry whole, by exit or return") {
  // The entry is written inside compile(); exit() and return then leave with the Jit alive or
  // destroyed, without a crash (the background write of before crashed in exit, issue #29).
  for (const char* leave : {"exit", "return"}) {
    CAPTURE(leave);
    TempDir dir;
    std::string out;
    CHECK_MESSAGE(run_command(probe(dir) + " " + leave, out) == 0, out);
    const auto files = entries(dir.path());
    REQUIRE(files.size() == 1);  // the entry, no temporary file
    CHECK(files[0].extension() == ".spvk");
    CHECK(detail::decode_entry(read_all(files[0])).ok());
    out.clear();
    CHECK_MESSAGE(run_command(probe(dir), out) == 0, out);
    CHECK_MESSAGE(out.find("compiles=0 disk_hits=1 disk_writes=0 wrong=0") != std::string::npos,
                  out);
  }
}

TEST_CASE("a process leaving by _exit right after a compile leaves a whole entry or none") {
  TempDir dir;
  for (int run = 0; run < 3; ++run) {
    CAPTURE(run);
    for (const auto& p : entries(dir.path())) fs::remove(p);
    std::string out;
    CHECK_MESSAGE(run_command(probe(dir) + " _exit", out) == 0, out);
    for (const auto& p : entries(dir.path())) {
      if (p.extension() == ".spvk") CHECK(detail::decode_entry(read_all(p)).ok());
    }
    out.clear();
    CHECK_MESSAGE(run_command(probe(dir), out) == 0, out);
    CHECK_MESSAGE(out.find("wrong=0") != std::string::npos, out);
  }
}

TEST_CASE("an entry loads in a process with an empty PoCL cache and runs right") {
  // The entry is written inside compile(), before any launch: PoCL's binary holds the generic
  // work-group function (directory 0-0-0), and a process whose PoCL cache is empty compiles the
  // one for its local size at its first launch.
  TempDir dir, pocl_first, pocl_second;
  std::string out;
  CHECK_MESSAGE(run_command("POCL_CACHE_DIR=" + pocl_first.path() + " " + probe(dir), out) == 0,
                out);
  CHECK_MESSAGE(out.find("compiles=1 disk_hits=0 disk_writes=1 wrong=0") != std::string::npos, out);
  const auto files = entries(dir.path());
  REQUIRE(files.size() == 1);
  const auto bytes = read_all(files[0]);
  const std::string text(bytes.begin(), bytes.end());
  CHECK(text.find("0-0-0/") != std::string::npos);
  out.clear();
  CHECK_MESSAGE(run_command("POCL_CACHE_DIR=" + pocl_second.path() + " " + probe(dir), out) == 0,
                out);
  CHECK_MESSAGE(out.find("compiles=0 disk_hits=1 disk_writes=0 wrong=0") != std::string::npos, out);
}
