; PASS: coarsen width=4
; A kernel that reads memory at twice its global index is not element-wise: coarsening leaves it
; as it is and says why (the log line at info, and the message of a kernel declared elementwise()).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK: left alone: indexes memory by a value other than get_global_id(0)
; CHECK-LABEL: define spir_kernel void @strided(
; CHECK-NOT: <{{[0-9]+}} x float>
; CHECK-NOT: define
define spir_kernel void @strided(float addrspace(1)* %z, float addrspace(1)* noalias readonly %x, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %inside = icmp ult i64 %gid, %__spvjit_ndrange0
  br i1 %inside, label %body, label %done

body:
  %twice = mul i64 %gid, 2
  %xp = getelementptr inbounds float, float addrspace(1)* %x, i64 %twice
  %xv = load float, float addrspace(1)* %xp, align 4
  %zp = getelementptr inbounds float, float addrspace(1)* %z, i64 %gid
  store float %xv, float addrspace(1)* %zp, align 4
  br label %done

done:
  ret void
}
