// Building OpenCL programs from SPIR-V or a device binary, and reading a program's binary back.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/core.hpp"

namespace spvjit::detail {

/// clCreateProgramWithIL + clBuildProgram; throws BuildError with the log on failure.
ClHandle<cl_program> build_program_from_il(RuntimeCore& core, std::span<const std::uint32_t> spirv,
                                           const std::string& options,
                                           const std::string& kernel_name);
/// clCreateProgramWithBinary + clBuildProgram; throws BuildError (CL_INVALID_BINARY) if the
/// device rejects the binary.
ClHandle<cl_program> build_program_from_binary(RuntimeCore& core,
                                               std::span<const std::uint8_t> binary,
                                               const std::string& options,
                                               const std::string& kernel_name);
/// The device binary of a built program (CL_PROGRAM_BINARIES).
std::vector<std::uint8_t> program_binary(cl_program program);

}  // namespace spvjit::detail
