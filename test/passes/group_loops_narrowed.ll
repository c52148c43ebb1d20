; PASS: group-loops-8x2
; A value the whole group shares across a barrier (%s) is kept once per group: read before the
; region's loops, written after them; its arithmetic (%half) runs once, before the loops. Every
; store of the second region lies under `lid < %half`, so its innermost loop stops at %half
; work-items (at least one, at most 8) instead of 8, and the guard, true for every work-item the
; loop now runs unless %half <= 0, becomes the loop-invariant `%half > 0`.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

@tile = internal addrspace(3) global [16 x i64] undef

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: group.entry:
; CHECK: %s.group = alloca i64
; CHECK: region0:
; CHECK: r0.after1:
; CHECK-NEXT: store i64 %{{.*}}, i64* %s.group
; CHECK: region1:
; CHECK-NEXT: %s.in.r1 = load i64, i64* %s.group
; CHECK-NEXT: %half.r1 = sdiv i64 %s.in.r1, 2
; CHECK: %region.items = select i1 %{{.*}}, i64 1, i64 %{{.*}}
; CHECK-NEXT: %region.any = icmp sgt i64 %half.r1, 0
; CHECK: r1.loop1:
; CHECK-NOT: icmp slt i64 %r1.id0
; CHECK: br i1 %region.any, label %add.r1, label %done.r1
; CHECK: %r1.step0 = add nuw nsw i64 %r1.id0, 1
; CHECK-NEXT: %{{.*}} = icmp ult i64 %r1.step0, %region.items
define spir_kernel void @k(i64 %start) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %s = add i64 %start, 4
  %slot = getelementptr [16 x i64], [16 x i64] addrspace(3)* @tile, i64 0, i64 %lx
  store i64 %lx, i64 addrspace(3)* %slot
  call spir_func void @_Z7barrierj(i32 1)
  %half = sdiv i64 %s, 2
  %inside = icmp slt i64 %lx, %half
  br i1 %inside, label %add, label %done

add:
  %other = add i64 %lx, %half
  %from = getelementptr [16 x i64], [16 x i64] addrspace(3)* @tile, i64 0, i64 %other
  %v = load i64, i64 addrspace(3)* %from
  store i64 %v, i64 addrspace(3)* %slot
  br label %done

done:
  ret void
}
