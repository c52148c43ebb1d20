#include "bench/raw_opencl.hpp"

#include <stdexcept>

namespace spvjit::bench::raw {

void check(cl_int err, const char* call) {
  if (err != CL_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + std::to_string(err));
}

namespace {

std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t size = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  check(clGetDeviceInfo(d, what, size, s.data(), nullptr), "clGetDeviceInfo");
  return s;
}

cl_device_id spirv_device(Pick pick) {
  cl_uint platforms = 0;
  check(clGetPlatformIDs(0, nullptr, &platforms), "clGetPlatformIDs");
  std::vector<cl_platform_id> ps(platforms);
  check(clGetPlatformIDs(platforms, ps.data(), nullptr), "clGetPlatformIDs");
  cl_device_id first = nullptr;
  for (cl_platform_id p : ps) {
    cl_uint count = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) continue;
    std::vector<cl_device_id> ds(count);
    check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, ds.data(), nullptr), "clGetDeviceIDs");
    for (cl_device_id d : ds) {
      if (device_string(d, CL_DEVICE_IL_VERSION).find("SPIR-V") == std::string::npos) continue;
      if (!first) first = d;
      // PoCL names `basic` "cpu-minimal-<arch>-<cpu>" and `pthread` "cpu-<arch>-<cpu>".
      if (pick == Pick::first || device_string(d, CL_DEVICE_NAME).rfind("cpu-minimal", 0) != 0)
        return d;
    }
  }
  if (first) return first;
  throw std::runtime_error("raw OpenCL: no device takes SPIR-V");
}

}  // namespace

Device::Device(Pick pick) : device_(spirv_device(pick)) {
  cl_int err = CL_SUCCESS;
  context_.reset(clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err));
  check(err, "clCreateContext");
  queue_.reset(clCreateCommandQueueWithProperties(context_.get(), device_, nullptr, &err));
  check(err, "clCreateCommandQueueWithProperties");
}

Mem Device::buffer(std::size_t bytes, const void* host) {
  cl_int err = CL_SUCCESS;
  Mem mem(clCreateBuffer(context_.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                         const_cast<void*>(host), &err));
  check(err, "clCreateBuffer");
  return mem;
}

Kernel::Kernel(Device& device, const std::vector<std::uint32_t>& spirv, const std::string& name) {
  cl_int err = CL_SUCCESS;
  program_.reset(clCreateProgramWithIL(device.context(), spirv.data(),
                                       spirv.size() * sizeof(std::uint32_t), &err));
  check(err, "clCreateProgramWithIL");
  build(device, name, "");
}

Kernel::Kernel(Device& device, const Source& source, const std::string& name,
               const std::string& options) {
  cl_int err = CL_SUCCESS;
  const char* text = source.text.c_str();
  const std::size_t length = source.text.size();
  program_.reset(clCreateProgramWithSource(device.context(), 1, &text, &length, &err));
  check(err, "clCreateProgramWithSource");
  build(device, name, options);
}

void Kernel::build(Device& device, const std::string& name, const std::string& options) {
  const cl_device_id id = device.id();
  const cl_int built = clBuildProgram(program_.get(), 1, &id, options.c_str(), nullptr, nullptr);
  if (built != CL_SUCCESS) {
    std::size_t size = 0;
    clGetProgramBuildInfo(program_.get(), id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    if (size) {
      clGetProgramBuildInfo(program_.get(), id, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    }
    throw std::runtime_error("clBuildProgram of '" + name + "' failed: " + std::to_string(built) +
                             ": " + log.c_str());
  }
  cl_int err = CL_SUCCESS;
  kernel_.reset(clCreateKernel(program_.get(), name.c_str(), &err));
  check(err, "clCreateKernel");
  check(
      clGetKernelInfo(kernel_.get(), CL_KERNEL_NUM_ARGS, sizeof(arguments_), &arguments_, nullptr),
      "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
}

}  // namespace spvjit::bench::raw
