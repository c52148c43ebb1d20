; PASS: divergence-barrier-check
; The counter of a loop each work-item leaves at its own iteration, stored into a private array
; after the loop and read back: the array holds what each work-item left the loop with, so %x
; varies and the barrier under `%x == 3` is in a divergent block (test_lang_divergence.cpp,
; stored_after_divergent_loop, the builder's message for it).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

; CHECK: varies: %lx (local_index(0))
; CHECK-NEXT: varies: %stop (local_index(0))
; CHECK-NEXT: varies: %x (local_index(0))
; CHECK-NEXT: varies: %is3 (local_index(0))
; CHECK-NEXT: divergent: %header
; CHECK-NEXT: divergent: %body
; CHECK-NEXT: divergent: %bar
; CHECK-NEXT: ; ModuleID
define spir_kernel void @k(i64 addrspace(1)* %out) {
entry:
  %arr = alloca [4 x i64]
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  br label %header

header:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %stop = icmp uge i64 %i, %lx
  br i1 %stop, label %exit, label %body

body:
  %next = add i64 %i, 1
  br label %header

exit:
  %p0 = getelementptr [4 x i64], [4 x i64]* %arr, i64 0, i64 0
  store i64 %i, i64* %p0
  %x = load i64, i64* %p0
  %is3 = icmp eq i64 %x, 3
  br i1 %is3, label %bar, label %done

bar:
  call spir_func void @_Z7barrierj(i32 1)
  br label %done

done:
  ret void
}
