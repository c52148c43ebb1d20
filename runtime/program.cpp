// Program creation and build, with the build log attached to every failure.
#include "runtime/program.hpp"

#include "runtime/signal_guard.hpp"

namespace spvjit::detail {

namespace {

std::string build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
      CL_SUCCESS) {
    return "(build log unavailable)";
  }
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

// Builds for `devices`: every device of the context, so an adaptive runtime can launch the same
// cl_kernel on either.
void build(RuntimeCore& core, cl_program program, const std::string& options,
           const std::string& kernel_name, const std::vector<cl_device_id>& devices) {
  cl_int err = clBuildProgram(program, static_cast<cl_uint>(devices.size()), devices.data(),
                              options.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) throw BuildError(err, kernel_name, build_log(program, core.device));
}

}  // namespace

ClHandle<cl_program> build_program_from_il(RuntimeCore& core, std::span<const std::uint32_t> spirv,
                                           const std::string& options,
                                           const std::string& kernel_name) {
  // PoCL runs helper processes both to read the IL and to link the kernel.
  const SignalsDeferred deferred;
  cl_int err = CL_SUCCESS;
  ClHandle<cl_program> program(
      clCreateProgramWithIL(core.context.get(), spirv.data(), spirv.size_bytes(), &err));
  check_cl(err, "clCreateProgramWithIL", "kernel '" + kernel_name + "' on " + core.info.name);
  build(core, program.get(), options, kernel_name, core.devices());
  return program;
}

ClHandle<cl_program> build_program_from_binary(RuntimeCore& core,
                                               std::span<const std::uint8_t> binary,
                                               const std::string& options,
                                               const std::string& kernel_name) {
  const SignalsDeferred deferred;  // as above: PoCL links the kernel in a child process
  // The same binary for every device of the context: an adaptive runtime's basic and pthread
  // devices are both PoCL CPU devices of one target and accept each other's binaries.
  const auto devices = core.devices();
  const auto count = static_cast<cl_uint>(devices.size());
  std::vector<const unsigned char*> data(count, binary.data());
  std::vector<size_t> sizes(count, binary.size());
  std::vector<cl_int> status(count, CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  ClHandle<cl_program> program(clCreateProgramWithBinary(
      core.context.get(), count, devices.data(), sizes.data(), data.data(), status.data(), &err));
  for (cl_int st : status) {
    if (err == CL_SUCCESS && st != CL_SUCCESS) err = st;
  }
  check_cl(err, "clCreateProgramWithBinary", "kernel '" + kernel_name + "'");
  build(core, program.get(), options, kernel_name, devices);
  return program;
}

std::vector<std::uint8_t> program_binary(cl_program program) {
  // One binary per device of the program; the main device is the first (RuntimeCore::devices).
  cl_uint count = 0;
  check_cl(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof(count), &count, nullptr),
           "clGetProgramInfo(CL_PROGRAM_NUM_DEVICES)");
  std::vector<size_t> sizes(count);
  check_cl(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, count * sizeof(size_t), sizes.data(),
                            nullptr),
           "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
  std::vector<std::vector<std::uint8_t>> binaries(count);
  std::vector<unsigned char*> pointers(count);
  for (cl_uint i = 0; i < count; ++i) {
    binaries[i].resize(sizes[i]);
    pointers[i] = binaries[i].data();
  }
  check_cl(clGetProgramInfo(program, CL_PROGRAM_BINARIES, count * sizeof(unsigned char*),
                            pointers.data(), nullptr),
           "clGetProgramInfo(CL_PROGRAM_BINARIES)");
  return count ? std::move(binaries[0]) : std::vector<std::uint8_t>{};
}

}  // namespace spvjit::detail
