// The raw OpenCL baseline: what a careful C program does with the same SPIR-V — its own device,
// context and queue, clCreateProgramWithIL, clSetKernelArg for every argument of every launch,
// clEnqueueNDRangeKernel, clFinish. No spvjit code runs on its launch path. The compute cases'
// baseline (bench/opencl_compute.cpp) builds OpenCL C source instead, on the threaded device.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace spvjit::bench::raw {

/// Throws std::runtime_error naming the call when `err` is not CL_SUCCESS.
void check(cl_int err, const char* call);

template <class H, cl_int (*Release)(H)>
struct Releaser {
  void operator()(H h) const noexcept { Release(h); }
};
template <class H, cl_int (*Release)(H)>
using Handle = std::unique_ptr<std::remove_pointer_t<H>, Releaser<H, Release>>;

using Context = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using Program = Handle<cl_program, clReleaseProgram>;
using KernelHandle = Handle<cl_kernel, clReleaseKernel>;
using Mem = Handle<cl_mem, clReleaseMemObject>;

/// Which SPIR-V device a Device takes.
enum class Pick {
  /// The first (PoCL's one-thread `basic` under POCL_DEVICES="basic pthread", as main() sets).
  first,
  /// The first that runs a launch on worker threads: not PoCL's `basic` ("cpu-minimal-*"), so
  /// `pthread`; the first when there is no other.
  threaded,
};

/// A device whose CL_DEVICE_IL_VERSION names SPIR-V (spvjit's rule), with a context and an
/// in-order queue.
class Device {
 public:
  explicit Device(Pick pick = Pick::first);
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  cl_device_id id() const { return device_; }

  /// A buffer holding `bytes` copied from `host`.
  Mem buffer(std::size_t bytes, const void* host);

 private:
  cl_device_id device_ = nullptr;
  Context context_;
  Queue queue_;
};

/// OpenCL C source text, for the Kernel constructor that builds it.
struct Source {
  std::string text;
};

/// A kernel built from SPIR-V words with clCreateProgramWithIL + clBuildProgram, or from OpenCL C
/// with clCreateProgramWithSource + clBuildProgram(`options`): a failed build throws with its log.
class Kernel {
 public:
  Kernel(Device& device, const std::vector<std::uint32_t>& spirv, const std::string& name);
  Kernel(Device& device, const Source& source, const std::string& name,
         const std::string& options = "");
  cl_kernel get() const { return kernel_.get(); }
  /// The kernel's OpenCL arguments, hidden ndrange arguments included.
  cl_uint arguments() const { return arguments_; }

 private:
  // clBuildProgram for the device, then the kernel `name`.
  void build(Device& device, const std::string& name, const std::string& options);

  Program program_;
  KernelHandle kernel_;
  cl_uint arguments_ = 0;
};

}  // namespace spvjit::bench::raw
