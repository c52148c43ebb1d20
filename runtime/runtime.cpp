// Runtime: choose the SPIR-V device, make its context and in-order queue.
#include <cstdlib>

#include "runtime/core.hpp"

namespace spvjit {

namespace detail {

RuntimeCore::RuntimeCore(const RuntimeOptions& options) {
  std::string wanted = options.device_name_contains;
  if (wanted.empty()) {
    if (const char* env = std::getenv("SPVJIT_DEVICE")) wanted = env;
  }
  auto seen = enumerate_devices();
  const SeenDevice* chosen = nullptr;
  for (const auto& d : seen) {
    if (!d.info.accepts_spirv()) continue;
    if (!wanted.empty() && d.info.name.find(wanted) == std::string::npos) continue;
    chosen = &d;
    break;
  }
  if (!chosen) {
    std::string msg = "no OpenCL device accepts SPIR-V";
    if (!wanted.empty()) msg += " with a name containing '" + wanted + "'";
    msg += " (CL_DEVICE_IL_VERSION must name SPIR-V); devices seen: ";
    if (seen.empty()) {
      msg += "none (the ICD loader found no platform";
      if (const char* v = std::getenv("OCL_ICD_VENDORS")) msg += std::string("; OCL_ICD_VENDORS=") + v;
      msg += ")";
    }
    for (size_t i = 0; i < seen.size(); ++i) msg += (i ? "; " : "") + seen[i].info.summary();
    msg += ". Install PoCL 6 with `make deps` (third_party/pocl/build.sh).";
    throw DeviceNotFoundError(msg);
  }
  platform = chosen->platform;
  device = chosen->device;
  info = chosen->info;
  cl_int err = CL_SUCCESS;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(platform), 0};
  context = ClHandle<cl_context>(clCreateContext(props, 1, &device, nullptr, nullptr, &err));
  check_cl(err, "clCreateContext", info.name);
  queue = ClHandle<cl_command_queue>(
      clCreateCommandQueueWithProperties(context.get(), device, nullptr, &err));
  check_cl(err, "clCreateCommandQueueWithProperties", info.name);
}

RuntimeCore& live_core(const std::shared_ptr<RuntimeCore>& core) {
  if (!core) throw UserError("Runtime: this Runtime was moved from; use the one it moved to");
  return *core;
}

}  // namespace detail

Runtime::Runtime() : Runtime(RuntimeOptions{}) {}
Runtime::Runtime(const RuntimeOptions& options)
    : core_(std::make_shared<detail::RuntimeCore>(options)) {}
Runtime::~Runtime() = default;
Runtime::Runtime(Runtime&&) noexcept = default;
Runtime& Runtime::operator=(Runtime&&) noexcept = default;

const DeviceInfo& Runtime::device() const { return detail::live_core(core_).info; }

void Runtime::synchronize() {
  detail::check_cl(clFinish(detail::live_core(core_).queue.get()), "clFinish");
}

}  // namespace spvjit
