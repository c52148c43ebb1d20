; PASS: lower-float-atomics-f32-global
; Where the device adds floats in global memory natively, the atomic stays as it is.
; CHECK-LABEL: define spir_kernel void @atomic_sum(
; CHECK: call spir_func float @_Z21__spirv_AtomicFAddEXTPU3AS1fiif(float addrspace(1)* %total
; CHECK-NOT: atomic_cmpxchg
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: nounwind readnone
declare spir_func i64 @_Z13get_global_idj(i32) #0

; Function Attrs: nounwind
declare spir_func float @_Z21__spirv_AtomicFAddEXTPU3AS1fiif(float addrspace(1)*, i32, i32, float) #1

define spir_kernel void @atomic_sum(float addrspace(1)* %xs, float addrspace(1)* %total, i64 %__spvjit_extent_xs, i64 %__spvjit_extent_total, i64 %__spvjit_bounds, i64 %__spvjit_fast_end) {
entry:
  %0 = call spir_func i64 @_Z13get_global_idj(i32 0)
  %1 = icmp ult i64 %0, %__spvjit_extent_xs
  %2 = and i1 true, %1
  br i1 %2, label %access, label %out.of.bounds, !prof !1

out.of.bounds:                                    ; preds = %entry
  br label %bounds.failed

access:                                           ; preds = %entry
  %3 = getelementptr inbounds float, float addrspace(1)* %xs, i64 %0
  %4 = load float, float addrspace(1)* %3, align 4
  %5 = icmp ult i64 0, %__spvjit_extent_total
  %6 = and i1 true, %5
  br i1 %6, label %access2, label %out.of.bounds3, !prof !1

out.of.bounds3:                                   ; preds = %access
  br label %bounds.failed

access2:                                          ; preds = %access
  %7 = call spir_func float @_Z21__spirv_AtomicFAddEXTPU3AS1fiif(float addrspace(1)* %total, i32 1, i32 0, float %4)
  ret void

bounds.failed:                                    ; preds = %out.of.bounds3, %out.of.bounds
  %8 = phi i32 [ 0, %out.of.bounds ], [ 1, %out.of.bounds3 ]
  %9 = phi i64 [ %0, %out.of.bounds ], [ 0, %out.of.bounds3 ]
  %10 = phi i64 [ %__spvjit_extent_xs, %out.of.bounds ], [ %__spvjit_extent_total, %out.of.bounds3 ]
  %record = inttoptr i64 %__spvjit_bounds to i64 addrspace(1)*
  %11 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 0
  %12 = load volatile i64, i64 addrspace(1)* %11, align 8
  %13 = icmp eq i64 %12, 0
  br i1 %13, label %14, label %64

14:                                               ; preds = %bounds.failed
  %15 = zext i32 %8 to i64
  %16 = call spir_func i64 @_Z13get_global_idj(i32 1)
  %17 = call spir_func i64 @_Z13get_global_idj(i32 2)
  %18 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 1
  store volatile i64 %15, i64 addrspace(1)* %18, align 8
  %19 = xor i64 -7046029254386353131, %15
  %20 = mul i64 %19, 1099511628211
  %21 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 2
  store volatile i64 %0, i64 addrspace(1)* %21, align 8
  %22 = xor i64 %20, %0
  %23 = mul i64 %22, 1099511628211
  %24 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 3
  store volatile i64 %16, i64 addrspace(1)* %24, align 8
  %25 = xor i64 %23, %16
  %26 = mul i64 %25, 1099511628211
  %27 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 4
  store volatile i64 %17, i64 addrspace(1)* %27, align 8
  %28 = xor i64 %26, %17
  %29 = mul i64 %28, 1099511628211
  %30 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 5
  store volatile i64 %9, i64 addrspace(1)* %30, align 8
  %31 = xor i64 %29, %9
  %32 = mul i64 %31, 1099511628211
  %33 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 6
  store volatile i64 %10, i64 addrspace(1)* %33, align 8
  %34 = xor i64 %32, %10
  %35 = mul i64 %34, 1099511628211
  %36 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 7
  store volatile i64 0, i64 addrspace(1)* %36, align 8
  %37 = xor i64 %35, 0
  %38 = mul i64 %37, 1099511628211
  %39 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 8
  store volatile i64 0, i64 addrspace(1)* %39, align 8
  %40 = xor i64 %38, 0
  %41 = mul i64 %40, 1099511628211
  %42 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 9
  store volatile i64 0, i64 addrspace(1)* %42, align 8
  %43 = xor i64 %41, 0
  %44 = mul i64 %43, 1099511628211
  %45 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 10
  store volatile i64 0, i64 addrspace(1)* %45, align 8
  %46 = xor i64 %44, 0
  %47 = mul i64 %46, 1099511628211
  %48 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 11
  store volatile i64 0, i64 addrspace(1)* %48, align 8
  %49 = xor i64 %47, 0
  %50 = mul i64 %49, 1099511628211
  %51 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 12
  store volatile i64 0, i64 addrspace(1)* %51, align 8
  %52 = xor i64 %50, 0
  %53 = mul i64 %52, 1099511628211
  %54 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 13
  store volatile i64 1, i64 addrspace(1)* %54, align 8
  %55 = xor i64 %53, 1
  %56 = mul i64 %55, 1099511628211
  %57 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 14
  store volatile i64 0, i64 addrspace(1)* %57, align 8
  %58 = xor i64 %56, 0
  %59 = mul i64 %58, 1099511628211
  %60 = getelementptr inbounds i64, i64 addrspace(1)* %record, i64 15
  store volatile i64 0, i64 addrspace(1)* %60, align 8
  %61 = xor i64 %59, 0
  %62 = mul i64 %61, 1099511628211
  %63 = or i64 %62, 1
  store volatile i64 %63, i64 addrspace(1)* %11, align 8
  br label %64

64:                                               ; preds = %bounds.failed, %14
  ret void
}

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind }

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}

!0 = !{i32 1, i32 2}
!1 = !{!"branch_weights", i32 1048576, i32 1}
