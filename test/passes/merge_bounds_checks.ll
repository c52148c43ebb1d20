; PASS: merge-bounds-checks
; z[i] = x[i] * x[i] + x[i + 1], as the builder checks it (four checks, a report path each),
; in a kernel without barriers: the second check of x[i] is the first's (it passed on every path
; to it) and goes, with its second load; the failing paths share one report block whose phis
; carry the site and the (index, extent) pair, and return.
; CHECK-LABEL: define spir_kernel void @twice_read(
; CHECK: call i1 @__spvjit.bounds.check.1(i64 %0, i64 %__spvjit_extent_x)
; CHECK: [[X:%[0-9]+]] = load float
; CHECK-NEXT: fmul float [[X]], [[X]]
; CHECK: call i1 @__spvjit.bounds.check.1(i64 %1, i64 %__spvjit_extent_x)
; CHECK: call i1 @__spvjit.bounds.check.1(i64 %0, i64 %__spvjit_extent_z)
; CHECK-NOT: call i1 @__spvjit.bounds.check.1(
; CHECK: bounds.failed:
; CHECK: phi i32 [ 0, %out.of.bounds ], [ 2, %out.of.bounds7 ], [ 3, %out.of.bounds11 ]
; CHECK: call void @__spvjit.bounds.report.1(
; CHECK-NEXT: ret void
; CHECK-NOT: call void @__spvjit.bounds.report.1(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: nounwind readnone
declare spir_func i64 @_Z13get_global_idj(i32) #0

; Function Attrs: nounwind readnone
declare i1 @__spvjit.bounds.check.1(i64, i64) #0

; Function Attrs: cold nounwind
declare void @__spvjit.bounds.report.1(i64, i32, i64, i64, i64) #1

define spir_kernel void @twice_read(float addrspace(1)* %x, float addrspace(1)* %z, i64 %__spvjit_extent_x, i64 %__spvjit_extent_z, i64 %__spvjit_bounds, i64 %__spvjit_fast_end) {
entry:
  %x.ptr = getelementptr inbounds float, float addrspace(1)* %x, i64 0
  %z.ptr = getelementptr inbounds float, float addrspace(1)* %z, i64 0
  br label %body

body:                                             ; preds = %entry
  %0 = call spir_func i64 @_Z13get_global_idj(i32 0)
  %1 = add i64 %0, 1
  %in.bounds = call i1 @__spvjit.bounds.check.1(i64 %0, i64 %__spvjit_extent_x)
  br i1 %in.bounds, label %access, label %out.of.bounds, !prof !1

out.of.bounds:                                    ; preds = %body
  %2 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 0, i64 %2, i64 %0, i64 %__spvjit_extent_x)
  br label %after.access

access:                                           ; preds = %body
  %3 = getelementptr inbounds float, float addrspace(1)* %x.ptr, i64 %0
  %4 = load float, float addrspace(1)* %3, align 4
  br label %after.access

after.access:                                     ; preds = %access, %out.of.bounds
  %5 = phi float [ %4, %access ], [ 0.000000e+00, %out.of.bounds ]
  %in.bounds1 = call i1 @__spvjit.bounds.check.1(i64 %0, i64 %__spvjit_extent_x)
  br i1 %in.bounds1, label %access2, label %out.of.bounds3, !prof !1

out.of.bounds3:                                   ; preds = %after.access
  %6 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 1, i64 %6, i64 %0, i64 %__spvjit_extent_x)
  br label %after.access4

access2:                                          ; preds = %after.access
  %7 = getelementptr inbounds float, float addrspace(1)* %x.ptr, i64 %0
  %8 = load float, float addrspace(1)* %7, align 4
  br label %after.access4

after.access4:                                    ; preds = %access2, %out.of.bounds3
  %9 = phi float [ %8, %access2 ], [ 0.000000e+00, %out.of.bounds3 ]
  %10 = fmul float %9, %5
  %in.bounds5 = call i1 @__spvjit.bounds.check.1(i64 %1, i64 %__spvjit_extent_x)
  br i1 %in.bounds5, label %access6, label %out.of.bounds7, !prof !1

out.of.bounds7:                                   ; preds = %after.access4
  %11 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 2, i64 %11, i64 %1, i64 %__spvjit_extent_x)
  br label %after.access8

access6:                                          ; preds = %after.access4
  %12 = getelementptr inbounds float, float addrspace(1)* %x.ptr, i64 %1
  %13 = load float, float addrspace(1)* %12, align 4
  br label %after.access8

after.access8:                                    ; preds = %access6, %out.of.bounds7
  %14 = phi float [ %13, %access6 ], [ 0.000000e+00, %out.of.bounds7 ]
  %15 = fadd float %10, %14
  %in.bounds9 = call i1 @__spvjit.bounds.check.1(i64 %0, i64 %__spvjit_extent_z)
  br i1 %in.bounds9, label %access10, label %out.of.bounds11, !prof !1

out.of.bounds11:                                  ; preds = %after.access8
  %16 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 3, i64 %16, i64 %0, i64 %__spvjit_extent_z)
  br label %after.access12

access10:                                         ; preds = %after.access8
  %17 = getelementptr inbounds float, float addrspace(1)* %z.ptr, i64 %0
  store float %15, float addrspace(1)* %17, align 4
  br label %after.access12

after.access12:                                   ; preds = %access10, %out.of.bounds11
  ret void
}

attributes #0 = { nounwind readnone }
attributes #1 = { cold nounwind }

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}

!0 = !{i32 1, i32 2}
!1 = !{!"branch_weights", i32 1048576, i32 1}
