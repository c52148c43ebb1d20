; PASS: group-loops-8x2
; Two side effects on one path under different guards, `lid < %half` and `lid < %quarter`: the
; loop runs max(%half, %quarter) work-items, so neither guard holds for all of them and neither is
; folded (group_loops_folded_guards.ll folds one that does).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

@tile = internal addrspace(3) global [16 x i64] undef
@tile2 = internal addrspace(3) global [16 x i64] undef

; CHECK-LABEL: define spir_kernel void @two_guards(
; CHECK: region1:
; CHECK: %region.items = select
; CHECK-NOT: region.any
; CHECK: r1.loop0:
; CHECK: icmp slt i64 %r1.id0, %half.r1
; CHECK: icmp slt i64 %r1.id0, %quarter.r1
; CHECK: r1.latch:
define spir_kernel void @two_guards(i64 %start) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %s = add i64 %start, 4
  %slot = getelementptr [16 x i64], [16 x i64] addrspace(3)* @tile, i64 0, i64 %lx
  store i64 %lx, i64 addrspace(3)* %slot
  call spir_func void @_Z7barrierj(i32 1)
  %half = sdiv i64 %s, 2
  %quarter = sdiv i64 %s, 4
  %inside = icmp slt i64 %lx, %half
  br i1 %inside, label %add, label %second

add:
  store i64 1, i64 addrspace(3)* %slot
  br label %second

second:
  %inside2 = icmp slt i64 %lx, %quarter
  br i1 %inside2, label %add2, label %done

add2:
  %slot2 = getelementptr [16 x i64], [16 x i64] addrspace(3)* @tile2, i64 0, i64 %lx
  store i64 2, i64 addrspace(3)* %slot2
  br label %done

done:
  ret void
}
