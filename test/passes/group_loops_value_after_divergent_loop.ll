; PASS: group-loops-8x2
; A loop each work-item leaves at its own iteration (%c tests the local id), then a barrier, then
; a value of the loop (%v = %i + %lx) read after it. The counter %i agrees between the
; work-items still inside the loop, but not between work-items at large, so it is not kept once
; per group: %v keeps a slot per work-item. (Keeping %i once per group and computing %v again
; after the barrier gave every work-item the last one's counter plus its own id.)
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z13get_global_idj(i32)
declare spir_func void @_Z7barrierj(i32)

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: group.entry:
; CHECK-NOT: %i.group
; CHECK: %v.reg2mem.group = alloca [128 x i8]
; CHECK-NOT: %i.group
; CHECK-NOT: %v.again
; CHECK: ret void
define spir_kernel void @k(i64 addrspace(1)* %out) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  br label %body

body:
  %i = phi i64 [ 0, %entry ], [ %i1, %latch ]
  %v = add i64 %i, %lx
  %c = icmp uge i64 %i, %lx
  br i1 %c, label %exit, label %latch

latch:
  %i1 = add i64 %i, 1
  br label %body

exit:
  call spir_func void @_Z7barrierj(i32 1)
  %g = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr i64, i64 addrspace(1)* %out, i64 %g
  store i64 %v, i64 addrspace(1)* %p
  ret void
}
