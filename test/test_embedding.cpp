// spvjit inside a host application, tested the way a user's process runs: a child process
// (test/host_probe.cpp) with the host's environment, signal state and installed packages as
// the inputs. No OCL_ICD_VENDORS (the Makefile's is removed): the ICD loader reads the system's
// vendor list, as it does for every application.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "test/run_command.hpp"
#include "test/skip.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

namespace {

// The probe in a clean PoCL cache and spvjit cache (or the caller's), with the user's ICD list.
std::string probe_command(const test::TempDir& dir, const std::string& args,
                          const std::string& spvjit_cache = {}) {
  return "env -u OCL_ICD_VENDORS POCL_CACHE_DIR=" + dir.path() + "/pocl SPVJIT_CACHE_DIR=" +
         (spvjit_cache.empty() ? dir.path() + "/spvjit" : spvjit_cache) +
         " timeout 300 " SPVJIT_HOST_PROBE " " + args;
}

bool installed(const std::string& package) {
  std::string out;
  return test::run_command("dpkg-query -W -f='${Status}' " + package, out) == 0 &&
         out.find("install ok installed") != std::string::npos;
}

}  // namespace

TEST_CASE("embedding: Debian's own PoCL installed beside ours, no OCL_ICD_VENDORS") {
  // Both PoCLs registered LLVM command-line options in the one libLLVM-15 and the process
  // aborted before main ("Option 'add-wi-metadata' registered more than once!").
  REQUIRE_MESSAGE(installed("pocl-opencl-icd"),
                  "Debian's pocl-opencl-icd must be installed for this test (make deps does)");
  test::TempDir dir("spvjit-embed");
  std::string out;
  CHECK_MESSAGE(test::run_command(probe_command(dir, ""), out) == 0, out);
  CHECK_MESSAGE(out.find("ok compile_ms=") != std::string::npos, out);
  out.clear();
  CHECK_MESSAGE(
      test::run_command("env -u OCL_ICD_VENDORS timeout 120 " SPVJIT_TOOL " devices", out) == 0,
      out);
  CHECK_MESSAGE(out.find("Portable Computing Language") != std::string::npos, out);
}

TEST_CASE("embedding: a host that ignores SIGCHLD compiles, cold and from the disk cache") {
  // SIG_IGN reaps every child at once: PoCL's waitpid() for its helper processes failed and it
  // aborted ("pocl: waitpid() failed.") or failed the final link ("No child processes").
  test::TempDir dir("spvjit-embed");
  std::string out;
  CHECK_MESSAGE(
      test::run_command(probe_command(dir, "--sigchld=ignore --name=sigchld_ignore"), out) == 0,
      out);
  CHECK_MESSAGE(out.find("ok compile_ms=") != std::string::npos, out);
  // The same kernel again from spvjit's warm disk cache, with PoCL's own cache empty.
  test::TempDir pocl_empty("spvjit-embed");
  out.clear();
  CHECK_MESSAGE(
      test::run_command(probe_command(pocl_empty, "--sigchld=ignore --name=sigchld_ignore",
                                      dir.path() + "/spvjit"),
                        out) == 0,
      out);
  CHECK_MESSAGE(out.find("ok compile_ms=") != std::string::npos, out);
}

TEST_CASE("embedding: a host whose SIGCHLD handler reaps every child compiles") {
  test::TempDir dir("spvjit-embed");
  std::string out;
  CHECK_MESSAGE(
      test::run_command(probe_command(dir, "--sigchld=reap --name=sigchld_reap"), out) == 0, out);
  CHECK_MESSAGE(out.find("ok compile_ms=") != std::string::npos, out);
}

TEST_CASE("embedding: a host thread holding stdout's lock does not stall a compile") {
  // The forked translation flushed every FILE first, taking each one's lock: a host thread
  // holding stdout stalled a compile for as long as it held it.
  test::TempDir dir("spvjit-embed");
  std::string out;
  CHECK_MESSAGE(test::run_command(probe_command(dir, "--hold-stdout --name=stdout_lock"), out) == 0,
                out);
  CHECK_MESSAGE(out.find("ok compile_ms=") != std::string::npos, out);
}

TEST_CASE("embedding: a host at its pids limit gets an exception from compile, then compiles") {
  // The forked translation failed outright there ("translate: fork failed: Resource
  // temporarily unavailable"). The translator is a program now, so at the limit the compile
  // must be an exception the host can survive, and work once the limit is lifted. Needs root
  // and cgroup v1's pids controller (as CI has); elsewhere the case is reported skipped.
  const std::string cgroup = "/sys/fs/cgroup/pids/spvjit-test-" + std::to_string(::getpid());
  if (::mkdir(cgroup.c_str(), 0755) != 0) {
    test::skip("no pids cgroup could be made at " + cgroup + " (" + std::strerror(errno) + ")");
    return;
  }
  test::TempDir dir("spvjit-embed");
  std::string out;
  const std::string enter = "sh -c 'echo $$ > " + cgroup + "/cgroup.procs && exec " +
                            probe_command(dir, "--pids-cgroup=" + cgroup + " --name=pids_limit") +
                            "'";
  const int code = test::run_command(enter, out);
  ::rmdir(cgroup.c_str());
  CHECK_MESSAGE(code == 0, out);
  CHECK_MESSAGE(
      out.find(
          "at the limit: compile of kernel 'pids_limit_limited': the SPIR-V translator program "
          "could not run") != std::string::npos,
      out);
  CHECK_MESSAGE(out.find("ok compile_ms=") != std::string::npos, out);
}

TEST_CASE("embedding: a host that links its own LLVM statically") {
  // Two LLVMs in one process shared one command-line registry and aborted the host before main
  // ("Option 'opaque-pointers' registered more than once!"): spvjit's LLVM is private now, and
  // so is PoCL's, and neither loads the shared libLLVM-15.
  test::TempDir dir("spvjit-embed");
  const std::string caches =
      "POCL_CACHE_DIR=" + dir.path() + " SPVJIT_CACHE_DIR=" + dir.path() + "/spvjit timeout 300 ";
  std::string out;
  // With the system's ICD list: Debian's PoCL 3.1 loads too when it is installed.
  CHECK_MESSAGE(
      test::run_command("env -u OCL_ICD_VENDORS " + caches + SPVJIT_STATIC_LLVM_HOST, out) == 0,
      out);
  CHECK_MESSAGE(out.find("ok") == 0, out);
  // A host exporting its LLVM (-rdynamic) cannot load Debian's PoCL 3.1, which brings the
  // shared libLLVM-15 whose options then clash with the host's, with or without spvjit: run it
  // with a vendor list holding our PoCL alone, whatever the caller's environment says.
  const std::string ours = "/etc/OpenCL/vendors/spvjit-pocl6.icd";
  REQUIRE_MESSAGE(std::filesystem::exists(ours),
                  ours << " is missing: make deps installs it (third_party/pocl/build.sh)");
  std::filesystem::create_directory(dir / "vendors");
  std::filesystem::copy_file(ours, dir / "vendors/spvjit-pocl6.icd");
  out.clear();
  CHECK_MESSAGE(test::run_command("OCL_ICD_VENDORS=" + dir.path() + "/vendors " + caches +
                                      SPVJIT_STATIC_LLVM_HOST_EXPORTED,
                                  out) == 0,
                out);
  CHECK_MESSAGE(out.find("ok") == 0, out);
}
