// RuntimeCore: the OpenCL objects behind a Runtime (device, context, queue) and the device facts
// queried once at start. Shared by Runtime, buffers and kernels; private to runtime/ and jit/.
#pragma once

#include <string>
#include <vector>

#include "runtime/cl_handle.hpp"
#include "spvjit/runtime.hpp"

namespace spvjit::detail {

class RuntimeCore {
 public:
  explicit RuntimeCore(const RuntimeOptions& options);

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  DeviceInfo info;
  ClHandle<cl_context> context;
  ClHandle<cl_command_queue> queue;
};

/// Every device of every platform, with the facts spvjit needs.
struct SeenDevice {
  cl_platform_id platform;
  cl_device_id device;
  DeviceInfo info;
};
std::vector<SeenDevice> enumerate_devices();

}  // namespace spvjit::detail
