// LaunchState: everything a launch needs, computed once per specialization — the kernel object,
// the signature, static sizes, the device limits and the geometry rules — so the launch path
// queries nothing.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/core.hpp"
#include "common/entry_launch.hpp"
#include "common/geometry.hpp"
#include "common/group_stack.hpp"
#include "common/kernel_interface.hpp"
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

/// A compiled kernel's interface and what its compile learned: everything its LaunchState is
/// made from, in one step.
struct KernelFacts : KernelInterface {
  /// The static sizes, settled (common/geometry.hpp: a static ndrange fixes the workgroup too).
  Specialization spec;
  /// The stack each work-item of a group takes on the thread that runs it: chosen workgroups
  /// shrink to fit, given ones above it are refused.
  GroupStack stack;
  /// What the lowering decided for the launch: indices per work-item in dimension 0 (the
  /// launch runs ceil(ndrange / coarsen) work-items there, the hidden ndrange arguments keep the
  /// full size), one work-item per work-group (the launch enqueues the group count as the
  /// global size and a local size of 1), whether an adaptive runtime may split it with offsets,
  /// and the ndrange(0) a 32-bit index allows (common/entry_launch.hpp).
  EntryLaunch launch;
};

/// A kernel whose struct parameters hold pointers (`float* data`) reads memory no argument
/// passes: lets it do so (CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM) where every device shares
/// all host memory. With buffer SVM only the pointers must point into SharedArrays; without
/// SVM it throws UserError naming the member. Nothing for kernels without such members.
void allow_struct_pointers(const RuntimeCore& core, cl_kernel kernel,
                           const std::string& kernel_name, const std::vector<Param>& params);

/// A compiled kernel ready to launch: made once per specialization from its KernelFacts and the
/// device's answers, never changed afterwards except for what launches memoize under `mutex`.
class LaunchState {
 public:
  LaunchState(std::shared_ptr<RuntimeCore> core, std::shared_ptr<ClHandle<cl_program>> program,
              KernelFacts facts);
  ~LaunchState();
  LaunchState(const LaunchState&) = delete;
  LaunchState& operator=(const LaunchState&) = delete;

  const std::shared_ptr<RuntimeCore> core;
  const std::shared_ptr<ClHandle<cl_program>> program;
  const KernelFacts facts;
  const ClHandle<cl_kernel> kernel;
  /// The device's local memory (the least over an adaptive runtime's two devices).
  const std::uint64_t local_mem_size;
  /// The kernel's limits (both devices of an adaptive runtime), its stack, padding and
  /// coarsening: what every launch's geometry follows (common/geometry.hpp).
  const GeometryRules rules;
  /// A static ndrange fixes the whole geometry: computed here, reused by every launch.
  const bool static_geometry;
  const Partition fixed;
  /// Bounds-checked kernels: the record slot whose address the kernel holds (null where the
  /// device has no SVM for it).
  std::uint64_t* const bounds_slot;

  // What launches remember, guarded by `mutex`.
  std::vector<ArgMemo> memo;  ///< one per OpenCL argument, hidden ones included
  /// released_memory when `memo` was last trusted (runtime/released_memory.hpp).
  std::uint64_t memo_released = 0;
  /// The geometry of the last launch with a dynamic ndrange, and the workgroup it was given
  /// (none: spvjit chose one). Launches mostly repeat their sizes; this skips the rules'
  /// checks and divisions for them.
  bool last_geometry_valid = false;
  bool last_given = false;
  WorkGroup last_given_workgroup;
  Partition last_geometry;
  /// The ndrange of the latest launch, for BoundsError's message.
  NDRange last_ndrange;
  /// PoCL's kernel runners for the last geometries launched on `basic`
  /// (runtime/kernel_runner.hpp), each made on the launching thread the first time its geometry
  /// runs and released when a fifth geometry takes its place (a launch alternating a few sizes
  /// keeps them all); `refused` where PoCL would not make one (that geometry's launches enqueue).
  struct DirectRunner {
    PoclKernelRunner runner = nullptr;
    bool refused = false;
    cl_uint dims = 0;
    std::array<std::size_t, 3> global{}, local{};
  };
  std::array<DirectRunner, 4> direct{};
  unsigned direct_next = 0;  ///< the entry the next new geometry replaces
  // An OpenCL kernel's arguments are not thread-safe (clSetKernelArg then enqueue must not
  // interleave), so both happen under this lock. Measured on PoCL 6.0, 2 cores: removing it
  // moved a 16-item launch on basic (~0.68 us) by less than the noise, and 4 threads launching
  // one kernel ran no slower than raw OpenCL with a cl_kernel clone per thread (basic: 1.31 vs
  // 1.51 us per launch; pthread: 2.06 vs 2.49), as PoCL serializes on the queue anyway.
  std::mutex mutex;
};

/// Internal access to a Kernel's OpenCL objects, for tests and benchmarks that compare against
/// raw OpenCL calls on the very same cl_kernel.
struct KernelAccess {
  static LaunchState& state(const Kernel& k) { return *k.state_; }
  static cl_kernel kernel(const Kernel& k) { return k.state_->kernel.get(); }
  /// Kernel handles sharing k's launch state, k included (0 for an empty handle).
  static long holders(const Kernel& k) noexcept { return k.state_.use_count(); }
  static cl_command_queue queue(const Kernel& k) { return k.state_->core->queue.get(); }
  /// A launch whose arguments are known only at run time (the kernel corpus's data-driven
  /// cases): `args` holds `count` views and a default one after them, as launch() builds.
  static void launch(Kernel& k, const NDRange& ndrange, const WorkGroup& workgroup,
                     const ArgView* args, std::size_t count) {
    k.launch_packed(ndrange, &workgroup, args, count, nullptr);
  }
};

}  // namespace spvjit::detail
