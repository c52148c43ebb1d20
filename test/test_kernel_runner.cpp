// PoCL's kernel runner (patch 0016, third_party/pocl/patches; runtime/kernel_runner.hpp): a built
// kernel's work-groups run on the calling thread from any box of the launch, seeing the whole
// launch (absolute group ids, its group count and global size), with local memory (arguments and
// the kernel's own) per thread, from two threads at once; refusals before any group runs (an
// argument not set, a buffer no command has placed on the device, a box outside the launch, a
// geometry an enqueue would refuse, a device that is not basic); and no allocation per run. On a
// PoCL without the patch the entry points are absent and every case fails.
#include <doctest/doctest.h>

#include <CL/cl.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "runtime/kernel_runner.hpp"
#include "spvjit/runtime.hpp"
#include "test/child_case.hpp"
#include "test/skip.hpp"
#include "test/spvjit_platform.hpp"
#ifdef SPVJIT_HAVE_ALLOC_COUNTER
#include "test/alloc_counter.hpp"
#endif

using namespace spvjit;
using spvjit::detail::KernelRunnerApi;
using spvjit::detail::PoclKernelRunner;

namespace {

const char* source = R"CL(
kernel void scaled(global float* out, global const float* in, float s) {
  size_t i = get_global_id(0);
  out[i] = in[i] * s + (float)get_group_id(0) * 1000.0f + (float)get_num_groups(0) * 0.5f
           + (float)get_global_size(0) * 0.25f;
}
kernel void reversed(global int* out, global const int* in, local int* tile) {
  local int own[8];
  size_t l = get_local_id(0), n = get_local_size(0);
  size_t at = get_global_id(0) + get_global_size(0) * get_global_id(1);
  tile[l] = in[at];
  own[l % 8] = (int)get_group_id(1);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[at] = tile[n - 1 - l] + own[l % 8] * 100000;
}
)CL";

// PoCL's basic device beside pthread, asked for before the child process starts PoCL.
const char* const pocl_devices = "POCL_DEVICES='basic pthread'";

void check(cl_int err, const char* what) {
  REQUIRE_MESSAGE(err == CL_SUCCESS, what << ": " << err);
}

// PoCL's basic device ("cpu-minimal"), its context, a queue and the program above.
struct Basic {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_device_id threaded = nullptr;  // pthread, when present
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  std::optional<KernelRunnerApi> api;

  bool open() {
    // An adaptive Runtime asks PoCL for its basic device beside pthread; each case runs in a
    // child process of its own with POCL_DEVICES set (test/child_case.hpp).
    static Runtime adaptive({.dispatch = Dispatch::Adaptive,
                             .inline_threshold = SIZE_MAX,
                             .split_threshold = SIZE_MAX});
    // spvjit's PoCL, else the first platform (where the cases then fail: no kernel runner).
    platform = test::find_spvjit_platform().id;
    REQUIRE_MESSAGE(platform, "clGetPlatformIDs found no OpenCL platform");
    cl_device_id devices[8];
    cl_uint count = 0;
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 8, devices, &count), "clGetDeviceIDs");
    for (cl_uint i = 0; i < count; ++i) {
      char name[256] = {};
      clGetDeviceInfo(devices[i], CL_DEVICE_NAME, sizeof name, name, nullptr);
      if (std::strncmp(name, "cpu-minimal", 11) == 0) {
        device = devices[i];
      } else if (std::strncmp(name, "cpu", 3) == 0) {
        threaded = devices[i];
      }
    }
    if (!device) return false;
    cl_int err = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    check(err, "clCreateCommandQueueWithProperties");
    program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
    api = KernelRunnerApi::find(platform);
    return true;
  }
  ~Basic() {
    if (program) clReleaseProgram(program);
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }

  cl_kernel kernel(const char* name) const {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    check(err, "clCreateKernel");
    return k;
  }
  // A buffer of `bytes` that a command has written (so it is on the device).
  cl_mem written(const void* data, std::size_t bytes) const {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    check(err, "clCreateBuffer");
    check(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
    return m;
  }
  template <class T>
  std::vector<T> read(cl_mem m, std::size_t n) const {
    std::vector<T> out(n);
    check(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof(T), out.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    return out;
  }
};

}  // namespace

