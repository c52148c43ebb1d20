; PASS: group-loops-8x2
; A group-wide condition below a guard says nothing of the passes that reach the guard: here %c
; is tested after `lid < %x`, and the store to %b (under `lid < %y`, where %c is false) may run
; in the same pass as that guard. With %c false, %x = 2 and %y = 10 the loop runs 8 work-items,
; and only two of them may pass `lid < %x`: that guard must stay. The store to %b, whose guard
; nothing with another test can share a pass with (the store to %a runs only where %c holds),
; folds to `%y != 0`.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

; CHECK-LABEL: define spir_kernel void @below(
; CHECK: region1:
; CHECK: %region.any = icmp ne i64 %y, 0
; CHECK: r1.loop0:
; CHECK: icmp ult i64 %r1.id0, %x
; CHECK: br i1 %region.any, label %e2.r1, label %done.r1
; CHECK: r1.latch:
define spir_kernel void @below(i64 %x, i64 %y, i32 %flag, i64 addrspace(1)* %a, i64 addrspace(1)* %b) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  call spir_func void @_Z7barrierj(i32 1)
  %c = icmp ne i32 %flag, 0
  %g1 = icmp ult i64 %lx, %x
  br i1 %g1, label %inside, label %done

inside:
  br i1 %c, label %e1, label %other

e1:
  %pa = getelementptr i64, i64 addrspace(1)* %a, i64 %lx
  store i64 1, i64 addrspace(1)* %pa
  br label %done

other:
  %g2 = icmp ult i64 %lx, %y
  br i1 %g2, label %e2, label %done

e2:
  %pb = getelementptr i64, i64 addrspace(1)* %b, i64 %lx
  store i64 2, i64 addrspace(1)* %pb
  br label %done

done:
  ret void
}
