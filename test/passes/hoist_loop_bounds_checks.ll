; PASS: hoist-loop-bounds-checks
; The marker form, before coarsening: examples' naive matmul as the builder makes it, whose inner
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
; ModuleID = 'naive_matmul'
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
  %var1 = alloca i64, align 8
  %var = alloca float, align 4
  %m.slot = alloca i64, align 8
  %p.slot = alloca i64, align 8
  %n.slot = alloca i64, align 8
  %C.ptr = getelementptr inbounds float, float addrspace(1)* %C, i64 0
  %A.ptr = getelementptr inbounds float, float addrspace(1)* %A, i64 0
  %B.ptr = getelementptr inbounds float, float addrspace(1)* %B, i64 0
  store i64 %n, i64* %n.slot, align 8
  %n.arg = load i64, i64* %n.slot, align 8
  store i64 %p, i64* %p.slot, align 8
  %p.arg = load i64, i64* %p.slot, align 8
  store i64 %m, i64* %m.slot, align 8
  %m.arg = load i64, i64* %m.slot, align 8
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
  ret void

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
  %20 = getelementptr inbounds float, float* %var, i64 0
  store float 0.000000e+00, float* %20, align 4
  %21 = getelementptr inbounds i64, i64* %var1, i64 0
  store i64 0, i64* %21, align 8
  br label %loop.header

loop.header:                                      ; preds = %loop.latch, %if.then
  %22 = getelementptr inbounds i64, i64* %var1, i64 0
  %23 = load i64, i64* %22, align 8
  %24 = icmp slt i64 %23, %p.arg
  br i1 %24, label %loop.body, label %loop.exit

loop.exit:                                        ; preds = %loop.header
  %25 = getelementptr inbounds float, float* %var, i64 0
  %26 = load float, float* %25, align 4
  %27 = mul i64 %10, %m.arg
  %28 = add i64 %27, %9
  %in.bounds6 = call i1 @__spvjit.bounds.check.3(i64 %10, i64 %n.arg, i64 %9, i64 %m.arg, i64 %28, i64 %__spvjit_extent_C)
  br i1 %in.bounds6, label %access7, label %out.of.bounds8, !prof !1

out.of.bounds8:                                   ; preds = %loop.exit
  %29 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 2, i64 %29, i64 %10, i64 %n.arg, i64 %9, i64 %m.arg, i64 %28, i64 %__spvjit_extent_C)
  br label %after.access9

access7:                                          ; preds = %loop.exit
  %30 = getelementptr inbounds float, float addrspace(1)* %C.ptr, i64 %28
  store float %26, float addrspace(1)* %30, align 4
  br label %after.access9

after.access9:                                    ; preds = %access7, %out.of.bounds8
  br label %if.end

if.end:                                           ; preds = %after.access9, %if.else
  ret void

loop.body:                                        ; preds = %loop.header
  %31 = getelementptr inbounds i64, i64* %var1, i64 0
  %32 = load i64, i64* %31, align 8
  %33 = mul i64 %32, %m.arg
  %34 = add i64 %33, %9
  %35 = mul i64 %10, %p.arg
  %36 = add i64 %35, %32
  %in.bounds = call i1 @__spvjit.bounds.check.3(i64 %32, i64 %p.arg, i64 %9, i64 %m.arg, i64 %34, i64 %__spvjit_extent_B)
  br i1 %in.bounds, label %access, label %out.of.bounds, !prof !1

out.of.bounds:                                    ; preds = %loop.body
  %37 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 0, i64 %37, i64 %32, i64 %p.arg, i64 %9, i64 %m.arg, i64 %34, i64 %__spvjit_extent_B)
  br label %after.access

access:                                           ; preds = %loop.body
  %38 = getelementptr inbounds float, float addrspace(1)* %B.ptr, i64 %34
  %39 = load float, float addrspace(1)* %38, align 4
  br label %after.access

after.access:                                     ; preds = %access, %out.of.bounds
  %40 = phi float [ %39, %access ], [ 0.000000e+00, %out.of.bounds ]
  %in.bounds2 = call i1 @__spvjit.bounds.check.3(i64 %10, i64 %n.arg, i64 %32, i64 %p.arg, i64 %36, i64 %__spvjit_extent_A)
  br i1 %in.bounds2, label %access3, label %out.of.bounds4, !prof !1

out.of.bounds4:                                   ; preds = %after.access
  %41 = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 1, i64 %41, i64 %10, i64 %n.arg, i64 %32, i64 %p.arg, i64 %36, i64 %__spvjit_extent_A)
  br label %after.access5

access3:                                          ; preds = %after.access
  %42 = getelementptr inbounds float, float addrspace(1)* %A.ptr, i64 %36
  %43 = load float, float addrspace(1)* %42, align 4
  br label %after.access5

after.access5:                                    ; preds = %access3, %out.of.bounds4
  %44 = phi float [ %43, %access3 ], [ 0.000000e+00, %out.of.bounds4 ]
  %45 = fmul float %44, %40
  %46 = getelementptr inbounds float, float* %var, i64 0
  %47 = load float, float* %46, align 4
  %48 = fadd float %47, %45
  %49 = getelementptr inbounds float, float* %var, i64 0
  store float %48, float* %49, align 4
  br label %loop.latch

loop.latch:                                       ; preds = %after.access5
  %50 = getelementptr inbounds i64, i64* %var1, i64 0
  %51 = load i64, i64* %50, align 8
  %52 = add i64 %51, 1
  %53 = getelementptr inbounds i64, i64* %var1, i64 0
  store i64 %52, i64* %53, align 8
  br label %loop.header
}

attributes #0 = { nounwind readnone }
attributes #1 = { cold nounwind }

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}

!0 = !{i32 1, i32 2}
!1 = !{!"branch_weights", i32 1048576, i32 1}
