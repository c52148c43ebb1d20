// PoCL's kernel runner, found: runtime/kernel_runner.hpp.
#include "runtime/kernel_runner.hpp"

namespace spvjit::detail {

std::optional<KernelRunnerApi> KernelRunnerApi::find(cl_platform_id platform) {
  const auto lookup = [&](const char* name) {
    return clGetExtensionFunctionAddressForPlatform(platform, name);
  };
  KernelRunnerApi api;
  api.create = reinterpret_cast<decltype(api.create)>(lookup("clCreateKernelRunnerPOCL"));
  api.run = reinterpret_cast<decltype(api.run)>(lookup("clRunKernelGroupsPOCL"));
  api.release = reinterpret_cast<decltype(api.release)>(lookup("clReleaseKernelRunnerPOCL"));
  if (!api.create || !api.run || !api.release) return std::nullopt;
  return api;
}

}  // namespace spvjit::detail
