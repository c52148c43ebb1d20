// Hosts that took the process down or got wrong answers (issue #29), each case a child process
// (test/hostile_probe.cpp) whose host trait is the input: two Runtimes of different dispatch,
// fds 0-2 closed, small thread stacks, exit() with the Jit alive, another OpenCL user starting
// at the same moment, kernel names like the device's own symbols; and one hostile input, a kernel
// of 10,000 statements (issue #34). docs/reliability.md lists them.
#include <doctest/doctest.h>

#include <pthread.h>

#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "common/full_stack.hpp"
#include "test/run_command.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

namespace {

// The probe with fresh PoCL and spvjit caches (so that each run compiles), without the caller's
// POCL_DEVICES (an adaptive Runtime sets it in its own process) and, as a user's process runs,
// without OCL_ICD_VENDORS: the ICD loader reads the system's list, Debian's PoCL 3.1 included.
std::string probe(const test::TempDir& dir, const std::string& args,
                  const std::string& prefix = {}) {
  return "env -u POCL_DEVICES -u OCL_ICD_VENDORS POCL_CACHE_DIR=" + dir.path() +
         "/pocl SPVJIT_CACHE_DIR=" + dir.path() + "/spvjit " + prefix +
         " timeout 300 " SPVJIT_HOSTILE_PROBE " " + args;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Debian's jemalloc, where installed (make deps installs it): its different reuse of freed
// memory turned the heap corruption of two Runtimes into wrong answers instead of crashes.
std::string jemalloc() {
  for (const char* path : {"/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
                           "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2"}) {
    if (std::ifstream(path).good()) return path;
  }
  return {};
}

}  // namespace

TEST_CASE("hostile hosts: an adaptive and a Single Runtime, four threads, right answers") {
  // Was: SIGABRT/SIGSEGV in malloc under glibc, zeros from the Single Runtime under jemalloc:
  // the Single Runtime took PoCL's `basic` device (first once POCL_DEVICES is "basic pthread").
  test::TempDir dir("spvjit-hostile");
  std::string out;
  CHECK_MESSAGE(test::run_command(probe(dir, "two-runtimes 4"), out) == 0, out);
  CHECK_MESSAGE(out.find("ok two runtimes") != std::string::npos, out);
  // The Single Runtime is on `pthread` (cpu-*), not on `basic` (cpu-minimal-*).
  CHECK_MESSAGE(out.find("(single)") != std::string::npos, out);
  CHECK_MESSAGE(out.find("and cpu-minimal") == std::string::npos, out);
}

TEST_CASE(
    "hostile hosts: a Single Runtime asked for `basic` beside an adaptive one, four threads") {
  // Two threads on one `basic` device: one thread's enqueue ran the other's kernel, whose
  // clFinish returned before it was done (third_party/pocl/patches/0007).
  test::TempDir dir("spvjit-hostile");
  std::string out;
  CHECK_MESSAGE(test::run_command(probe(dir, "two-runtimes 4 cpu-minimal"), out) == 0, out);
  CHECK_MESSAGE(out.find("and cpu-minimal") != std::string::npos, out);
}

// Not under ASan, whose allocator must come first (it refuses a preloaded one); the case above
// runs there instead.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool asan_build = true;
#else
constexpr bool asan_build = false;
#endif

TEST_CASE("hostile hosts: two Runtimes under jemalloc" * doctest::skip(asan_build)) {
  const std::string lib = jemalloc();
  REQUIRE_MESSAGE(!lib.empty(), "Debian's libjemalloc2 must be installed (make deps does)");
  test::TempDir dir("spvjit-hostile");
  std::string out;
  for (const char* single : {"", " cpu-minimal"}) {
    CAPTURE(single);
    out.clear();
    CHECK_MESSAGE(
        test::run_command(probe(dir, std::string("two-runtimes 4") + single, "LD_PRELOAD=" + lib),
                          out) == 0,
        out);
    CHECK_MESSAGE(out.find("ok two runtimes") != std::string::npos, out);
  }
}

TEST_CASE("hostile hosts: a daemon with fds 0-2 closed compiles and runs") {
  // Was: "TranslationError: ... spvjit-translate: cannot read its input" (the translator's
  // input memfd landed on fd 0 and kept close-on-exec across a dup2 onto itself).
  test::TempDir dir("spvjit-hostile");
  const std::string report = dir.path() + "/report";
  std::string out;
  const int code = test::run_command(probe(dir, "closed-fds " + report), out);
  const std::string verdict = read_file(report);
  CHECK_MESSAGE(code == 0, verdict << out);
  CHECK_MESSAGE(verdict.find("ok closed fds") != std::string::npos, verdict << out);
}

TEST_CASE("hostile hosts: threads with small stacks compile and launch on both dispatches") {
  // Was: SIGSEGV at 256 KiB (a 1024-float private array's group sized for an 8 MiB stack, run
  // inline on the caller's) and at 64 KiB for any kernel (PoCL's work-group compile on it).
  for (const char* kib : {"256", "64", "32"}) {
    CAPTURE(kib);
    test::TempDir dir("spvjit-hostile");
    std::string out;
    CHECK_MESSAGE(test::run_command(probe(dir, std::string("small-stack ") + kib), out) == 0, out);
    CHECK_MESSAGE(out.find("ok small stack") != std::string::npos, out);
  }
}

TEST_CASE("hostile hosts: exit() with a Jit alive and its entries on disk exits cleanly") {
  // Was (with the background write, now removed): 0-1 clean exits of 10, the writer thread in
  // PoCL's link while exit() destroyed LLVM's globals.
  test::TempDir dir("spvjit-hostile");
  for (int run = 0; run < 5; ++run) {
    CAPTURE(run);
    std::string out;
    CHECK_MESSAGE(
        test::run_command(probe(dir, "exit-with-jit " + dir.path() + "/spvjit"), out) == 0, out);
    CHECK_MESSAGE(out.find("ok exit with a Jit alive") != std::string::npos, out);
  }
}

// Issue #53: the host ends its process (exit(), return from main, quick_exit) while a thread of
// its is inside spvjit. Was, before the exit gate (common/exit_gate.hpp): SIGSEGV in
// clCreateProgramWithIL on a released context (return from main, 5 runs of 12), PoCL's
// "PTHREAD ERROR in POclReleaseEvent" then SIGABRT or SIGSEGV (launches, 2 of 6). Each run
// ends at another moment of the work (0 to 285 ms after it began); each must exit 0 after
// the host's own atexit handler ran. Fewer runs under ASan, where a probe takes seconds.
#if defined(__SANITIZE_ADDRESS__)
constexpr int exit_runs = 2;
#else
constexpr int exit_runs = 20;
#endif

static void exits_cleanly_during(const std::string& work, bool disk_cache) {
  for (int run = 0; run < exit_runs; ++run) {
    CAPTURE(run);
    test::TempDir dir("spvjit-hostile");
    const std::string cache = disk_cache ? dir.path() + "/spvjit" : "off";
    const std::string delay_us = std::to_string(run * 15000);
    std::string out;
    CHECK_MESSAGE(test::run_command(
                      probe(dir, "exit-during " + work + " " + cache + " " + delay_us), out) == 0,
                  out);
    CHECK_MESSAGE(out.find("host atexit ran") != std::string::npos, out);
  }
}

TEST_CASE("hostile hosts: exit() while another thread compiles, disk cache off and on") {
  exits_cleanly_during("compile", false);
  exits_cleanly_during("compile", true);
}

TEST_CASE("hostile hosts: return from main and quick_exit while another thread compiles") {
  exits_cleanly_during("compile-return", false);
  exits_cleanly_during("compile-quick", false);
}

TEST_CASE("hostile hosts: exit() while another thread launches, or reads a buffer") {
  exits_cleanly_during("launch", false);
  exits_cleanly_during("read", false);
}

// exit() after a launch's enqueue returned, its command not yet run: PoCL's own driver thread
// compiles the launch's work-group function, then runs it, with no thread inside spvjit. Was:
// SIGSEGV on that thread (pocl::OptimizeWorkItemFuncCalls reading a libpocl static exit() had
// destroyed) in 1 of 4 to 24 runs of "launch" under ASan, where the enqueue and synchronize
// left that window; the exit now drains each queue's commands first (common/exit_gate.hpp).
TEST_CASE("hostile hosts: exit() while a launch nobody waits for is still in PoCL's queue") {
  exits_cleanly_during("launch-pending", false);
}

// Issue #53: a host that sends its compiling thread SIGUSR2 every 2 ms (its handler without
// SA_RESTART), as a profiler or watchdog does. Was: abort() in 2 runs of 3, "ld.lld: error:
// failed to write to the output file: No such file or directory | Final linking of kernel ...
// failed." on PoCL's driver thread: PoCL's LLVM had put its own handlers over the host's
// (SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2), and each signal made it delete the output of the
// link in flight (third_party/pocl/patches/0009). The probe also checks that those five
// handlers are still the host's after the Runtime starts and after the compiles and launches,
// with the system's vendor list: where Debian's PoCL 3.1 is installed beside ours (make deps
// installs it), starting its devices put its shared libLLVM's handlers over the host's, which
// spvjit now puts back (runtime/host_signal_handlers.hpp).
TEST_CASE("hostile hosts: a signal every 2 ms on the compiling thread, and the host's handlers") {
  for (int run = 0; run < exit_runs; ++run) {
    CAPTURE(run);
    test::TempDir dir("spvjit-hostile");
    std::string out;
    CHECK_MESSAGE(test::run_command(probe(dir, "signal-storm 3"), out) == 0, out);
    CHECK_MESSAGE(out.find("ok signal storm") != std::string::npos, out);
  }
}

TEST_CASE("hostile hosts: another thread's first OpenCL call beside a Runtime's start") {
  // Was: DeviceNotFoundError "... the ICD loader found no platform ... Install PoCL 6" (3 of 3):
  // PoCL's first device probe let a second thread through with no device
  // (third_party/pocl/patches/0006).
  for (int run = 0; run < 4; ++run) {
    CAPTURE(run);
    test::TempDir dir("spvjit-hostile");
    std::string out;
    CHECK_MESSAGE(test::run_command(probe(dir, "concurrent-opencl"), out) == 0, out);
    CHECK_MESSAGE(out.find("ok concurrent OpenCL start") != std::string::npos, out);
  }
}

TEST_CASE("hostile hosts: kernel names like the device's symbols run or are a UserError") {
  // Was: an abort in PoCL for 2048+ characters, a segfault for _Z13get_global_idj, SPIR-V that
  // spirv-val rejects for _Z3sinf, an OpenCLError at clCreateKernel for printf.
  test::TempDir dir("spvjit-hostile");
  std::string out;
  CHECK_MESSAGE(test::run_command(probe(dir, "names"), out) == 0, out);
  CHECK_MESSAGE(out.find("ok names") != std::string::npos, out);
  // Each outcome as designed: reserved and over-long names refused, plain ones run.
  for (const char* refused :
       {"refused printf:", "refused _Z13get_global_idj:", "refused _Z3sinf:", "refused __spvjit:",
        "refused kkkkkkkk...(1001)", "refused kkkkkkkk...(2048)", "refused nnnnnnnn...(4096)",
        "refused with space"}) {
    CHECK_MESSAGE(out.find(refused) != std::string::npos, refused << "\n" << out);
  }
  for (const char* ran :
       {"ran get_global_id", "ran main", "ran sin", "ran memcpy", "ran Sleef_expf_u10",
        "ran LOG_INV_TBL", "ran kkkkkkkk...(255)", "ran mmmmmmmm...(1000)"}) {
    CHECK_MESSAGE(out.find(ran) != std::string::npos, ran << "\n" << out);
  }
}

TEST_CASE("hostile input: a kernel of 10,000 statements compiles, runs and stays small") {
  // Was: not finished in 240 s (bounds checks and report paths per access in each coarsened
  // body: 5.9 KB of SPIR-V per statement). The time limit only catches a hang; the size is
  // the goal of issue #34 (at most 100 bytes of SPIR-V per statement).
  test::TempDir dir("spvjit-hostile");
  std::string out;
  REQUIRE_MESSAGE(test::run_command(probe(dir, "statements 10000"), out) == 0, out);
  const auto at = out.find("ok statements=10000 spirv_bytes=");
  REQUIRE_MESSAGE(at != std::string::npos, out);
  const std::size_t bytes =
      std::stoull(out.substr(at + std::string("ok statements=10000 spirv_bytes=").size()));
  CHECK_MESSAGE(bytes <= 100 * 10000, bytes);
}

TEST_CASE(
    "full stacks: the main thread and std::thread run calls themselves, a 256 KiB thread hands "
    "them off") {
  // The main thread's stack is reported a page short of RLIMIT_STACK: it was taken for a small
  // one, and every launch from it went through a companion thread.
  CHECK(detail::this_thread_has_full_stack());
  bool in_std_thread = false;
  std::thread([&] { in_std_thread = detail::this_thread_has_full_stack(); }).join();
  CHECK(in_std_thread);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  struct Seen {
    bool full = true;
    bool ran_elsewhere = false;
  } seen;
  pthread_t thread;
  REQUIRE(pthread_create(
              &thread, &attr,
              [](void* p) -> void* {
                auto* s = static_cast<Seen*>(p);
                s->full = detail::this_thread_has_full_stack();
                const pthread_t self = pthread_self();
                detail::with_full_stack(
                    [&] { s->ran_elsewhere = !pthread_equal(self, pthread_self()); });
                return nullptr;
              },
              &seen) == 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  CHECK_FALSE(seen.full);
  CHECK(seen.ran_elsewhere);
}
