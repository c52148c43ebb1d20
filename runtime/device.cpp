// Device discovery: every platform and device the ICD loader reports, and the choice of the one
// spvjit uses — the first that accepts SPIR-V, never "platform 0" (Debian's PoCL 3.1 may sit
// beside PoCL 6.0 and report no IL at all).
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/core.hpp"
#include "runtime/host_signal_handlers.hpp"

namespace spvjit {

std::string DeviceInfo::summary() const {
  return platform_name + " " + platform_version + " / " + name +
         " (IL: " + (il_version.empty() ? std::string("none") : il_version) + ")";
}

namespace detail {
namespace {

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string out(size, '\0');
  if (clGetDeviceInfo(d, what, size, out.data(), nullptr) != CL_SUCCESS) return {};
  while (!out.empty() && out.back() == '\0') out.pop_back();
  return out;
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string out(size, '\0');
  if (clGetPlatformInfo(p, what, size, out.data(), nullptr) != CL_SUCCESS) return {};
  while (!out.empty() && out.back() == '\0') out.pop_back();
  return out;
}

template <class T>
T device_value(cl_device_id d, cl_device_info what, T fallback = T{}) {
  T v{};
  return clGetDeviceInfo(d, what, sizeof(T), &v, nullptr) == CL_SUCCESS ? v : fallback;
}

DeviceInfo describe(cl_platform_id p, cl_device_id d) {
  DeviceInfo info;
  info.platform_name = platform_string(p, CL_PLATFORM_NAME);
  info.platform_version = platform_string(p, CL_PLATFORM_VERSION);
  info.name = device_string(d, CL_DEVICE_NAME);
  info.version = device_string(d, CL_DEVICE_VERSION);
  info.driver_version = device_string(d, CL_DRIVER_VERSION);
  info.il_version = device_string(d, CL_DEVICE_IL_VERSION);
  info.extensions = device_string(d, CL_DEVICE_EXTENSIONS);
  info.max_workgroup_size = device_value<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t sizes[3] = {0, 0, 0};
  if (clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(sizes), sizes, nullptr) ==
      CL_SUCCESS) {
    info.max_work_item_sizes = {sizes[0], sizes[1], sizes[2]};
  }
  info.local_mem_size = device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
  info.global_mem_size = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.base_address_alignment = device_value<cl_uint>(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  info.compute_units = device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.fp64 = info.extensions.find("cl_khr_fp64") != std::string::npos;
  info.fp16 = info.extensions.find("cl_khr_fp16") != std::string::npos;
  info.cpu = (device_value<cl_device_type>(d, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
  const auto single = device_value<cl_device_fp_config>(d, CL_DEVICE_SINGLE_FP_CONFIG);
  const auto double_config =
      info.fp64 ? device_value<cl_device_fp_config>(d, CL_DEVICE_DOUBLE_FP_CONFIG) : 0;
  info.fma_f32 = (single & CL_FP_FMA) != 0;
  info.fma_f64 = (double_config & CL_FP_FMA) != 0;
  info.denormals_f32 = (single & CL_FP_DENORM) != 0;
  info.denormals_f64 = (double_config & CL_FP_DENORM) != 0;
  info.correctly_rounded_divide_sqrt_f32 = (single & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  const cl_device_info widths[6] = {
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,  CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,   CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE};
  for (unsigned k = 0; k < 6; ++k)
    info.preferred_vector_width[k] = device_value<cl_uint>(d, widths[k], 1);
  return info;
}

}  // namespace

std::vector<SeenDevice> enumerate_devices() {
  mark_opencl_started();
  // Starting the platforms' devices may put an LLVM's signal handlers over the host's.
  const HostSignalHandlersKept host_handlers;
  std::vector<SeenDevice> out;
  cl_uint count = 0;
  // The ICD loader answers CL_PLATFORM_NOT_FOUND_KHR (-1001) when it finds no vendor: that is
  // "no devices", not an error.
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) return out;
  std::vector<cl_platform_id> platforms(count);
  check_cl(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  for (auto p : platforms) {
    cl_uint n = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS || n == 0) continue;
    std::vector<cl_device_id> devices(n);
    check_cl(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, devices.data(), nullptr), "clGetDeviceIDs");
    for (auto d : devices) out.push_back({p, d, describe(p, d)});
  }
  return out;
}

}  // namespace detail

std::vector<DeviceInfo> Runtime::list_devices() {
  std::vector<DeviceInfo> out;
  for (auto& d : detail::enumerate_devices()) out.push_back(std::move(d.info));
  return out;
}

}  // namespace spvjit
