; PASS: coarsen width=4
; A kernel that reads through a pointer chosen per work-item (even ones read X, odd ones Z) is not
; element-wise: coarsening leaves it as it is and says why (the log line at info, and the message
; of a kernel declared elementwise()). An index computed otherwise from the global id would be
; coarsened as one element per lane (coarsen_gather.ll).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK: left alone: indexes memory through a pointer that differs between work-items
; CHECK-LABEL: define spir_kernel void @chosen(
; CHECK-NOT: <{{[0-9]+}} x float>
; CHECK-NOT: define
define spir_kernel void @chosen(float addrspace(1)* %z, float addrspace(1)* noalias readonly %x, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %inside = icmp ult i64 %gid, %__spvjit_ndrange0
  br i1 %inside, label %body, label %done

body:
  %odd = trunc i64 %gid to i1
  %from = select i1 %odd, float addrspace(1)* %z, float addrspace(1)* %x
  %xp = getelementptr inbounds float, float addrspace(1)* %from, i64 %gid
  %xv = load float, float addrspace(1)* %xp, align 4
  %zp = getelementptr inbounds float, float addrspace(1)* %z, i64 %gid
  store float %xv, float addrspace(1)* %zp, align 4
  br label %done

done:
  ret void
}
