; PASS: coarsen width=4
; A branch on each lane's own value inside a loop every lane runs alike (the loop's counter and
; bound uniform): the region below it is one iteration's and is if-converted inside the loop — the
; unmasked copies for lanes that agree, tested by every_lane / no_lane, then the masked chain
; whose phi is a select on the lanes' condition. The loop itself keeps its scalar counter.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK-LABEL: define internal spir_func void @conditional_sum.vector.w4(
; CHECK: loop:
; CHECK: %k = phi i64
; CHECK: fcmp ogt <4 x float>
; CHECK: lanes.differ
; CHECK: select <4 x i1> %{{[0-9a-z.]+}}, <4 x float>
; CHECK: icmp ult i64 %k.next, %{{[0-9a-z.]+}}
; CHECK: store <4 x float>
; CHECK-LABEL: define internal spir_func void @conditional_sum.scalar(

define spir_kernel void @conditional_sum(float addrspace(1)* %z, float addrspace(1)* noalias readonly %x, float addrspace(1)* noalias readonly %t, i64 %n, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %inside = icmp ult i64 %gid, %__spvjit_ndrange0
  br i1 %inside, label %start, label %done

start:
  %xp = getelementptr inbounds float, float addrspace(1)* %x, i64 %gid
  %xv = load float, float addrspace(1)* %xp, align 4
  br label %loop

loop:
  %k = phi i64 [ 0, %start ], [ %k.next, %next ]
  %sum = phi float [ 0.0, %start ], [ %sum.next, %next ]
  %tp = getelementptr inbounds float, float addrspace(1)* %t, i64 %k
  %tk = load float, float addrspace(1)* %tp, align 4
  %above = fcmp ogt float %xv, %tk
  br i1 %above, label %add, label %next

add:
  %added = fadd float %sum, %tk
  br label %next

next:
  %sum.next = phi float [ %added, %add ], [ %sum, %loop ]
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %loop, label %after

after:
  %zp = getelementptr inbounds float, float addrspace(1)* %z, i64 %gid
  store float %sum.next, float addrspace(1)* %zp, align 4
  br label %done

done:
  ret void
}
