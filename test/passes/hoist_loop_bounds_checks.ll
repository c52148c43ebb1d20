; PASS: hoist-loop-bounds-checks
; The marker form, before coarsening: examples' naive matmul as canonicalize leaves it, whose inner
; loop over k reads B(k, j) and A(i, k). One check marker before the loop covers every k it can
; reach (the first and last k against each extent, the offsets at both ends against the
; elements); the loop then runs twice: a copy without checks (`br i1 true`, which later passes
; fold) when that check passes or the loop runs no time, and the original, each access checked,
; otherwise. The store to C after the loop keeps its own check.
; CHECK-LABEL: define spir_kernel void @naive_matmul(
; CHECK: %loop.in.bounds = call i1 @__spvjit.bounds.check.19(
; CHECK-SAME: i64 %__spvjit_extent_B
; CHECK-SAME: i64 %__spvjit_extent_A
; CHECK: [[NONE:%[0-9]+]] = icmp eq i64 %smax, 0
; CHECK-NEXT: [[FAST:%[0-9]+]] = or i1 [[NONE]], %loop.in.bounds
; CHECK-NEXT: br i1 [[FAST]], label %if.then.split, label %if.then.split.checked
; CHECK: loop.body.checked:
; CHECK: call i1 @__spvjit.bounds.check.3(i64 %var1.0.checked, i64 %p, i64 %9, i64 %m,
; CHECK: call i1 @__spvjit.bounds.check.3(i64 %10, i64 %n, i64 %var1.0.checked, i64 %p,
; CHECK: loop.exit:
; CHECK: call i1 @__spvjit.bounds.check.3(i64 %10, i64 %n, i64 %9, i64 %m, i64 %{{[0-9]+}}, i64 %__spvjit_extent_C)
; CHECK: loop.body:
; CHECK-NOT: call i1 @__spvjit.bounds.check
; CHECK: br i1 true, label %access, label %out.of.bounds
; CHECK-NOT: call i1 @__spvjit.bounds.check
; CHECK: br i1 true, label %access3, label %out.of.bounds4
; CHECK-NOT: call i1 @__spvjit.bounds.check
; ModuleID = 'test/passes/hoist_loop_bounds_checks.ll'
source_filename = "naive_matmul"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: nounwind readnone
declare spir_func i64 @_Z13get_global_idj(i32) #0

; Function Attrs: nounwind readnone
declare i1 @__spvjit.bounds.check.3(i64, i64, i64, i64, i64, i64) #0

; Function Attrs: cold nounwind
declare void @__spvjit.bounds.report.3(i64, i32, i64, i64, i64, i64, i64, i64, i64) #1

define spir_kernel void @naive_matmul(float addrspace(1)* %C, float addrspace(1)* noalias readonly %A, float addrspace(1)* noalias readonly %B, i64 %n, i64 %p, i64 %m, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2, i64 %__spvjit_extent_C, i64 %__spvjit_extent_A, i64 %__spvjit_extent_B, i64 %__spvjit_bounds, i64 %__spvjit_fast_end) {
entry:
  %C.ptr = getelementptr inbounds float, float addrspace(1)* %C, i64 0
  %A.ptr = getelementptr inbounds float, float addrspace(1)* %A, i64 0
  %B.ptr = getelementptr inbounds float, float addrspace(1)* %B, i64 0
  br label %in.ndrange

in.ndrange:                                       ; preds = %entry
  %0 = call spir_func i64 @_Z13get_global_idj(i32 0)
  %1 = icmp ult i64 %0, %__spvjit_ndrange0
  %2 = and i1 true, %1
  %3 = call spir_func i64 @_Z13get_global_idj(i32 1)
  %4 = icmp ult i64 %3, %__spvjit_ndrange1
  %5 = and i1 %2, %4
  %6 = call spir_func i64 @_Z13get_global_idj(i32 2)
  %7 = icmp ult i64 %6, %__spvjit_ndrange2
  %8 = and i1 %5, %7
  br i1 %8, label %body, label %padded.work.item

padded.work.item:                                 ; preds = %in.ndrange
  br label %exit

body:                                             ; preds = %in.ndrange
  %9 = call spir_func i64 @_Z13get_global_idj(i32 0)
  %10 = call spir_func i64 @_Z13get_global_idj(i32 1)
  %11 = call spir_func i64 @_Z13get_global_idj(i32 0)
  %12 = icmp ult i64 %11, %__spvjit_ndrange0
  %13 = and i1 true, %12
  %14 = call spir_func i64 @_Z13get_global_idj(i32 1)
  %15 = icmp ult i64 %14, %__spvjit_ndrange1
  %16 = and i1 %13, %15
  %17 = call spir_func i64 @_Z13get_global_idj(i32 2)
  %18 = icmp ult i64 %17, %__spvjit_ndrange2
  %19 = and i1 %16, %18
  br i1 %19, label %if.then, label %if.else

if.else:                                          ; preds = %body
  br label %if.end

if.then:                                          ; preds = %body
  br label %loop.header

loop.header:                                      ; preds = %loop.latch, %if.then
  %var.0 = phi float [ 0.000000e+00, %if.then ], [ %38, %loop.latch ]
  %var1.0 = phi i64 [ 0, %if.then ], [ %39, %loop.latch ]
  %20 = icmp slt i64 %var1.0, %p
  br i1 %20, label %loop.body, label %loop.exit

loop.exit:                                        ; preds = %loop.header
  %21 = mul i64 %10, %m
  %22 = add i64 %21, %9
  %in.bounds6 = call i1 @__spvjit.bounds.check.3(i64 %10, i64 %n, i64 %9, i64 %m, i64 %22, i64 %__spvjit_extent_C)
  br i1 %in.bounds6, label %access7, label %out.of.bounds8, !prof !1

out.of.bounds8:                                   ; preds = %loop.exit
  %23 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 2, i64 %23, i64 %10, i64 %n, i64 %9, i64 %m, i64 %22, i64 %__spvjit_extent_C)
  br label %after.access9

access7:                                          ; preds = %loop.exit
  %24 = getelementptr inbounds float, float addrspace(1)* %C.ptr, i64 %22
  store float %var.0, float addrspace(1)* %24, align 4
  br label %after.access9

after.access9:                                    ; preds = %access7, %out.of.bounds8
  br label %if.end

if.end:                                           ; preds = %after.access9, %if.else
  br label %exit

loop.body:                                        ; preds = %loop.header
  %25 = mul i64 %var1.0, %m
  %26 = add i64 %25, %9
  %27 = mul i64 %10, %p
  %28 = add i64 %27, %var1.0
  %in.bounds = call i1 @__spvjit.bounds.check.3(i64 %var1.0, i64 %p, i64 %9, i64 %m, i64 %26, i64 %__spvjit_extent_B)
  br i1 %in.bounds, label %access, label %out.of.bounds, !prof !1

out.of.bounds:                                    ; preds = %loop.body
  %29 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 0, i64 %29, i64 %var1.0, i64 %p, i64 %9, i64 %m, i64 %26, i64 %__spvjit_extent_B)
  br label %after.access

access:                                           ; preds = %loop.body
  %30 = getelementptr inbounds float, float addrspace(1)* %B.ptr, i64 %26
  %31 = load float, float addrspace(1)* %30, align 4
  br label %after.access

after.access:                                     ; preds = %access, %out.of.bounds
  %32 = phi float [ %31, %access ], [ 0.000000e+00, %out.of.bounds ]
  %in.bounds2 = call i1 @__spvjit.bounds.check.3(i64 %10, i64 %n, i64 %var1.0, i64 %p, i64 %28, i64 %__spvjit_extent_A)
  br i1 %in.bounds2, label %access3, label %out.of.bounds4, !prof !1

out.of.bounds4:                                   ; preds = %after.access
  %33 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 1, i64 %33, i64 %10, i64 %n, i64 %var1.0, i64 %p, i64 %28, i64 %__spvjit_extent_A)
  br label %after.access5

access3:                                          ; preds = %after.access
  %34 = getelementptr inbounds float, float addrspace(1)* %A.ptr, i64 %28
  %35 = load float, float addrspace(1)* %34, align 4
  br label %after.access5

after.access5:                                    ; preds = %access3, %out.of.bounds4
  %36 = phi float [ %35, %access3 ], [ 0.000000e+00, %out.of.bounds4 ]
  %37 = fmul float %36, %32
  %38 = fadd float %var.0, %37
  br label %loop.latch

loop.latch:                                       ; preds = %after.access5
  %39 = add i64 %var1.0, 1
  br label %loop.header

exit:                                             ; preds = %if.end, %padded.work.item
  ret void
}

attributes #0 = { nounwind readnone }
attributes #1 = { cold nounwind }

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}

!0 = !{i32 1, i32 2}
!1 = !{!"branch_weights", i32 1048576, i32 1}