TEST_CASE("kernel runner: a launch's groups run in boxes from two threads, as the whole launch") {
  if (!test::in_child_process("kernel runner: a launch?s groups run in boxes*", pocl_devices))
    return;
  Basic cl;
  if (!cl.open()) return test::skip("no PoCL basic device (POCL_DEVICES names none)");
  REQUIRE_MESSAGE(cl.api.has_value(),
                  "the platform has no clCreateKernelRunnerPOCL: PoCL lacks patch 0016");
  char version[512] = {};
  clGetPlatformInfo(cl.platform, CL_PLATFORM_VERSION, sizeof version, version, nullptr);
  CHECK(std::strstr(version, "+spvjit-kernel-runner") != nullptr);

  SUBCASE("1-D, groups split between two threads") {
    const std::size_t n = 256, local = 16, groups = n / local;
    std::vector<float> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i) * 0.5f;
    cl_mem in_buf = cl.written(in.data(), n * sizeof(float));
    const std::vector<float> zeros(n, 0.0f);
    cl_mem out_buf = cl.written(zeros.data(), n * sizeof(float));
    cl_kernel k = cl.kernel("scaled");
    const float s = 3.0f;
    check(clSetKernelArg(k, 0, sizeof(cl_mem), &out_buf), "arg 0");
    check(clSetKernelArg(k, 1, sizeof(cl_mem), &in_buf), "arg 1");
    check(clSetKernelArg(k, 2, sizeof(float), &s), "arg 2");
    cl_int err = CL_SUCCESS;
    PoclKernelRunner runner = cl.api->create(cl.queue, k, 1, &n, &local, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(runner);
    cl_int first = CL_INVALID_VALUE, second = CL_INVALID_VALUE;
    std::thread other([&] {
      const std::size_t begin = 7, end = groups;
      second = cl.api->run(runner, &begin, &end);
    });
    const std::size_t begin = 0, end = 7;
    first = cl.api->run(runner, &begin, &end);
    other.join();
    CHECK(first == CL_SUCCESS);
    CHECK(second == CL_SUCCESS);
    const auto out = cl.read<float>(out_buf, n);
    for (std::size_t i = 0; i < n; ++i) {
      CAPTURE(i);
      CHECK(out[i] == in[i] * s + static_cast<float>(i / local) * 1000.0f +
                          static_cast<float>(groups) * 0.5f + static_cast<float>(n) * 0.25f);
    }
#ifdef SPVJIT_HAVE_ALLOC_COUNTER
    const auto counts = support::count_allocations([&] {
      for (int r = 0; r < 100; ++r) {
        const std::size_t all_begin = 0, all_end = groups;
        (void)cl.api->run(runner, &all_begin, &all_end);
      }
    });
    CHECK(counts.allocations == 0);
#endif
    CHECK(cl.api->release(runner) == CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseMemObject(in_buf);
    clReleaseMemObject(out_buf);
  }

  SUBCASE("2-D, a local argument and the kernel's own local array") {
    const std::size_t global[2] = {32, 4}, local[2] = {8, 1};
    const std::size_t n = global[0] * global[1];
    std::vector<int> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>(i) * 7;
    cl_mem in_buf = cl.written(in.data(), n * sizeof(int));
    const std::vector<int> zeros(n, 0);
    cl_mem out_buf = cl.written(zeros.data(), n * sizeof(int));
    cl_kernel k = cl.kernel("reversed");
    check(clSetKernelArg(k, 0, sizeof(cl_mem), &out_buf), "arg 0");
    check(clSetKernelArg(k, 1, sizeof(cl_mem), &in_buf), "arg 1");
    check(clSetKernelArg(k, 2, local[0] * sizeof(int), nullptr), "arg 2 (local)");
    cl_int err = CL_SUCCESS;
    PoclKernelRunner runner = cl.api->create(cl.queue, k, 2, global, local, &err);
    REQUIRE(err == CL_SUCCESS);
    const std::size_t top_begin[2] = {0, 0}, top_end[2] = {4, 2};
    const std::size_t bottom_begin[2] = {0, 2}, bottom_end[2] = {4, 4};
    cl_int bottom = CL_INVALID_VALUE;
    std::thread other([&] { bottom = cl.api->run(runner, bottom_begin, bottom_end); });
    CHECK(cl.api->run(runner, top_begin, top_end) == CL_SUCCESS);
    other.join();
    CHECK(bottom == CL_SUCCESS);
    const auto out = cl.read<int>(out_buf, n);
    for (std::size_t y = 0; y < global[1]; ++y) {
      for (std::size_t x = 0; x < global[0]; ++x) {
        const std::size_t group_first = x / local[0] * local[0];
        const std::size_t mirrored = group_first + local[0] - 1 - x % local[0];
        CAPTURE(x);
        CAPTURE(y);
        CHECK(out[x + global[0] * y] ==
              in[mirrored + global[0] * y] + static_cast<int>(y) * 100000);
      }
    }
    CHECK(cl.api->release(runner) == CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseMemObject(in_buf);
    clReleaseMemObject(out_buf);
  }
}

TEST_CASE("kernel runner: refusals before any group runs") {
  if (!test::in_child_process("kernel runner: refusals before any group runs", pocl_devices))
    return;
  Basic cl;
  if (!cl.open()) return test::skip("no PoCL basic device (POCL_DEVICES names none)");
  REQUIRE_MESSAGE(cl.api.has_value(),
                  "the platform has no clCreateKernelRunnerPOCL: PoCL lacks patch 0016");
  const std::size_t n = 64, local = 16;
  std::vector<float> in(n, 1.0f);
  cl_mem in_buf = cl.written(in.data(), n * sizeof(float));
  const std::vector<float> marks(n, -1.0f);
  cl_mem out_buf = cl.written(marks.data(), n * sizeof(float));
  cl_kernel k = cl.kernel("scaled");
  cl_int err = CL_SUCCESS;

  // A local size that does not divide the global one, as clEnqueueNDRangeKernel refuses it.
  const std::size_t odd = 24;
  CHECK(cl.api->create(cl.queue, k, 1, &n, &odd, &err) == nullptr);
  CHECK(err == CL_INVALID_WORK_GROUP_SIZE);
  if (cl.threaded) {
    cl_command_queue threaded_queue = nullptr;
    cl_context both = clCreateContext(nullptr, 1, &cl.threaded, nullptr, nullptr, &err);
    check(err, "clCreateContext (pthread)");
    threaded_queue = clCreateCommandQueueWithProperties(both, cl.threaded, nullptr, &err);
    check(err, "clCreateCommandQueueWithProperties (pthread)");
    CHECK(cl.api->create(threaded_queue, k, 1, &n, &local, &err) == nullptr);
    CHECK(err != CL_SUCCESS);  // another context, and not basic
    clReleaseCommandQueue(threaded_queue);
    clReleaseContext(both);
  }

  PoclKernelRunner runner = cl.api->create(cl.queue, k, 1, &n, &local, &err);
  REQUIRE(err == CL_SUCCESS);
  const std::size_t begin = 0, end = n / local, past = n / local + 1;
  // Arguments not set yet.
  CHECK(cl.api->run(runner, &begin, &end) == CL_INVALID_KERNEL_ARGS);
  const float s = 2.0f;
  check(clSetKernelArg(k, 1, sizeof(cl_mem), &in_buf), "arg 1");
  check(clSetKernelArg(k, 2, sizeof(float), &s), "arg 2");
  // A buffer no command has touched: not on the device yet.
  cl_mem fresh = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, n * sizeof(float), nullptr, &err);
  check(err, "clCreateBuffer");
  check(clSetKernelArg(k, 0, sizeof(cl_mem), &fresh), "arg 0 (fresh)");
  CHECK(cl.api->run(runner, &begin, &end) == CL_INVALID_OPERATION);
  // A box outside the launch.
  check(clSetKernelArg(k, 0, sizeof(cl_mem), &out_buf), "arg 0");
  CHECK(cl.api->run(runner, &begin, &past) == CL_INVALID_VALUE);
  const std::size_t backwards_begin = 2, backwards_end = 1;
  CHECK(cl.api->run(runner, &backwards_begin, &backwards_end) == CL_INVALID_VALUE);
  // None of them ran a group.
  CHECK(cl.read<float>(out_buf, n) == marks);
  // An empty box runs nothing and succeeds; the whole launch then runs.
  CHECK(cl.api->run(runner, &end, &end) == CL_SUCCESS);
  CHECK(cl.read<float>(out_buf, n) == marks);
  CHECK(cl.api->run(runner, &begin, &end) == CL_SUCCESS);
  CHECK(cl.read<float>(out_buf, n) != marks);
  CHECK(cl.api->release(runner) == CL_SUCCESS);
  CHECK(cl.api->release(nullptr) == CL_INVALID_VALUE);
  clReleaseKernel(k);
  clReleaseMemObject(fresh);
  clReleaseMemObject(in_buf);
  clReleaseMemObject(out_buf);
}
