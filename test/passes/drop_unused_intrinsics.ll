; PASS: drop-unused-intrinsics
; What the legalizations leave: the declarations of intrinsics whose calls they replaced go, the
; ones still called stay, and so do declarations that are no intrinsics (OpenCL builtins).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

; CHECK-NOT: @llvm.vector.reduce.add
; CHECK-NOT: @llvm.fshl
; CHECK-DAG: declare float @llvm.fma.f32(float, float, float)
; CHECK-DAG: declare spir_func i64 @_Z13get_global_idj(i32)
; CHECK-DAG: declare spir_func i64 @_Z12get_local_idj(i32)
; CHECK-LABEL: define spir_kernel void @k(
; CHECK: call float @llvm.fma.f32(
; CHECK-NOT: @llvm.vector.reduce.add
; CHECK-NOT: @llvm.fshl

declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare i17 @llvm.fshl.i17(i17, i17, i17)
declare float @llvm.fma.f32(float, float, float)
declare spir_func i64 @_Z13get_global_idj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)

define spir_kernel void @k(float addrspace(1)* %out, float %a) {
  %f = call float @llvm.fma.f32(float %a, float %a, float %a)
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr float, float addrspace(1)* %out, i64 %i
  store float %f, float addrspace(1)* %p
  ret void
}
