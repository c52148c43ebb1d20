; PASS: divergence-group-loops
; The loop of divergence_loop_counter.ll under the group loops' rules: a value must be the same
; for every work-item wherever it is read (the group loops keep a uniform value once per group and
; compute values again after a barrier), so the counter %i, a phi in a block only some
; work-items run, varies, and %next with it.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

; CHECK: varies: %lx (local_index(0))
; CHECK-NEXT: varies: %i (local_index(0))
; CHECK-NEXT: varies: %more (local_index(0))
; CHECK-NEXT: varies: %next (local_index(0))
; CHECK-NEXT: divergent: %header
; CHECK-NEXT: divergent: %body
; CHECK-NEXT: ; ModuleID
define spir_kernel void @k(i64 addrspace(1)* %out) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  br label %header

header:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %more = icmp ult i64 %i, %lx
  br i1 %more, label %body, label %exit

body:
  call spir_func void @_Z7barrierj(i32 1)
  %next = add i64 %i, 1
  br label %header

exit:
  ret void
}
