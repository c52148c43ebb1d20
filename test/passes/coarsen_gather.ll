; PASS: coarsen width=4
; A load at a varying index that is not consecutive (a structure's field, x[4 * gid + 1]) is
; coarsened as one load per lane (a gather) when a loop free of such loads (here a sum over x
; every work-item runs alike) pays for them; the store at z[gid] stays one 4-lane store.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK-LABEL: define internal spir_func void @field.vector.w4(
; CHECK: %[[IDX:[0-9a-z.]+]] = add <4 x i64> %{{[0-9a-z.]+}}, <i64 1, i64 1, i64 1, i64 1>
; CHECK-COUNT-4: load float, float addrspace(1)*
; CHECK: store <4 x float>
; CHECK-LABEL: define internal spir_func void @field.scalar(

define spir_kernel void @field(float addrspace(1)* %z, float addrspace(1)* noalias readonly %x, i64 %n, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %inside = icmp ult i64 %gid, %__spvjit_ndrange0
  br i1 %inside, label %loop, label %done

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %kp = getelementptr inbounds float, float addrspace(1)* %x, i64 %k
  %kv = load float, float addrspace(1)* %kp, align 4
  %sum.next = fadd float %sum, %kv
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %loop, label %body

body:
  %four = mul i64 %gid, 4
  %field = add i64 %four, 1
  %xp = getelementptr inbounds float, float addrspace(1)* %x, i64 %field
  %xv = load float, float addrspace(1)* %xp, align 4
  %total = fadd float %xv, %sum.next
  %zp = getelementptr inbounds float, float addrspace(1)* %z, i64 %gid
  store float %total, float addrspace(1)* %zp, align 4
  br label %done

done:
  ret void
}
