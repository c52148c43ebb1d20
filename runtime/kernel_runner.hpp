// PoCL's kernel runner (cl_pocl_kernel_runner, third_party/pocl/patches/0016): a built kernel's
// work-groups run on the calling thread, with no command, event, migration or lock. A runner is
// made once per kernel and launch geometry (it may build the work-group function, as a first
// enqueue does); a run takes a box of the launch's groups and the kernel's current argument
// values. What the caller must hold to: no argument of the kernel changes while a run is in
// flight; every command touching the arguments' buffers has finished; a run that answers
// CL_INVALID_OPERATION (a buffer no command has placed on the device yet) ran no group, and
// the launch goes through clEnqueueNDRangeKernel once instead.
//
// Found at run time with clGetExtensionFunctionAddressForPlatform: absent on another vendor, on
// Debian's PoCL 3.1, or on a PoCL without the patch.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <optional>

namespace spvjit::detail {

struct KernelRunnerTag;
/// One runner (PoCL's cl_kernel_runner_pocl).
using PoclKernelRunner = KernelRunnerTag*;

/// The extension's three entry points.
struct KernelRunnerApi {
  /// Validates the geometry as an enqueue does and finds or builds the work-group function: the
  /// runner, or null with the error in `*errcode`. The queue's device must be PoCL's basic.
  PoclKernelRunner(CL_API_CALL* create)(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                        const std::size_t* global, const std::size_t* local,
                                        cl_int* errcode) = nullptr;
  /// Runs groups `begin[d] <= g < end[d]` (d < work_dim; absolute ids of the runner's launch).
  cl_int(CL_API_CALL* run)(PoclKernelRunner runner, const std::size_t* begin,
                           const std::size_t* end) = nullptr;
  cl_int(CL_API_CALL* release)(PoclKernelRunner runner) = nullptr;

  /// The platform's entry points, or none when it lacks any of them.
  static std::optional<KernelRunnerApi> find(cl_platform_id platform);
};

}  // namespace spvjit::detail
