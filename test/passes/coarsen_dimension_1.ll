; PASS: coarsen-dimension-1 width=4
; Coarsening in dimension 1 (jit/coarsen/coarsen.cpp, coarsen_dimension_1) of a row-major
; kernel whose contiguous index is get_global_id(1): each work-item runs 4 consecutive columns
; of its row with 4-lane loads and stores, the dispatcher testing them against ndrange(1); the
; row stays get_global_id(0), uniform across the lanes.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK-LABEL: define spir_kernel void @scale_rows(
; CHECK: %[[ID:[0-9]+]] = call spir_func i64 @_Z13get_global_idj(i32 1)
; CHECK-NEXT: %base = mul nuw i64 %[[ID]], 4
; CHECK-NEXT: %end = add nuw i64 %base, 4
; CHECK-NEXT: %[[FULL:[0-9]+]] = icmp ule i64 %end, %__spvjit_ndrange1
; CHECK-NEXT: br i1 %[[FULL]], label %full, label %tail
; The bodies were made on the transposed kernel: their ndrange parameters 0 and 1 are passed
; the launch's ndrange(1) and ndrange(0).
; CHECK: full:
; CHECK-NEXT: call spir_func void @scale_rows.vector.w4({{.*}}, i64 %cols, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange2, i64 %[[ID]])
; CHECK: tail.body:
; CHECK-NEXT: call spir_func void @scale_rows.scalar({{.*}}, i64 %cols, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange2, i64 %i)
; CHECK-LABEL: define internal spir_func void @scale_rows.vector.w4(
; CHECK: call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK: load <4 x float>, <4 x float> addrspace(1)*
; CHECK: store <4 x float> %{{.*}}, <4 x float> addrspace(1)*
; CHECK-LABEL: define internal spir_func void @scale_rows.scalar(
; CHECK-SAME: i64 %[[N1:[0-9]+]], i64 %[[N0:[0-9]+]], i64 %{{[0-9]+}}, i64 %coarse.index)
; CHECK: %row = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK-NEXT: %rows_in = icmp ult i64 %row, %[[N0]]
; CHECK-NEXT: %cols_in = icmp ult i64 %coarse.index, %[[N1]]
define spir_kernel void @scale_rows(float addrspace(1)* %z, float addrspace(1)* noalias readonly %x, float %a, i64 %cols, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %row = call spir_func i64 @_Z13get_global_idj(i32 0)
  %col = call spir_func i64 @_Z13get_global_idj(i32 1)
  %rows_in = icmp ult i64 %row, %__spvjit_ndrange0
  %cols_in = icmp ult i64 %col, %__spvjit_ndrange1
  %inside = and i1 %rows_in, %cols_in
  br i1 %inside, label %body, label %done

body:
  %start = mul i64 %row, %cols
  %at = add i64 %start, %col
  %xp = getelementptr inbounds float, float addrspace(1)* %x, i64 %at
  %xv = load float, float addrspace(1)* %xp, align 4
  %ax = fmul float %a, %xv
  %zp = getelementptr inbounds float, float addrspace(1)* %z, i64 %at
  store float %ax, float addrspace(1)* %zp, align 4
  br label %done

done:
  ret void
}
