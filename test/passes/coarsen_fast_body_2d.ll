; PASS: coarsen width=4 work_item_checks=1
; The fast body of a coarsened 2-D step (jit/coarsen/coarsen.cpp, vector.hpp). The store to
; unew(i, j) has one check of three pairs: i against unew's extent 0, j against its extent 1,
; and the offset against the elements passed (u's load was proven by drop-proven-bounds-checks).
; The dispatcher tests the first two once per work-item (its last index below unew.size0,
; get_global_id(1) below unew.size1); the offset pair follows from them, because the launch
; checks that unew's extents multiply to the elements passed. So the fast body checks nothing.
; A work-item that fails a test runs the checked vector body, which reports the failing lane.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone
declare i1 @__spvjit.bounds.check.3(i64, i64, i64, i64, i64, i64) nounwind readnone
declare void @__spvjit.bounds.report.3(i64, i32, i64, i64, i64, i64, i64, i64, i64) cold nounwind

; CHECK-LABEL: define spir_kernel void @step(
; CHECK: %[[ID:[0-9]+]] = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK-NEXT: %base = mul nuw i64 %[[ID]], 4
; CHECK-NEXT: %end = add nuw i64 %base, 4
; CHECK-NEXT: %[[FITS:[0-9]+]] = icmp ule i64 %end, %__spvjit_fast_end
; CHECK-NEXT: %[[ROW:[0-9]+]] = icmp ule i64 %end, %__spvjit_shape_unew_0
; CHECK-NEXT: %[[BOTH:[0-9]+]] = and i1 %[[FITS]], %[[ROW]]
; CHECK-NEXT: %[[J:[0-9]+]] = call spir_func i64 @_Z13get_global_idj(i32 1)
; CHECK-NEXT: %[[COLUMN:[0-9]+]] = icmp ult i64 %[[J]], %__spvjit_shape_unew_1
; CHECK-NEXT: %[[ALL:[0-9]+]] = and i1 %[[BOTH]], %[[COLUMN]]
; CHECK-NEXT: br i1 %[[ALL]], label %fast, label %checked
; CHECK: fast:
; CHECK-NEXT: call spir_func void @step.fast.w4({{.*}}, i64 %[[ID]])
; CHECK: full:
; CHECK-NEXT: call spir_func void @step.vector.w4({{.*}}, i64 %[[ID]])
; CHECK-LABEL: define internal spir_func void @step.vector.w4(
; CHECK: icmp ult i64 %j, %7
; CHECK: br i1 %{{[0-9]+}}, label %access, label %out.of.bounds
; CHECK-LABEL: define internal spir_func void @step.fast.w4(
; CHECK-NOT: icmp ult
; CHECK: br i1 true, label %access, label %out.of.bounds
; CHECK-NOT: __spvjit.bounds.check
; CHECK: store <4 x float>
define spir_kernel void @step(float addrspace(1)* %unew, float addrspace(1)* noalias readonly %u, i64 %__spvjit_extent_unew, i64 %__spvjit_extent_u, i64 %__spvjit_bounds, i64 %__spvjit_fast_end, i64 %__spvjit_shape_unew_0, i64 %__spvjit_shape_unew_1, i64 %__spvjit_shape_u_0, i64 %__spvjit_shape_u_1) {
entry:
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %j = call spir_func i64 @_Z13get_global_idj(i32 1)
  %row = mul i64 %j, %__spvjit_shape_u_0
  %at = add i64 %row, %i
  %up = getelementptr inbounds float, float addrspace(1)* %u, i64 %at
  %x = load float, float addrspace(1)* %up, align 4
  %twice = fadd float %x, %x
  %row.new = mul i64 %j, %__spvjit_shape_unew_0
  %at.new = add i64 %row.new, %i
  %ok = call i1 @__spvjit.bounds.check.3(i64 %i, i64 %__spvjit_shape_unew_0, i64 %j, i64 %__spvjit_shape_unew_1, i64 %at.new, i64 %__spvjit_extent_unew)
  br i1 %ok, label %access, label %out.of.bounds, !prof !1

out.of.bounds:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 0, i64 %gid, i64 %i, i64 %__spvjit_shape_unew_0, i64 %j, i64 %__spvjit_shape_unew_1, i64 %at.new, i64 %__spvjit_extent_unew)
  br label %after.access

access:
  %p = getelementptr inbounds float, float addrspace(1)* %unew, i64 %at.new
  store float %twice, float addrspace(1)* %p, align 4
  br label %after.access

after.access:
  ret void
}

!spvjit.allow_padding = !{}
!1 = !{!"branch_weights", i32 1048576, i32 1}
