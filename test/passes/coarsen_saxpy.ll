; PASS: coarsen width=4
; Coarsening (jit/coarsen/coarsen.cpp) of an element-wise kernel, specialized with its ndrange
; dynamic: each work-item runs 4 consecutive indices with 4-lane loads, arithmetic and stores
; when all 4 are inside the ndrange, else the scalar body once per index still inside it.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK-LABEL: define spir_kernel void @saxpy(
; CHECK: %[[ID:[0-9]+]] = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK-NEXT: %base = mul nuw i64 %[[ID]], 4
; CHECK-NEXT: %end = add nuw i64 %base, 4
; CHECK-NEXT: %[[FULL:[0-9]+]] = icmp ule i64 %end, %__spvjit_ndrange0
; CHECK-NEXT: br i1 %[[FULL]], label %full, label %tail
; CHECK: full:
; CHECK-NEXT: call spir_func void @saxpy.vector.w4({{.*}}, i64 %[[ID]])
; CHECK: tail.loop:
; CHECK-NEXT: %i = phi i64 [ %base, %tail ]
; CHECK: tail.body:
; CHECK-NEXT: call spir_func void @saxpy.scalar({{.*}}, i64 %i)
; CHECK-LABEL: define internal spir_func void @saxpy.vector.w4(
; CHECK: %[[X:[0-9]+]] = load <4 x float>, <4 x float> addrspace(1)*
; CHECK: %[[AX:[0-9]+]] = fmul <4 x float> %.splat{{[0-9]*}}, %[[X]]
; CHECK: store <4 x float> %[[AX]], <4 x float> addrspace(1)*
; CHECK-LABEL: define internal spir_func void @saxpy.scalar(
; CHECK: %inside = icmp ult i64 %coarse.index, %3
; CHECK: %xv = load float
; CHECK: store float %ax
define spir_kernel void @saxpy(float addrspace(1)* %z, float addrspace(1)* noalias readonly %x, float %a, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %inside = icmp ult i64 %gid, %__spvjit_ndrange0
  br i1 %inside, label %body, label %done

body:
  %xp = getelementptr inbounds float, float addrspace(1)* %x, i64 %gid
  %xv = load float, float addrspace(1)* %xp, align 4
  %ax = fmul float %a, %xv
  %zp = getelementptr inbounds float, float addrspace(1)* %z, i64 %gid
  store float %ax, float addrspace(1)* %zp, align 4
  br label %done

done:
  ret void
}
