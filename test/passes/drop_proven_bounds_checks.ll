; PASS: drop-proven-bounds-checks
; examples::heat2d_step as the builder makes it (after specialize and the loop hoist): inside
; `0 < i < size(u, 0) - 1 && 0 < j < size(u, 1) - 1` the six reads of u — u(i, j) twice and its
; four neighbours — are inside u's extents, and their offsets (j * size(u, 0) + i, the view's
; Horner form over those extents) inside the elements u's launch passed: the six checks go,
; with their report paths. The store to unew(i, j) is checked against unew's own shape, which
; the guard says nothing of: it stays whole.
; CHECK-LABEL: define spir_kernel void @heat2d_step(
; CHECK-NOT: __spvjit_extent_u)
; CHECK: %in.bounds21 = call i1 @__spvjit.bounds.check.3(i64 %0, i64 %__spvjit_shape_unew_0, i64 %1, i64 %__spvjit_shape_unew_1, i64 %{{[0-9]+}}, i64 %__spvjit_extent_unew)
; CHECK-NOT: call i1 @__spvjit.bounds.check
; CHECK: call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 6,
; CHECK-NOT: call void @__spvjit.bounds.report
; ModuleID = 'heat2d_step'
source_filename = "heat2d_step"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: nounwind readnone
declare spir_func i64 @_Z13get_global_idj(i32) #0

; Function Attrs: nounwind readnone
declare i1 @__spvjit.bounds.check.3(i64, i64, i64, i64, i64, i64) #0

; Function Attrs: cold nounwind
declare void @__spvjit.bounds.report.3(i64, i32, i64, i64, i64, i64, i64, i64, i64) #1

define spir_kernel void @heat2d_step(float addrspace(1)* %unew, float addrspace(1)* noalias readonly %u, float %alpha, i64 %__spvjit_extent_unew, i64 %__spvjit_extent_u, i64 %__spvjit_bounds, i64 %__spvjit_fast_end, i64 %__spvjit_shape_unew_0, i64 %__spvjit_shape_unew_1, i64 %__spvjit_shape_u_0, i64 %__spvjit_shape_u_1) {
entry:
  %unew.ptr = getelementptr inbounds float, float addrspace(1)* %unew, i64 0
  %u.ptr = getelementptr inbounds float, float addrspace(1)* %u, i64 0
  br label %body

body:                                             ; preds = %entry
  %0 = call spir_func i64 @_Z13get_global_idj(i32 0)
  %1 = call spir_func i64 @_Z13get_global_idj(i32 1)
  %2 = icmp slt i64 0, %0
  %3 = sub i64 %__spvjit_shape_u_0, 1
  %4 = icmp slt i64 %0, %3
  %5 = and i1 %2, %4
  %6 = icmp slt i64 0, %1
  %7 = and i1 %5, %6
  %8 = sub i64 %__spvjit_shape_u_1, 1
  %9 = icmp slt i64 %1, %8
  %10 = and i1 %7, %9
  br i1 %10, label %if.then, label %if.else

if.else:                                          ; preds = %body
  br label %if.end

if.then:                                          ; preds = %body
  %11 = mul i64 %1, %__spvjit_shape_u_0
  %12 = add i64 %11, %0
  %in.bounds = call i1 @__spvjit.bounds.check.3(i64 %0, i64 %__spvjit_shape_u_0, i64 %1, i64 %__spvjit_shape_u_1, i64 %12, i64 %__spvjit_extent_u)
  br i1 %in.bounds, label %access, label %out.of.bounds, !prof !1

out.of.bounds:                                    ; preds = %if.then
  %13 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 0, i64 %13, i64 %0, i64 %__spvjit_shape_u_0, i64 %1, i64 %__spvjit_shape_u_1, i64 %12, i64 %__spvjit_extent_u)
  br label %after.access

