; PASS: specialize workgroup=8 ndrange=64
; Specialization for a static workgroup and ndrange (jit/specialize.cpp): the builder's markers
; become constants, and in_ndrange() is true, since 8 divides 64 and no work-item is padded. The
; kernel takes the static workgroup as reqd_work_group_size, the module the OpenCL version, and
; the markers' declarations are gone.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)
declare i64 @__spvjit.ndrange(i32)
declare i64 @__spvjit.group_size(i32)
declare i1 @__spvjit.in_ndrange()

; CHECK-NOT: @__spvjit.
; CHECK-LABEL: define spir_kernel void @k(
; CHECK-SAME: !reqd_work_group_size ![[GROUP:[0-9]+]]
; CHECK: entry:
; CHECK-NEXT: br i1 true, label %body, label %done
; CHECK: body:
; CHECK: %v = mul i64 64, 8
; CHECK-NOT: @__spvjit.
; CHECK: !opencl.ocl.version = !{![[VERSION:[0-9]+]]}
; CHECK-DAG: ![[VERSION]] = !{i32 1, i32 2}
; CHECK-DAG: ![[GROUP]] = !{i32 8, i32 1, i32 1}
define spir_kernel void @k(i64 addrspace(1)* %out, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %n = call i64 @__spvjit.ndrange(i32 0)
  %g = call i64 @__spvjit.group_size(i32 0)
  %inside = call i1 @__spvjit.in_ndrange()
  br i1 %inside, label %body, label %done

body:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %v = mul i64 %n, %g
  %p = getelementptr inbounds i64, i64 addrspace(1)* %out, i64 %gid
  store i64 %v, i64 addrspace(1)* %p
  br label %done

done:
  ret void
}
