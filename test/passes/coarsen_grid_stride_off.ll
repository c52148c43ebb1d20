; PASS: coarsen width=4
; The grid-stride loop of coarsen_grid_stride.ll without the grid_stride_loops option: its exit
; before the counter would overflow is a second exit on a varying condition, which coarsening
; refuses, so the kernel is left as it was.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK-NOT: vector.w4
; CHECK: define spir_kernel void @strided_sum(
; CHECK: %wraps = icmp sgt i64 %j, %limit
; CHECK-NEXT: br i1 %wraps, label %after, label %step
; CHECK-NOT: vector.w4

define spir_kernel void @strided_sum(double addrspace(1)* %out, double addrspace(1)* noalias readonly %x, i64 %n, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %inside = icmp ult i64 %gid, %__spvjit_ndrange0
  br i1 %inside, label %start, label %done

start:
  br label %loop

loop:
  %j = phi i64 [ %gid, %start ], [ %j.next, %step ]
  %sum = phi double [ 0.0, %start ], [ %sum.next, %step ]
  %more = icmp slt i64 %j, %n
  br i1 %more, label %body, label %after

body:
  %xp = getelementptr inbounds double, double addrspace(1)* %x, i64 %j
  %xj = load double, double addrspace(1)* %xp, align 8
  %sum.next = fadd double %sum, %xj
  %limit = sub i64 9223372036854775807, %__spvjit_ndrange0
  %wraps = icmp sgt i64 %j, %limit
  br i1 %wraps, label %after, label %step

step:
  %j.next = add i64 %j, %__spvjit_ndrange0
  br label %loop

after:
  %total = phi double [ %sum, %loop ], [ %sum.next, %body ]
  %op = getelementptr inbounds double, double addrspace(1)* %out, i64 %gid
  store double %total, double addrspace(1)* %op, align 8
  br label %done

done:
  ret void
}
