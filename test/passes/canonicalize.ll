; PASS: canonicalize
; The canonicalize step (ir/canonical_form.hpp) on a kernel as the builder leaves it: a variable
; in a stack slot reached through `getelementptr %slot, 0`, the block the builder opens after a
; return_() (unreachable), and two returns. After it: the variable is a phi, the unreachable
; block is gone and both returns branch to one exit.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK-LABEL: define spir_kernel void @clamp_store(
; CHECK-NOT: alloca
; CHECK: %[[V:[a-z0-9.]+]] = phi float [ 0.000000e+00, %negative ], [ %x, %inside ]
; CHECK: store float %[[V]], float addrspace(1)* %p
; CHECK-NOT: after.return
; CHECK: br label %exit
; CHECK: exit:
; CHECK-NEXT: ret void
; CHECK-NOT: ret void
define spir_kernel void @clamp_store(float addrspace(1)* %y, float %x, i64 %n) {
entry:
  %slot = alloca float, align 4
  %v.ptr = getelementptr inbounds float, float* %slot, i64 0
  store float %x, float* %v.ptr, align 4
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %outside = icmp uge i64 %i, %n
  br i1 %outside, label %early, label %inside

early:
  ret void

after.return:
  br label %inside

inside:
  %is.negative = fcmp olt float %x, 0.000000e+00
  br i1 %is.negative, label %negative, label %write

negative:
  store float 0.000000e+00, float* %v.ptr, align 4
  br label %write

write:
  %v = load float, float* %v.ptr, align 4
  %p = getelementptr inbounds float, float addrspace(1)* %y, i64 %i
  store float %v, float addrspace(1)* %p, align 4
  ret void
}
