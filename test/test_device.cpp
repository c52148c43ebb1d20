#include <doctest/doctest.h>

#include <fstream>
#include <limits>
#include <string>
#include <vector>

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

namespace {

// Subnormal products and quotients of one type: kept (or flushed) as the device says, and
// division correctly rounded where it says so.
template <class T>
void check_float_facts(bool denormals, bool correctly_rounded_divide) {
  CAPTURE(name(scalar_of<T>));
  KernelBuilder kb(std::string("float_facts_") + std::string(name(scalar_of<T>)));
  auto product = kb.param<Global<T>>("product");
  auto quotient = kb.param<Global<T>>("quotient");
  auto a = kb.param<Const<T>>("a");
  auto b = kb.param<Const<T>>("b");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    product[i] = a[i] * b[i];
    quotient[i] = a[i] / b[i];
  });
  Kernel k = test::jit().compile(kb.finish());
  const std::size_t count = 64;
  std::vector<T> a_host(count), b_host(count);
  for (std::size_t k = 0; k < count; ++k) {
    a_host[k] = k % 2 == 0 ? std::numeric_limits<T>::min() : static_cast<T>(1.0 + 0.37 * k);
    b_host[k] = k % 2 == 0 ? T(0.25) : static_cast<T>(3.0 + 0.11 * k);
  }
  auto& rt = test::runtime();
  auto A = rt.upload(a_host), B = rt.upload(b_host);
  auto P = rt.zeros<T>(count), Q = rt.zeros<T>(count);
  k.launch(NDRange{count}, P, Q, A, B);
  rt.synchronize();
  const auto p = P.to_vector(), q = Q.to_vector();
  for (std::size_t k = 0; k < count; ++k) {
    CAPTURE(k);
    if (k % 2 == 0) {  // the least normal times 1/4: a subnormal, or 0 where flushed
      CHECK(p[k] == (denormals ? a_host[k] * b_host[k] : T(0)));
    } else if (correctly_rounded_divide) {
      CHECK(q[k] == a_host[k] / b_host[k]);
    }
  }
}

}  // namespace

// Issue #67: the device's floating-point facts, as DeviceInfo reports them and as kernels see
// them. PoCL's CPU devices keep subnormals and round division correctly in both types.
TEST_CASE("DeviceInfo's floating-point facts hold for kernels") {
  const DeviceInfo& device = test::runtime().device();
  check_float_facts<float>(device.denormals_f32, device.correctly_rounded_divide_sqrt_f32);
  if (device.fp64) check_float_facts<double>(device.denormals_f64, true);
  if (device.cpu && device.platform_name.find("Portable Computing Language") != std::string::npos) {
    CHECK(device.denormals_f32);
    CHECK(device.denormals_f64);
    CHECK(device.correctly_rounded_divide_sqrt_f32);
  }
}
