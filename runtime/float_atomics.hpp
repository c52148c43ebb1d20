// Which float atomic adds a device runs natively (cl_ext_float_atomics). Private to runtime/ and
// jit/; no OpenCL types in the interface, so the LLVM side can include it.
#pragma once

namespace spvjit::detail {

class RuntimeCore;

struct FloatAtomicAdd {
  bool f32_global = false;
  bool f32_local = false;
  bool f64_global = false;
  bool f64_local = false;
};

/// Queries CL_DEVICE_{SINGLE,DOUBLE}_FP_ATOMIC_CAPABILITIES_EXT; all false without the extension.
FloatAtomicAdd query_float_atomic_add(const RuntimeCore& core);

}  // namespace spvjit::detail
