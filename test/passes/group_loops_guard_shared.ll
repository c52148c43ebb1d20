; PASS: group-loops-8x2
; One guard `lid < %x` over two stores, one of them also under a group-wide %c; a third store
; under `lid < %y` where %c is false. The store to %a alone could not share a pass with the one
; to %cc, but the store to %bb under the same guard can: with %c false, %x = 2 and %y = 10 the
; loop runs 8 work-items and only two may store to %bb. A guard folds only when every effect
; under it allows it, so `lid < %x` stays.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

; CHECK-LABEL: define spir_kernel void @shared(
; CHECK: r1.loop0:
; CHECK: icmp ult i64 %r1.id0, %x
; CHECK: r1.latch:
define spir_kernel void @shared(i64 %x, i64 %y, i32 %flag, i64 addrspace(1)* %a, i64 addrspace(1)* %bb, i64 addrspace(1)* %cc) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  call spir_func void @_Z7barrierj(i32 1)
  %c = icmp ne i32 %flag, 0
  %g1 = icmp ult i64 %lx, %x
  br i1 %g1, label %inside, label %second

inside:
  %pb = getelementptr i64, i64 addrspace(1)* %bb, i64 %lx
  store i64 1, i64 addrspace(1)* %pb
  br i1 %c, label %e1, label %second

e1:
  %pa = getelementptr i64, i64 addrspace(1)* %a, i64 %lx
  store i64 1, i64 addrspace(1)* %pa
  br label %second

second:
  br i1 %c, label %done, label %other

other:
  %g2 = icmp ult i64 %lx, %y
  br i1 %g2, label %e2, label %done

e2:
  %pc = getelementptr i64, i64 addrspace(1)* %cc, i64 %lx
  store i64 2, i64 addrspace(1)* %pc
  br label %done

done:
  ret void
}
