#include "jit/device/pocl_fixes.hpp"

#include <cstdlib>
#include <string_view>

namespace spvjit::detail {

namespace {

bool is_pocl(const DeviceInfo& device) {
  return device.platform_name.find("Portable Computing Language") != std::string::npos;
}

bool marked(const DeviceInfo& device, std::string_view marker) {
  return is_pocl(device) && device.platform_version.find(marker) != std::string::npos;
}

}  // namespace

bool may_have(const DeviceInfo& device, PoclBug bug) {
  switch (bug) {
    case PoclBug::BarrierTails: {
      if (!is_pocl(device) || marked(device, "+spvjit-barrier-tails")) return false;
      // PoCL reads it at each kernel compile (WorkitemHandlerChooser).
      const char* method = std::getenv("POCL_WORK_GROUP_METHOD");
      return !(method && std::string_view(method) == "cbs");
    }
    case PoclBug::WideBuiltins:
      return device.cpu && !marked(device, "+spvjit-spir-byval");
    case PoclBug::VectorMathDiffers:
      return !marked(device, "+spvjit-vector-math");
  }
  return true;
}

}  // namespace spvjit::detail
