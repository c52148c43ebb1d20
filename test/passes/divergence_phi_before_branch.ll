; PASS: divergence-barrier-check
; The loop of divergence_loop_counter.ll with a phi (%j) in its body, which the blocks' order puts
; after the header whose branch turns divergent. The answer must not depend on that order: under
; the barrier check's rules the counter %i, %j and %next are what the work-items inside the loop
; agree on, so none of them varies. (The rules once read each block's divergent deciders as the
; previous round left them, and called all three varying.)
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)

; CHECK: varies: %lx (local_index(0))
; CHECK-NEXT: varies: %more (local_index(0))
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
  %j = phi i64 [ %i, %header ]
  %next = add i64 %j, 1
  br label %header

exit:
  ret void
}
