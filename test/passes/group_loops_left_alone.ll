; PASS: group-loops-8x2
; No barrier: the device's own work-item loop is as good; the kernel is left as it was.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)

; CHECK: left alone: has no barrier
; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NEXT: %g = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK-NEXT: %dst = getelementptr i32, i32 addrspace(1)* %out, i64 %g
; CHECK-NEXT: store i32 1, i32 addrspace(1)* %dst
; CHECK-NEXT: ret void
define spir_kernel void @k(i32 addrspace(1)* %out) {
  %g = call spir_func i64 @_Z13get_global_idj(i32 0)
  %dst = getelementptr i32, i32 addrspace(1)* %out, i64 %g
  store i32 1, i32 addrspace(1)* %dst
  ret void
}
