// PoCL's kernel runner, found: runtime/kernel_runner.hpp.
#include "runtime/kernel_runner.hpp"

#include <map>
#include <mutex>

namespace spvjit::detail {

const KernelRunnerApi* KernelRunnerApi::find(cl_platform_id platform) {
  static std::mutex mutex;
  static std::map<cl_platform_id, KernelRunnerApi> found;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = found.find(platform);
  if (it == found.end()) {
    KernelRunnerApi api;
    const auto lookup = [&](const char* name) {
      return clGetExtensionFunctionAddressForPlatform(platform, name);
    };
    api.create = reinterpret_cast<decltype(api.create)>(lookup("clCreateKernelRunnerPOCL"));
    api.run = reinterpret_cast<decltype(api.run)>(lookup("clRunKernelGroupsPOCL"));
    api.release = reinterpret_cast<decltype(api.release)>(lookup("clReleaseKernelRunnerPOCL"));
    it = found.emplace(platform, api).first;
  }
  const KernelRunnerApi& api = it->second;
  return api.create && api.run && api.release ? &api : nullptr;
}

}  // namespace spvjit::detail
