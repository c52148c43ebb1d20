#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"

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
  char dir[] = "/tmp/spvjit-empty-vendors-XXXXXX";
  REQUIRE(::mkdtemp(dir) != nullptr);
  std::string out;
  const int code = test::run_command(std::string("OCL_ICD_VENDORS=") + dir + " " SPVJIT_DEVICE_PROBE, out);
  ::rmdir(dir);
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
