; PASS: group-loops-8x2-uniform-loops
; A loop the whole group runs alike (%k from 0 to 4, no barrier inside, reached by every
; work-item) is cut like a barrier at its header and its exit: each iteration is a region of its
; own, a loop over the work-items, its counter %k kept once per group and the work-item's %acc in
; a slot per work-item. The loop under a work-item's own condition (`lid < 3`) stays inside its
; region's loop.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

@tile = internal addrspace(3) global [64 x float] undef

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: group.entry:
; CHECK-DAG: %k.group = alloca i64
; CHECK-DAG: %acc.reg2mem.group = alloca [64 x i8]
; CHECK: region2:
; CHECK-NEXT: %k.in.r2 = load i64, i64* %k.group
; CHECK: r2.loop0:
; CHECK: %i.r2 = add i64 %at.r2, %r2.id0
; CHECK: load float, float addrspace(3)* %p.r2
; CHECK: r2.after1:
; CHECK-NEXT: store i64 %k.out.r2, i64* %k.group
; CHECK-NEXT: switch i64 %r2.next
; CHECK: region3:
; CHECK: r3.loop0:
; CHECK: inner.r3:
; CHECK: br i1 %again.r3, label %inner.r3, label %inner.done.r3
define spir_kernel void @k(float addrspace(1)* %out) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %slot = getelementptr [64 x float], [64 x float] addrspace(3)* @tile, i64 0, i64 %lx
  store float 1.0, float addrspace(3)* %slot
  call spir_func void @_Z7barrierj(i32 1)
  br label %header

header:
  %k = phi i64 [ 0, %entry ], [ %k.next, %header ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %header ]
  %at = mul i64 %k, 8
  %i = add i64 %at, %lx
  %p = getelementptr [64 x float], [64 x float] addrspace(3)* @tile, i64 0, i64 %i
  %v = load float, float addrspace(3)* %p
  %acc.next = fadd float %acc, %v
  %k.next = add i64 %k, 1
  %more = icmp slt i64 %k.next, 4
  br i1 %more, label %header, label %after

after:
  %mine = icmp ult i64 %lx, 3
  br i1 %mine, label %inner, label %inner.done

inner:
  %j = phi i64 [ 0, %after ], [ %j.next, %inner ]
  %j.next = add i64 %j, 1
  %again = icmp slt i64 %j.next, %lx
  br i1 %again, label %inner, label %inner.done

inner.done:
  %o = getelementptr float, float addrspace(1)* %out, i64 %lx
  store float %acc.next, float addrspace(1)* %o
  ret void
}
