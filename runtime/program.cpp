// Program creation and build, with the build log attached to every failure.
#include "runtime/program.hpp"

#include "runtime/signal_guard.hpp"

namespace spvjit::detail {

namespace {

std::string build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS) {
    return "(build log unavailable)";
  }
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

void build(RuntimeCore& core, cl_program program, const std::string& options,
           const std::string& kernel_name) {
  cl_int err = clBuildProgram(program, 1, &core.device, options.c_str(), nullptr, nullptr);
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
  build(core, program.get(), options, kernel_name);
  return program;
}

ClHandle<cl_program> build_program_from_binary(RuntimeCore& core,
                                               std::span<const std::uint8_t> binary,
                                               const std::string& options,
                                               const std::string& kernel_name) {
  const SignalsDeferred deferred;  // as above: PoCL links the kernel in a child process
  cl_int err = CL_SUCCESS;
  cl_int status = CL_SUCCESS;
  const unsigned char* data = binary.data();
  const size_t size = binary.size();
  ClHandle<cl_program> program(clCreateProgramWithBinary(core.context.get(), 1, &core.device,
                                                         &size, &data, &status, &err));
  if (err == CL_SUCCESS && status != CL_SUCCESS) err = status;
  check_cl(err, "clCreateProgramWithBinary", "kernel '" + kernel_name + "'");
  build(core, program.get(), options, kernel_name);
  return program;
}

std::vector<std::uint8_t> program_binary(cl_program program) {
  size_t size = 0;
  check_cl(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr),
           "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
  std::vector<std::uint8_t> out(size);
  unsigned char* ptr = out.data();
  check_cl(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr),
           "clGetProgramInfo(CL_PROGRAM_BINARIES)");
  return out;
}

}  // namespace spvjit::detail
