; PASS: divergence-memory-varies
; A loop whose exit depends on the local id, with a barrier inside (legal only where the exit is
; in fact the same for the whole group, as in test_examples_stream.cpp's tree_sum, whose bound is
; read from local memory). Its counter %i, read only inside the loop, is the same for every
; work-item still in it: it does not vary, so the group loops keep it once per group across the
; barrier (divergence_loop_exit.ll: the same counter read after the loop varies).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

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
  call spir_func void @_Z7barrierj(i32 1)
  %next = add i64 %i, 1
  br label %header

exit:
  ret void
}