access:                                           ; preds = %if.then
  %14 = getelementptr inbounds float, float addrspace(1)* %u.ptr, i64 %12
  %15 = load float, float addrspace(1)* %14, align 4
  br label %after.access

after.access:                                     ; preds = %access, %out.of.bounds
  %16 = phi float [ %15, %access ], [ 0.000000e+00, %out.of.bounds ]
  %17 = fmul float 4.000000e+00, %16
  %18 = add i64 %1, 1
  %19 = mul i64 %18, %__spvjit_shape_u_0
  %20 = add i64 %19, %0
  %21 = sub i64 %1, 1
  %22 = mul i64 %21, %__spvjit_shape_u_0
  %23 = add i64 %22, %0
  %24 = add i64 %0, 1
  %25 = mul i64 %1, %__spvjit_shape_u_0
  %26 = add i64 %25, %24
  %27 = sub i64 %0, 1
  %28 = mul i64 %1, %__spvjit_shape_u_0
  %29 = add i64 %28, %27
  %in.bounds1 = call i1 @__spvjit.bounds.check.3(i64 %24, i64 %__spvjit_shape_u_0, i64 %1, i64 %__spvjit_shape_u_1, i64 %26, i64 %__spvjit_extent_u)
  br i1 %in.bounds1, label %access2, label %out.of.bounds3, !prof !1

out.of.bounds3:                                   ; preds = %after.access
  %30 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 1, i64 %30, i64 %24, i64 %__spvjit_shape_u_0, i64 %1, i64 %__spvjit_shape_u_1, i64 %26, i64 %__spvjit_extent_u)
  br label %after.access4

access2:                                          ; preds = %after.access
  %31 = getelementptr inbounds float, float addrspace(1)* %u.ptr, i64 %26
  %32 = load float, float addrspace(1)* %31, align 4
  br label %after.access4

after.access4:                                    ; preds = %access2, %out.of.bounds3
  %33 = phi float [ %32, %access2 ], [ 0.000000e+00, %out.of.bounds3 ]
  %in.bounds5 = call i1 @__spvjit.bounds.check.3(i64 %27, i64 %__spvjit_shape_u_0, i64 %1, i64 %__spvjit_shape_u_1, i64 %29, i64 %__spvjit_extent_u)
  br i1 %in.bounds5, label %access6, label %out.of.bounds7, !prof !1

out.of.bounds7:                                   ; preds = %after.access4
  %34 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 2, i64 %34, i64 %27, i64 %__spvjit_shape_u_0, i64 %1, i64 %__spvjit_shape_u_1, i64 %29, i64 %__spvjit_extent_u)
  br label %after.access8

access6:                                          ; preds = %after.access4
  %35 = getelementptr inbounds float, float addrspace(1)* %u.ptr, i64 %29
  %36 = load float, float addrspace(1)* %35, align 4
  br label %after.access8

after.access8:                                    ; preds = %access6, %out.of.bounds7
  %37 = phi float [ %36, %access6 ], [ 0.000000e+00, %out.of.bounds7 ]
  %38 = fadd float %37, %33
  %in.bounds9 = call i1 @__spvjit.bounds.check.3(i64 %0, i64 %__spvjit_shape_u_0, i64 %21, i64 %__spvjit_shape_u_1, i64 %23, i64 %__spvjit_extent_u)
  br i1 %in.bounds9, label %access10, label %out.of.bounds11, !prof !1

out.of.bounds11:                                  ; preds = %after.access8
  %39 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 3, i64 %39, i64 %0, i64 %__spvjit_shape_u_0, i64 %21, i64 %__spvjit_shape_u_1, i64 %23, i64 %__spvjit_extent_u)
  br label %after.access12

access10:                                         ; preds = %after.access8
  %40 = getelementptr inbounds float, float addrspace(1)* %u.ptr, i64 %23
  %41 = load float, float addrspace(1)* %40, align 4
  br label %after.access12

