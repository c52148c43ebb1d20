; PASS: swap-dimensions-0-and-1
; Dimensions 0 and 1 exchanged (jit/coarsen/swap_dimensions.cpp): every work-item query of
; dimension 0 asks dimension 1 and the reverse, in the kernel and its device functions, dimension
; 2 as it was; the uses of the hidden ndrange arguments 0 and 1 exchanged, the arguments
; themselves where they were.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone
declare spir_func i64 @_Z12get_local_idj(i32) nounwind readnone
declare spir_func i64 @_Z14get_num_groupsj(i32) nounwind readnone

; CHECK-LABEL: define spir_func i64 @row_of(
; CHECK-NEXT: call spir_func i64 @_Z12get_local_idj(i32 1)
define spir_func i64 @row_of() {
  %l = call spir_func i64 @_Z12get_local_idj(i32 0)
  ret i64 %l
}

; CHECK-LABEL: define spir_kernel void @copy(
; CHECK: %row = call spir_func i64 @_Z13get_global_idj(i32 1)
; CHECK-NEXT: %col = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK-NEXT: %plane = call spir_func i64 @_Z13get_global_idj(i32 2)
; CHECK-NEXT: %groups = call spir_func i64 @_Z14get_num_groupsj(i32 0)
; CHECK-NEXT: %rows_in = icmp ult i64 %row, %__spvjit_ndrange1
; CHECK-NEXT: %cols_in = icmp ult i64 %col, %__spvjit_ndrange0
; CHECK-NEXT: %planes_in = icmp ult i64 %plane, %__spvjit_ndrange2
define spir_kernel void @copy(float addrspace(1)* %z, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %row = call spir_func i64 @_Z13get_global_idj(i32 0)
  %col = call spir_func i64 @_Z13get_global_idj(i32 1)
  %plane = call spir_func i64 @_Z13get_global_idj(i32 2)
  %groups = call spir_func i64 @_Z14get_num_groupsj(i32 1)
  %rows_in = icmp ult i64 %row, %__spvjit_ndrange0
  %cols_in = icmp ult i64 %col, %__spvjit_ndrange1
  %planes_in = icmp ult i64 %plane, %__spvjit_ndrange2
  %in2 = and i1 %rows_in, %cols_in
  %in = and i1 %in2, %planes_in
  br i1 %in, label %body, label %done

body:
  %local = call spir_func i64 @row_of()
  %at0 = mul i64 %row, %groups
  %at1 = add i64 %at0, %col
  %at = add i64 %at1, %local
  %zp = getelementptr inbounds float, float addrspace(1)* %z, i64 %at
  store float 1.0, float addrspace(1)* %zp, align 4
  br label %done

done:
  ret void
}
