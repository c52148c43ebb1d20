// LaunchState: everything a launch needs, computed once per specialization — the kernel object,
// the signature, static sizes and the device limits — so the launch path queries nothing.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/core.hpp"
#include "runtime/group_stack.hpp"
#include "common/bounds.hpp"
#include "spvjit/kernel.hpp"

namespace spvjit::detail {

/// The last value handed to clSetKernelArg for one argument, to skip re-setting it. Values of
/// 1, 2, 4 or 8 bytes (every scalar and cl_mem) are remembered; local sizes by their size.
struct ArgMemo {
  std::uint64_t bits = 0;
  std::size_t size = 0;
  bool set = false;
  bool svm = false;  ///< set with clSetKernelArgSVMPointer (bits: the pointer)
};

/// The sizes handed to clEnqueueNDRangeKernel.
struct Geometry {
  std::size_t global[3] = {1, 1, 1};
  std::size_t local[3] = {1, 1, 1};
  cl_uint dims = 1;
  std::size_t items = 1;  ///< global[0] * global[1] * global[2]
};

/// The work-items a launch over `nd` runs when each handles `coarsen` indices of dimension 0.
inline NDRange coarsened(const NDRange& nd, std::size_t coarsen) {
  NDRange run = nd;
  run.size[0] = nd.size[0] / coarsen + (nd.size[0] % coarsen != 0);
  return run;
}

class LaunchState {
 public:
  LaunchState(std::shared_ptr<RuntimeCore> core, std::shared_ptr<ClHandle<cl_program>> program,
              std::string name, std::vector<Param> params, bool hidden_ndrange,
              Specialization spec);
  ~LaunchState();
  LaunchState(const LaunchState&) = delete;
  LaunchState& operator=(const LaunchState&) = delete;

  /// KernelAbstractions-style default: fill dimension 0 first, up to the kernel's maximum.
  WorkGroup chosen_workgroup(const NDRange& nd) const noexcept;

