#include "runtime/float_atomics.hpp"

#include "runtime/core.hpp"

namespace spvjit::detail {

namespace {
// From the cl_ext_float_atomics specification; Debian 12's CL/cl_ext.h predates it. PoCL 6.0
// answers 0x70007 for both queries: load/store, add and min/max, in global and local memory.
constexpr cl_device_info single_fp_atomic_capabilities = 0x4231;
constexpr cl_device_info double_fp_atomic_capabilities = 0x4232;
constexpr cl_bitfield global_fp_atomic_add = 1u << 1;
constexpr cl_bitfield local_fp_atomic_add = 1u << 17;

cl_bitfield capabilities(cl_device_id device, cl_device_info query) {
  cl_bitfield bits = 0;
  if (clGetDeviceInfo(device, query, sizeof(bits), &bits, nullptr) != CL_SUCCESS) return 0;
  return bits;
}
}  // namespace

FloatAtomicAdd query_float_atomic_add(const RuntimeCore& core) {
  FloatAtomicAdd out;
  if (core.info.extensions.find("cl_ext_float_atomics") == std::string::npos) return out;
  const cl_bitfield f32 = capabilities(core.device, single_fp_atomic_capabilities);
  const cl_bitfield f64 =
      core.info.fp64 ? capabilities(core.device, double_fp_atomic_capabilities) : 0;
  out.f32_global = (f32 & global_fp_atomic_add) != 0;
  out.f32_local = (f32 & local_fp_atomic_add) != 0;
  out.f64_global = (f64 & global_fp_atomic_add) != 0;
  out.f64_local = (f64 & local_fp_atomic_add) != 0;
  return out;
}

}  // namespace spvjit::detail
