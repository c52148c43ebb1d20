// partition: KernelAbstractions' rules for turning an ndrange and a workgroup into OpenCL's
// global and local sizes. Missing dimensions are padded with 1, blocks = ceil(ndrange /
// workgroup) per dimension, and the kernel needs its bounds check as soon as one dimension does
// not divide. A static size and the one given at launch must agree; a size that is neither
// static nor given is an error, except the workgroup, which is chosen from the kernel's limits.
//
// The same rules serve spvjit's own compile (static sizes) and every launch (common/geometry):
// what partition() answers is what a launch with these sizes enqueues. Pure and allocation-free
// unless it throws:
//
//   const Partition p = partition(spec, &ndrange, nullptr, limits, "saxpy");
//   if (!p.empty()) clEnqueueNDRangeKernel(queue, kernel, p.dims, nullptr, p.global.data(),
//                                          p.workgroup.size.data(), 0, nullptr, nullptr);
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "spvjit/kernel.hpp"
#include "spvjit/ndrange.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// What a dynamic workgroup is chosen within; read once per kernel (clGetKernelWorkGroupInfo
/// and the device limits), never per launch.
struct WorkGroupLimits {
  /// Work-items per group (min of CL_KERNEL_WORK_GROUP_SIZE and the device's maximum); 0 when
  /// unknown, which makes a missing workgroup an error instead of a choice.
  std::size_t max_items = 0;
  /// CL_DEVICE_MAX_WORK_ITEM_SIZES.
  std::array<std::size_t, 3> max_per_dimension{0, 0, 0};
  /// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (1 when unknown).
  std::size_t preferred_multiple = 1;
  /// Groups a chosen workgroup leaves at least, where the ndrange has the work-items for them:
  /// one group runs on one core. Launches of coarsened kernels ask for the device's compute
  /// units (a 256 x 256 stencil coarsened by 16 is one group of 16 x 256 otherwise).
  std::size_t min_groups = 1;
};

/// A launch's geometry, every array padded to 3 dimensions with 1.
struct Partition {
  NDRange ndrange;                      ///< the static or given ndrange
  WorkGroup workgroup;                  ///< the static, given or chosen workgroup
  std::array<std::size_t, 3> blocks{};  ///< ceil(ndrange / workgroup) per dimension
  std::array<std::size_t, 3> global{};  ///< blocks * workgroup: OpenCL's global size
  unsigned dims = 1;                    ///< work dimensions to enqueue (1 to 3)
  bool bounds_check = false;            ///< some dimension is not divided by the workgroup

  /// An ndrange of 0 in some dimension: nothing to launch.
  bool empty() const { return blocks[0] == 0 || blocks[1] == 0 || blocks[2] == 0; }
  /// Work-items enqueued: global[0] * global[1] * global[2] (partition() checked it fits).
  std::size_t items() const { return global[0] * global[1] * global[2]; }
};

/// The geometry of a launch. `statics` holds the sizes the kernel was specialized for;
/// `ndrange` / `workgroup` are those passed at launch (nullptr: not passed). Throws UserError,
/// naming `kernel` and the static and launch values, when a size is missing or malformed (not
/// 1 to 3 dimensions, above 2^63-1, not 1 beyond its dimensions), a static size and a launch
/// size differ, a workgroup has a zero dimension, more dimensions than the ndrange or exceeds
/// `limits`, or the global size overflows.
Partition partition(const Specialization& statics, const NDRange* ndrange,
                    const WorkGroup* workgroup, const WorkGroupLimits& limits,
                    std::string_view kernel = {});

/// The workgroup spvjit picks when none is static or given: dimension 0 first, as many
/// work-items as `limits` allow (PoCL runs one work-group function per group, so fewer, larger
/// groups cost less dispatch), a multiple of the preferred multiple when the ndrange exceeds
/// it. Requires limits.max_items > 0.
WorkGroup choose_workgroup(const NDRange& ndrange, const WorkGroupLimits& limits);

}  // namespace spvjit

SPVJIT_API_END