  std::shared_ptr<RuntimeCore> core;
  std::shared_ptr<ClHandle<cl_program>> program;
  ClHandle<cl_kernel> kernel;
  std::string name;
  std::vector<Param> params;
  bool hidden_ndrange = false;
  /// Launches may pad the ndrange to whole groups (the kernel guards its own bounds); else
  /// every workgroup must divide it. Set by the Jit; defaults to hidden_ndrange.
  bool pads_safely = false;
  Specialization spec;
  std::size_t max_workgroup = 0;   ///< CL_KERNEL_WORK_GROUP_SIZE, the least over the devices
  std::array<std::size_t, 3> max_items{};
  std::size_t preferred_multiple = 1;
  std::uint64_t local_mem_size = 0;
  /// Bytes of the kernel's own local arrays (local_array), set by the Jit: PoCL's CPU device
  /// puts them after the LocalMemory arguments in one region of the device's local memory and
  /// aborts the process when they do not fit (pocl_setup_kernel_arg_array_with_locals), so a
  /// launch checks the sum. CL_KERNEL_LOCAL_MEM_SIZE would say it, but PoCL 6.0 reports 0.
  std::uint64_t static_local_bytes = 0;
  /// The stack each work-item of a group takes on the thread that runs it, set by the Jit
  /// through limit_group_stack.
  GroupStack stack;
  bool static_geometry = false;    ///< static ndrange: `fixed` holds the whole geometry
  Geometry fixed;
  /// Indices per work-item in dimension 0 (jit/coarsen.hpp), set by the Jit: the launch runs
  /// ceil(ndrange / coarsen) work-items there, the hidden ndrange arguments keep the full size.
  std::size_t coarsen = 1;
  /// The kernel's results do not depend on a global offset (jit/offset_safety.hpp), so an
  /// adaptive runtime may split a large launch over its inline threads. Set by the Jit.
  bool runs_with_offsets = false;
  /// Records `s` and caps max_workgroup to what fits in it: chosen workgroups shrink to fit,
  /// given ones above it are refused with s.refusal().
  void limit_group_stack(const GroupStack& s);
  /// Sets `coarsen` and recomputes the geometry a static ndrange fixes.
  void set_coarsen(std::size_t indices_per_item);
  /// Fills `fixed` for a static ndrange (with `coarsen` applied in dimension 0).
  void compute_fixed_geometry();
  /// The kernel takes bounds checks' hidden arguments (common/bounds.hpp): set by the Jit through
  /// enable_bounds_checks. Each launch passes the extents from `first_extent_arg` on; the record's
  /// address (`bounds_slot`, or 0 where the device has no SVM for it) is set once.
  void enable_bounds_checks(std::vector<BoundsSite> sites);
  bool bounds_checked = false;
  cl_uint first_extent_arg = 0;
  std::vector<BoundsSite> bounds_sites;
  std::uint64_t* bounds_slot = nullptr;
  /// The ndrange of the latest launch (guarded by `mutex`), for BoundsError's message.
  NDRange last_ndrange;
  /// Raw modules: parameters whose extent must hold ndrange(0), because every work-item reads
  /// or writes p[get_global_id(0)] (jit/raw_bounds.hpp); checked before the launch. Set by the Jit.
  std::vector<unsigned> extent_covers_ndrange;
  std::vector<ArgMemo> memo;  ///< one per OpenCL argument, hidden ones included
  // The geometry of the last launch whose workgroup spvjit chose (guarded by `mutex`).
  bool chosen_cached = false;
  NDRange chosen_for;
  Geometry chosen_geometry;
  // An OpenCL kernel's arguments are not thread-safe (clSetKernelArg then enqueue must not
  // interleave), so both happen under this lock. Measured on PoCL 6.0, 2 cores: removing it
  // moved a 16-item launch on basic (~0.68 us) by less than the noise, and 4 threads launching
  // one kernel ran no slower than raw OpenCL with a cl_kernel clone per thread (basic: 1.31 vs
  // 1.51 us per launch; pthread: 2.06 vs 2.49), as PoCL serializes on the queue anyway.
  std::mutex mutex;
};

// Inline: the launch path calls it for every launch with a dynamic workgroup.
inline WorkGroup LaunchState::chosen_workgroup(const NDRange& nd) const noexcept {
  // Fill dimension 0 first, up to the kernel's maximum: PoCL runs one work-group function per
  // group, so fewer, larger groups cost less dispatch.
  WorkGroup wg;
  wg.dims = nd.dims;
  std::size_t budget = std::max<std::size_t>(max_workgroup, 1);
  for (unsigned d = 0; d < 3; ++d) {
    const std::size_t limit = std::min(budget, std::max<std::size_t>(max_items[d], 1));
    wg.size[d] = std::max<std::size_t>(1, std::min(nd.size[d], limit));
    // A kernel that never reads the ndrange (no in_bounds(), no ndrange(), a raw module) would
    // run its padding work-items out of bounds: give it groups that divide the ndrange.
    if (!pads_safely && nd.size[d] > 0 && nd.size[d] % wg.size[d] != 0) {
      while (nd.size[d] % wg.size[d] != 0) --wg.size[d];
    }
    const bool more = (d == 0 && (nd.size[1] > 1 || nd.size[2] > 1)) || (d == 1 && nd.size[2] > 1);
    if (more) budget /= wg.size[d];  // a 64-bit division takes tens of cycles: only if needed
  }
  return wg;
}

/// Internal access to a Kernel's OpenCL objects, for tests and benchmarks that compare against
/// raw OpenCL calls on the very same cl_kernel.
struct KernelAccess {
  static LaunchState& state(const Kernel& k) { return *k.state_; }
  static cl_kernel kernel(const Kernel& k) { return k.state_->kernel.get(); }
  static cl_command_queue queue(const Kernel& k) { return k.state_->core->queue.get(); }
};

}  // namespace spvjit::detail
