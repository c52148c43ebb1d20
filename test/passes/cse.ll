; PASS: cse
; The cse step after merge-bounds-checks (ir/cse.hpp: mem2reg and EarlyCSE on every function):
; the shared report block's phis whose incoming values are all one value (the record, the
; global id) become that value.
; CHECK-LABEL: define spir_kernel void @twice_read(
; CHECK: bounds.failed:
; CHECK-NEXT: %[[SITE:[0-9]+]] = phi i32 [ 0, %out.of.bounds ], [ 2, %out.of.bounds7 ], [ 3, %out.of.bounds11 ]
; CHECK-NEXT: %[[INDEX:[0-9]+]] = phi i64 [ %0, %out.of.bounds ], [ %1, %out.of.bounds7 ], [ %0, %out.of.bounds11 ]
; CHECK-NEXT: %[[EXTENT:[0-9]+]] = phi i64
; CHECK-NEXT: call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 %[[SITE]], i64 %0, i64 %[[INDEX]], i64 %[[EXTENT]])
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) #0

declare i1 @__spvjit.bounds.check.1(i64, i64) #0

declare void @__spvjit.bounds.report.1(i64, i32, i64, i64, i64) #1

define spir_kernel void @twice_read(float addrspace(1)* %x, float addrspace(1)* %z, i64 %__spvjit_extent_x, i64 %__spvjit_extent_z, i64 %__spvjit_bounds, i64 %__spvjit_fast_end) {
entry:
  %0 = call spir_func i64 @_Z13get_global_idj(i32 0)
  %1 = add i64 %0, 1
  %in.bounds = call i1 @__spvjit.bounds.check.1(i64 %0, i64 %__spvjit_extent_x)
  br i1 %in.bounds, label %access, label %out.of.bounds, !prof !1

out.of.bounds:                                    ; preds = %entry
  br label %bounds.failed

access:                                           ; preds = %entry
  %2 = getelementptr inbounds float, float addrspace(1)* %x, i64 %0
  %3 = load float, float addrspace(1)* %2, align 4
  %4 = fmul float %3, %3
  %in.bounds5 = call i1 @__spvjit.bounds.check.1(i64 %1, i64 %__spvjit_extent_x)
  br i1 %in.bounds5, label %access6, label %out.of.bounds7, !prof !1

out.of.bounds7:                                   ; preds = %access
  br label %bounds.failed

access6:                                          ; preds = %access
  %5 = getelementptr inbounds float, float addrspace(1)* %x, i64 %1
  %6 = load float, float addrspace(1)* %5, align 4
  %7 = fadd float %4, %6
  %in.bounds9 = call i1 @__spvjit.bounds.check.1(i64 %0, i64 %__spvjit_extent_z)
  br i1 %in.bounds9, label %access10, label %out.of.bounds11, !prof !1

out.of.bounds11:                                  ; preds = %access6
  br label %bounds.failed

access10:                                         ; preds = %access6
  %8 = getelementptr inbounds float, float addrspace(1)* %z, i64 %0
  store float %7, float addrspace(1)* %8, align 4
  ret void

bounds.failed:                                    ; preds = %out.of.bounds11, %out.of.bounds7, %out.of.bounds
  %9 = phi i64 [ %__spvjit_bounds, %out.of.bounds ], [ %__spvjit_bounds, %out.of.bounds7 ], [ %__spvjit_bounds, %out.of.bounds11 ]
  %10 = phi i32 [ 0, %out.of.bounds ], [ 2, %out.of.bounds7 ], [ 3, %out.of.bounds11 ]
  %11 = phi i64 [ %0, %out.of.bounds ], [ %0, %out.of.bounds7 ], [ %0, %out.of.bounds11 ]
  %12 = phi i64 [ %0, %out.of.bounds ], [ %1, %out.of.bounds7 ], [ %0, %out.of.bounds11 ]
  %13 = phi i64 [ %__spvjit_extent_x, %out.of.bounds ], [ %__spvjit_extent_x, %out.of.bounds7 ], [ %__spvjit_extent_z, %out.of.bounds11 ]
  call void @__spvjit.bounds.report.1(i64 %9, i32 %10, i64 %11, i64 %12, i64 %13)
  ret void
}

attributes #0 = { nounwind readnone }
attributes #1 = { cold nounwind }
!1 = !{!"branch_weights", i32 1048576, i32 1}
