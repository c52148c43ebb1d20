; PASS: group-loops-8x2
; The dot's reduction level: after the barrier, a uniform branch (%more, the same for the whole
; group) picks between a level (`lid < %half`) and the final store (`lid == 0`). Each side effect
; counts only on its own side, so the loop runs %half work-items on the first (one on the other),
; and there `lid < %half` holds for every one it runs: the guard becomes the loop-invariant
; `%half > 0`, and the level has no branch per work-item.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

@tile = internal addrspace(3) global [16 x i64] undef

; CHECK-LABEL: define spir_kernel void @level(
; CHECK: region1:
; CHECK: %more.r1 = icmp sgt i64 %half.r1, 0
; CHECK: [[LEVEL:%.*]] = select i1 %{{.*}}, i64 %{{.*}}, i64 8
; CHECK: [[NOTMORE:%.*]] = xor i1 %more.r1, true
; CHECK-NEXT: [[LAST:%.*]] = select i1 [[NOTMORE]], i64 1, i64 0
; CHECK-NEXT: [[ONLEVEL:%.*]] = select i1 %more.r1, i64 [[LEVEL]], i64 0
; CHECK: %region.items = select i1 %{{.*}}, i64 1, i64 %{{.*}}
; CHECK-NEXT: %region.any = icmp sgt i64 %half.r1, 0
; CHECK: r1.loop0:
; CHECK-NOT: icmp slt i64 %r1.id0
; CHECK: icmp eq i64 %r1.id0, 0
; CHECK: level.r1:
; CHECK-NEXT: br i1 %region.any, label %add.r1, label %next.r1
; CHECK: r1.latch:
; CHECK-NEXT: %r1.step0 = add nuw nsw i64 %r1.id0, 1
; CHECK-NEXT: %{{.*}} = icmp ult i64 %r1.step0, %region.items
define spir_kernel void @level(i64 %start, i64 addrspace(1)* %out) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %s = add i64 %start, 4
  %slot = getelementptr [16 x i64], [16 x i64] addrspace(3)* @tile, i64 0, i64 %lx
  store i64 %lx, i64 addrspace(3)* %slot
  call spir_func void @_Z7barrierj(i32 1)
  %half = sdiv i64 %s, 2
  %more = icmp sgt i64 %half, 0
  br i1 %more, label %level, label %last

level:
  %inside = icmp slt i64 %lx, %half
  br i1 %inside, label %add, label %next

add:
  %other = add i64 %lx, %half
  %from = getelementptr [16 x i64], [16 x i64] addrspace(3)* @tile, i64 0, i64 %other
  %v = load i64, i64 addrspace(3)* %from
  store i64 %v, i64 addrspace(3)* %slot
  br label %next

last:
  %first = icmp eq i64 %lx, 0
  br i1 %first, label %write, label %next

write:
  %sum = load i64, i64 addrspace(3)* %slot
  store i64 %sum, i64 addrspace(1)* %out
  br label %next

next:
  ret void
}