after.access12:                                   ; preds = %access10, %out.of.bounds11
  %42 = phi float [ %41, %access10 ], [ 0.000000e+00, %out.of.bounds11 ]
  %43 = fadd float %38, %42
  %in.bounds13 = call i1 @__spvjit.bounds.check.3(i64 %0, i64 %__spvjit_shape_u_0, i64 %18, i64 %__spvjit_shape_u_1, i64 %20, i64 %__spvjit_extent_u)
  br i1 %in.bounds13, label %access14, label %out.of.bounds15, !prof !1

out.of.bounds15:                                  ; preds = %after.access12
  %44 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 4, i64 %44, i64 %0, i64 %__spvjit_shape_u_0, i64 %18, i64 %__spvjit_shape_u_1, i64 %20, i64 %__spvjit_extent_u)
  br label %after.access16

access14:                                         ; preds = %after.access12
  %45 = getelementptr inbounds float, float addrspace(1)* %u.ptr, i64 %20
  %46 = load float, float addrspace(1)* %45, align 4
  br label %after.access16

after.access16:                                   ; preds = %access14, %out.of.bounds15
  %47 = phi float [ %46, %access14 ], [ 0.000000e+00, %out.of.bounds15 ]
  %48 = fadd float %43, %47
  %49 = fsub float %48, %17
  %50 = fmul float %alpha, %49
  %51 = mul i64 %1, %__spvjit_shape_u_0
  %52 = add i64 %51, %0
  %in.bounds17 = call i1 @__spvjit.bounds.check.3(i64 %0, i64 %__spvjit_shape_u_0, i64 %1, i64 %__spvjit_shape_u_1, i64 %52, i64 %__spvjit_extent_u)
  br i1 %in.bounds17, label %access18, label %out.of.bounds19, !prof !1

out.of.bounds19:                                  ; preds = %after.access16
  %53 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 5, i64 %53, i64 %0, i64 %__spvjit_shape_u_0, i64 %1, i64 %__spvjit_shape_u_1, i64 %52, i64 %__spvjit_extent_u)
  br label %after.access20

access18:                                         ; preds = %after.access16
  %54 = getelementptr inbounds float, float addrspace(1)* %u.ptr, i64 %52
  %55 = load float, float addrspace(1)* %54, align 4
  br label %after.access20

after.access20:                                   ; preds = %access18, %out.of.bounds19
  %56 = phi float [ %55, %access18 ], [ 0.000000e+00, %out.of.bounds19 ]
  %57 = fadd float %56, %50
  %58 = mul i64 %1, %__spvjit_shape_unew_0
  %59 = add i64 %58, %0
  %in.bounds21 = call i1 @__spvjit.bounds.check.3(i64 %0, i64 %__spvjit_shape_unew_0, i64 %1, i64 %__spvjit_shape_unew_1, i64 %59, i64 %__spvjit_extent_unew)
  br i1 %in.bounds21, label %access22, label %out.of.bounds23, !prof !1

out.of.bounds23:                                  ; preds = %after.access20
  %60 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 6, i64 %60, i64 %0, i64 %__spvjit_shape_unew_0, i64 %1, i64 %__spvjit_shape_unew_1, i64 %59, i64 %__spvjit_extent_unew)
  br label %after.access24

access22:                                         ; preds = %after.access20
  %61 = getelementptr inbounds float, float addrspace(1)* %unew.ptr, i64 %59
  store float %57, float addrspace(1)* %61, align 4
  br label %after.access24

after.access24:                                   ; preds = %access22, %out.of.bounds23
  br label %if.end

if.end:                                           ; preds = %after.access24, %if.else
  ret void
}

attributes #0 = { nounwind readnone }
attributes #1 = { cold nounwind }

!spvjit.allow_padding = !{}
!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}

!0 = !{i32 1, i32 2}
!1 = !{!"branch_weights", i32 1048576, i32 1}
