; PASS: fuse-fmuladd-f32-only
; A device with FMA for float alone: double's fmuladd stays (OpenCL's mad, unfused).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: call float @llvm.fma.f32(float %a, float %b, float %c)
; CHECK: call double @llvm.fmuladd.f64(double %x, double %y, double %z)
define spir_kernel void @k(float addrspace(1)* %o, float %a, float %b, float %c, double addrspace(1)* %od, double %x, double %y, double %z) {
  %r = call float @llvm.fmuladd.f32(float %a, float %b, float %c)
  store float %r, float addrspace(1)* %o
  %d = call double @llvm.fmuladd.f64(double %x, double %y, double %z)
  store double %d, double addrspace(1)* %od
  ret void
}
declare float @llvm.fmuladd.f32(float, float, float)
declare double @llvm.fmuladd.f64(double, double, double)
