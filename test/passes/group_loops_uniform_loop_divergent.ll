; PASS: group-loops-8x2-uniform-loops
; Loops the cut must leave alone, each refused by one rule only: a fixed-count loop under a
; work-item's own condition (`lid < 3`; its header is where the group is apart), one inside an
; outer loop each work-item runs `lid` times, and one after a return some work-items take. Each
; has a dedicated exit and tests the kernel's argument %again, which the whole group shares, so
; only the rule about where the group is apart refuses it; cutting any of them would put a
; barrier where not every work-item arrives. The kernel keeps its one barrier: two regions.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: region0:
; CHECK: region1:
; CHECK-NOT: region2:
; CHECK: group.done:
define spir_kernel void @k(i64 addrspace(1)* %out, i1 %again) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr i64, i64 addrspace(1)* %out, i64 %lx
  store i64 0, i64 addrspace(1)* %p
  call spir_func void @_Z7barrierj(i32 1)
  %mine = icmp ult i64 %lx, 3
  br i1 %mine, label %guarded.pre, label %outer.pre

guarded.pre:
  br label %guarded

guarded:
  %k = phi i64 [ 0, %guarded.pre ], [ %k.next, %guarded ]
  %k.next = add i64 %k, 1
  store i64 %k.next, i64 addrspace(1)* %p
  br i1 %again, label %guarded, label %guarded.exit

guarded.exit:
  br label %outer.pre

outer.pre:
  br label %outer

outer:
  %o = phi i64 [ 0, %outer.pre ], [ %o.next, %outer.latch ]
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %j.next = add i64 %j, 1
  store i64 %j.next, i64 addrspace(1)* %p
  br i1 %again, label %inner, label %outer.latch

outer.latch:
  %o.next = add i64 %o, 1
  %o.more = icmp slt i64 %o.next, %lx
  br i1 %o.more, label %outer, label %after

after:
  %first = icmp eq i64 %lx, 0
  br i1 %first, label %early, label %late.pre

early:
  ret void

late.pre:
  br label %late

late:
  %m = phi i64 [ 0, %late.pre ], [ %m.next, %late ]
  %m.next = add i64 %m, 1
  store i64 %m.next, i64 addrspace(1)* %p
  br i1 %again, label %late, label %late.exit

late.exit:
  ret void
}
