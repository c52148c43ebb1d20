; PASS: specialize
; Specialization with the workgroup and ndrange left to each launch (jit/specialize.cpp): the
; ndrange is read from the hidden arguments, the group size from get_local_size, in_ndrange()
; tests the global id against the ndrange in every dimension, and the bounds checks' markers
; read the hidden extent and record. The device function @linear reads the ndrange, which only the
; kernel's arguments hold: it is inlined into the kernel and erased. No reqd_work_group_size.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)
declare i64 @__spvjit.ndrange(i32)
declare i64 @__spvjit.group_size(i32)
declare i1 @__spvjit.in_ndrange()
declare i64 @__spvjit.extent(i32)
declare i64 @__spvjit.bounds.record()

define spir_func i64 @linear(i64 %i) {
entry:
  %n = call i64 @__spvjit.ndrange(i32 1)
  %r = mul i64 %i, %n
  ret i64 %r
}

; CHECK-NOT: @linear
; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NOT: !reqd_work_group_size
; CHECK: entry:
; CHECK-NEXT: %[[L0:[0-9]+]] = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK-NEXT: %[[T0:[0-9]+]] = icmp ult i64 %[[L0]], %__spvjit_ndrange0
; CHECK-NEXT: %[[A0:[0-9]+]] = and i1 true, %[[T0]]
; CHECK-NEXT: %[[L1:[0-9]+]] = call spir_func i64 @_Z13get_global_idj(i32 1)
; CHECK-NEXT: %[[T1:[0-9]+]] = icmp ult i64 %[[L1]], %__spvjit_ndrange1
; CHECK-NEXT: %[[A1:[0-9]+]] = and i1 %[[A0]], %[[T1]]
; CHECK-NEXT: %[[L2:[0-9]+]] = call spir_func i64 @_Z13get_global_idj(i32 2)
; CHECK-NEXT: %[[T2:[0-9]+]] = icmp ult i64 %[[L2]], %__spvjit_ndrange2
; CHECK-NEXT: %[[INSIDE:[0-9]+]] = and i1 %[[A1]], %[[T2]]
; CHECK-NEXT: br i1 %[[INSIDE]], label %body, label %done
; CHECK: body:
; CHECK-NEXT: %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK-NEXT: %r.i = mul i64 %gid, %__spvjit_ndrange1
; CHECK-NEXT: %[[SIZE:[0-9]+]] = call spir_func i64 @_Z14get_local_sizej(i32 0)
; CHECK-NEXT: %v = mul i64 %r.i, %[[SIZE]]
; CHECK-NEXT: %fits = icmp ult i64 %gid, %__spvjit_extent_out
; CHECK-NEXT: %p = getelementptr
; CHECK-NEXT: %stored = select i1 %fits, i64 %__spvjit_bounds, i64 %v
; CHECK-NOT: @__spvjit.
; CHECK: declare spir_func i64 @_Z14get_local_sizej(i32) #[[ATTRS:[0-9]+]]
; CHECK: attributes #[[ATTRS]] = { nounwind readnone }
define spir_kernel void @k(i64 addrspace(1)* %out, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2, i64 %__spvjit_extent_out, i64 %__spvjit_bounds, i64 %__spvjit_fast_end) {
entry:
  %inside = call i1 @__spvjit.in_ndrange()
  br i1 %inside, label %body, label %done

body:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %scaled = call spir_func i64 @linear(i64 %gid)
  %g = call i64 @__spvjit.group_size(i32 0)
  %v = mul i64 %scaled, %g
  %extent = call i64 @__spvjit.extent(i32 0)
  %fits = icmp ult i64 %gid, %extent
  %record = call i64 @__spvjit.bounds.record()
  %p = getelementptr inbounds i64, i64 addrspace(1)* %out, i64 %gid
  %stored = select i1 %fits, i64 %record, i64 %v
  store i64 %stored, i64 addrspace(1)* %p
  br label %done

done:
  ret void
}
