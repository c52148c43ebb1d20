#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

TEST_CASE("the runtime picks a device that accepts SPIR-V") {
  const auto& info = test::runtime().device();
  CHECK(info.accepts_spirv());
  CHECK(info.max_workgroup_size > 0);
  bool listed = false;
  for (const auto& d : Runtime::list_devices()) listed = listed || d.name == info.name;
  CHECK(listed);
}

TEST_CASE("with no SPIR-V device visible, the runtime throws and lists what it saw") {
  test::TempDir dir("spvjit-empty-vendors");
  std::string out;
  const int code =
      test::run_command("OCL_ICD_VENDORS=" + dir.path() + " " SPVJIT_DEVICE_PROBE, out);
  CHECK_MESSAGE(code == 2, out);
  CHECK(out.find("no OpenCL device accepts SPIR-V") != std::string::npos);
  CHECK(out.find("devices seen: none") != std::string::npos);
}

TEST_CASE("a device filter that matches nothing names the devices seen") {
  std::string out;
  const int code = test::run_command("SPVJIT_DEVICE=no-such-device " SPVJIT_DEVICE_PROBE, out);
  CHECK_MESSAGE(code == 2, out);
  CHECK(out.find("no-such-device") != std::string::npos);
  CHECK(out.find(test::runtime().device().name) != std::string::npos);
}

// PoCL's platform vanishes when it cannot make its kernel cache folder or POCL_DEVICES names no
// driver it has; the error says which, instead of "install PoCL". Child processes: PoCL reads
// both once per process. HOME is a file, which no one (root included) can make a folder in.
TEST_CASE("a kernel cache folder PoCL cannot create is named in DeviceNotFoundError") {
  test::TempDir dir;
  const std::string file = dir / "home-is-a-file";
  { std::ofstream(file) << "not a folder"; }
  const std::string clean = "env -u POCL_CACHE_DIR -u XDG_CACHE_HOME -u POCL_DEVICES ";
  std::string out;
  CHECK_MESSAGE(test::run_command(clean + "HOME=" + file + " " SPVJIT_DEVICE_PROBE, out) == 2, out);
  CHECK_MESSAGE(out.find("PoCL cannot create its kernel cache folder " + file +
                         "/.cache/pocl/kcache (" + file + " is not a folder)") != std::string::npos,
                out);
  CHECK(out.find("set POCL_CACHE_DIR to a folder this process may write") != std::string::npos);
  CHECK(out.find("make deps") == std::string::npos);
  out.clear();
  CHECK_MESSAGE(
      test::run_command(clean + "XDG_CACHE_HOME=" + file + " " SPVJIT_DEVICE_PROBE, out) == 2, out);
  CHECK_MESSAGE(out.find("PoCL cannot create its kernel cache folder " + file + "/pocl/kcache") !=
                    std::string::npos,
                out);
  out.clear();
  CHECK_MESSAGE(
      test::run_command(clean + "POCL_CACHE_DIR=" + file + "/pocl " SPVJIT_DEVICE_PROBE, out) == 2,
      out);
  CHECK_MESSAGE(
      out.find("folder " + file + "/pocl (" + file + " is not a folder)") != std::string::npos,
      out);
  CHECK(out.find("point POCL_CACHE_DIR at a folder this process may write") != std::string::npos);
  // The fix the message gives works.
  out.clear();
  CHECK_MESSAGE(test::run_command(clean + "HOME=" + file + " POCL_CACHE_DIR=" + dir.path() +
                                      "/pocl " SPVJIT_DEVICE_PROBE,
                                  out) == 0,
                out);
}

TEST_CASE("a POCL_DEVICES naming no CPU driver is named in DeviceNotFoundError") {
  std::string out;
  CHECK_MESSAGE(test::run_command("POCL_DEVICES=garbage " SPVJIT_DEVICE_PROBE, out) == 2, out);
  CHECK_MESSAGE(out.find("POCL_DEVICES='garbage' names no CPU driver (PoCL knows no driver "
                         "'garbage'): PoCL's CPU drivers are pthread (also spelled cpu), basic "
                         "(cpu-minimal)") != std::string::npos,
                out);
  CHECK(out.find("make deps") == std::string::npos);
  out.clear();
  CHECK_MESSAGE(test::run_command("POCL_DEVICES=PTHREAD " SPVJIT_DEVICE_PROBE, out) == 2, out);
  CHECK(out.find("POCL_DEVICES='PTHREAD' names no CPU driver") != std::string::npos);
  // The names the message gives for the CPU are the ones PoCL takes.
  for (const char* ok : {"cpu", "pthread", "'garbage pthread'"}) {
    CAPTURE(ok);
    out.clear();
    CHECK_MESSAGE(
        test::run_command(std::string("POCL_DEVICES=") + ok + " " SPVJIT_DEVICE_PROBE, out) == 0,
        out);
  }
}
