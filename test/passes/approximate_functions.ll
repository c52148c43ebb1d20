; PASS: approximate-functions
; The approximate-functions step (ir/approximate_math.hpp): a call to exp, log or erfc that
; carries `afn` becomes inline arithmetic (FMAs, no call), scalar or vector, float or double; a
; call without the flag, and a function the step has no approximation of, stay calls.
; CHECK-LABEL: define spir_kernel void @calls(
; CHECK-NOT: call {{.*}}@_Z4erfcf(
; CHECK-NOT: call {{.*}}@_Z3expDv4_d(
; CHECK: call float @llvm.fma.f32(
; CHECK: call <4 x double> @llvm.fma.v4f64(
; CHECK: call spir_func float @_Z3logf(float %x)
; CHECK: call afn spir_func float @_Z3sinf(float %x)
; CHECK-NOT: call {{.*}}@_Z4erfcf(
; CHECK-NOT: call {{.*}}@_Z3expDv4_d(
; CHECK: ret void
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func float @_Z4erfcf(float)
declare spir_func <4 x double> @_Z3expDv4_d(<4 x double>)
declare spir_func float @_Z3logf(float)
declare spir_func float @_Z3sinf(float)

define spir_kernel void @calls(float addrspace(1)* %out, <4 x double> addrspace(1)* %vout, float %x, <4 x double> %v) {
entry:
  %e = call afn spir_func float @_Z4erfcf(float %x)
  %w = call fast spir_func <4 x double> @_Z3expDv4_d(<4 x double> %v)
  %l = call spir_func float @_Z3logf(float %x)
  %s = call afn spir_func float @_Z3sinf(float %x)
  %a = fadd float %e, %l
  %b = fadd float %a, %s
  store float %b, float addrspace(1)* %out, align 4
  store <4 x double> %w, <4 x double> addrspace(1)* %vout, align 32
  ret void
}
