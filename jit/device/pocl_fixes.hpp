// PoCL bugs spvjit works around unless the PoCL it runs on says it carries the fix: the patches
// in third_party/pocl/patches add a marker to CL_PLATFORM_VERSION for each ("OpenCL 3.0 PoCL
// 6.0+debian+spvjit-barrier-tails+spvjit-spir-byval ..."), which also puts the fixes in the
// disk cache's key (jit/cache/cache_key.cpp keys by the platform version).
#pragma once

#include "spvjit/runtime.hpp"

namespace spvjit::detail {

enum class PoclBug {
  /// Patch 0004: a barrier's tail replicated once per joining edge (jit/device/barrier_tails.hpp).
  /// Any PoCL without the marker, unless POCL_WORK_GROUP_METHOD=cbs (which does not replicate).
  BarrierTails,
  /// Patch 0005: builtins on vectors over 256 bits return garbage from SPIR-V
  /// (jit/device/split_vector_calls.hpp). Assumed of every CPU device but a PoCL with the marker.
  WideBuiltins,
  /// Patch 0014: a math builtin's vector forms compute other bits than its scalar form (exp,
  /// sin, ...; jit/coarsen/math.hpp). Assumed of every device but a PoCL with the marker.
  VectorMathDiffers,
};

/// Whether kernels on `device` must be guarded against `bug`.
bool may_have(const DeviceInfo& device, PoclBug bug);

}  // namespace spvjit::detail
