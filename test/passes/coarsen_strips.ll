; PASS: coarsen width=4 work_item_checks=1 strips=4
; Strips (jit/coarsen/strips.hpp, issue #65 step 1): the kernel's body is guarded by an interior
; test, 0 < i < size(u, 0) - 1 (and 0 < j), and reads only a noalias read-only argument, so a
; work-item runs a strip of 4 vectors of 4 lanes as one loop. Its first vector starts at the
; test's first index, max(base, 1); the next ones at multiples of 4 while they fit below the
; test's end, min(stop, size(u, 0) - 1); the last one ends at that end. The first and the last
; overlap their neighbours. A part narrower than 4 runs index by index through the scalar body,
; and so do the accepted indices past the bounds the fast body leaves out (here unew's extent 0
; and fast_end).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone
declare i1 @__spvjit.bounds.check.3(i64, i64, i64, i64, i64, i64) nounwind readnone
declare void @__spvjit.bounds.report.3(i64, i32, i64, i64, i64, i64, i64, i64, i64) cold nounwind

; CHECK-LABEL: define spir_kernel void @step(
; CHECK-NEXT: entry:
; CHECK-NEXT: %strip.slot = alloca i64
; CHECK-NEXT: %[[LAST:[a-z0-9.]+]] = sub i64 %__spvjit_shape_u_0, 1
; CHECK-NEXT: %[[ID:[0-9]+]] = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK-NEXT: %base = mul nuw i64 %[[ID]], 16
; CHECK-NEXT: %end = add nuw i64 %base, 16
; CHECK-NEXT: %[[BELOW:[0-9]+]] = icmp ult i64 %__spvjit_shape_unew_0, %__spvjit_fast_end
; CHECK-NEXT: %[[LIMIT:[0-9]+]] = select i1 %[[BELOW]], i64 %__spvjit_shape_unew_0, i64 %__spvjit_fast_end
; CHECK-NEXT: %[[J:[0-9]+]] = call spir_func i64 @_Z13get_global_idj(i32 1)
; CHECK-NEXT: %[[COLUMN:[0-9]+]] = icmp ult i64 %[[J]], %__spvjit_shape_unew_1
; CHECK-NEXT: %[[FITS:[0-9]+]] = and i1 true, %[[COLUMN]]
; CHECK-NEXT: br i1 %[[FITS]], label %strip, label %checked
; CHECK: strip:
; CHECK: %strip.stop = select
; CHECK-NEXT: %[[AFTER:[0-9]+]] = icmp sgt i64 1, %base
; CHECK-NEXT: %[[FROM:[0-9]+]] = select i1 %[[AFTER]], i64 1, i64 %base
; CHECK-NEXT: %[[BEFORE:[0-9]+]] = icmp slt i64 %[[LAST]], %strip.stop
; CHECK-NEXT: %[[TO:[0-9]+]] = select i1 %[[BEFORE]], i64 %[[LAST]], i64 %strip.stop
; CHECK-NEXT: %[[WIDE:[0-9]+]] = sub i64 %[[TO]], %[[FROM]]
; CHECK-NEXT: %[[ENOUGH:[0-9]+]] = icmp sge i64 %[[WIDE]], 4
; CHECK-NEXT: br i1 %[[ENOUGH]], label %strip.head, label %strip.narrow
; The first vector at the interior's first index, then vectors at multiples of 4.
; CHECK: strip.head:
; CHECK-NEXT: call spir_func void @step.interior.strip.w4({{.*}}, i64 %[[FROM]])
; CHECK-NEXT: %[[PAST:[0-9]+]] = add nuw nsw i64 %[[FROM]], 4
; CHECK-NEXT: %[[ALIGNED:[0-9]+]] = and i64 %[[PAST]], -4
; CHECK: strip.test:
; CHECK-NEXT: %strip.x = phi i64 [ %[[ALIGNED]], %strip.head ], [ %[[NEXT:[0-9]+]], %strip.vectors ]
; CHECK-NEXT: %[[X_END:[0-9]+]] = add nuw nsw i64 %strip.x, 4
; CHECK-NEXT: %[[FIT:[0-9]+]] = icmp sle i64 %[[X_END]], %[[TO]]
; CHECK-NEXT: br i1 %[[FIT]], label %strip.vectors, label %strip.last
; The index goes through a volatile slot: no induction variable for loop strength reduction.
; CHECK: strip.vectors:
; CHECK-NEXT: store volatile i64 %strip.x, i64* %strip.slot
; CHECK-NEXT: %strip.at = load volatile i64, i64* %strip.slot
; CHECK-NEXT: call spir_func void @step.interior.strip.w4({{.*}}, i64 %strip.at)
; CHECK-NEXT: %[[NEXT]] = add nuw nsw i64 %strip.at, 4
; CHECK: strip.last:
; CHECK-NEXT: %[[SHORT:[0-9]+]] = icmp slt i64 %strip.x, %[[TO]]
; CHECK-NEXT: br i1 %[[SHORT]], label %strip.overlap, label %strip.done
; CHECK: strip.overlap:
; CHECK-NEXT: %[[LAST_VECTOR:[0-9]+]] = sub i64 %[[TO]], 4
; CHECK-NEXT: call spir_func void @step.interior.strip.w4({{.*}}, i64 %[[LAST_VECTOR]])
; Fewer than 4 accepted indices: one by one.
; CHECK: strip.narrow:
; CHECK-NEXT: br label %indices
; Past the fast body's bounds, the accepted indices one by one, checked.
; CHECK: strip.done:
; CHECK-NEXT: %[[REST_AFTER:[0-9]+]] = icmp sgt i64 1, %strip.stop
; CHECK-NEXT: %[[REST_FROM:[0-9]+]] = select i1 %[[REST_AFTER]], i64 1, i64 %strip.stop
; CHECK-NEXT: %[[REST_BEFORE:[0-9]+]] = icmp slt i64 %[[LAST]], %end
; CHECK-NEXT: %[[REST_TO:[0-9]+]] = select i1 %[[REST_BEFORE]], i64 %[[LAST]], i64 %end
; CHECK: indices:
; CHECK-NEXT: %i = phi i64 [ %[[FROM]], %strip.narrow ]
; CHECK: indices.body:
; CHECK-NEXT: call spir_func void @step.scalar({{.*}}, i64 %i)
; CHECK: indices1:
; CHECK-NEXT: %i3 = phi i64 [ %[[REST_FROM]], %strip.done ]
; CHECK-NEXT: icmp slt i64 %i3, %[[REST_TO]]
; CHECK: indices.body2:
; CHECK-NEXT: call spir_func void @step.scalar({{.*}}, i64 %i3)
; A work-item whose row fails the test of get_global_id(1) runs the checked vectors.
; CHECK: full:
; CHECK: call spir_func void @step.vector.w4(
; CHECK-NOT: call spir_func void @step.fast.w4(
; The strip's body: the kernel with the interior test's conjuncts on get_global_id(0) true (its
; vectors lie inside them), vectorized as the fast body. It takes its first lane's index as it
; is (no multiple of 4), and tests only the row, with no lane masks.
; CHECK-LABEL: define internal spir_func void @step.interior.strip.w4(
; CHECK-NOT: mul nuw i64 %first.lane
; CHECK: insertelement <4 x i64> poison, i64 %first.lane, i32 0
; CHECK: %inside.i = and i1 true, true
; CHECK-NEXT: %row.inside = icmp slt i64 0, %j
; CHECK-NOT: lanes.differ
; CHECK: store <4 x float>
; CHECK-LABEL: define internal spir_func void @step.scalar(
define spir_kernel void @step(float addrspace(1)* %unew, float addrspace(1)* noalias readonly %u, i64 %__spvjit_extent_unew, i64 %__spvjit_extent_u, i64 %__spvjit_bounds, i64 %__spvjit_fast_end, i64 %__spvjit_shape_unew_0, i64 %__spvjit_shape_unew_1, i64 %__spvjit_shape_u_0, i64 %__spvjit_shape_u_1) {
entry:
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %j = call spir_func i64 @_Z13get_global_idj(i32 1)
  %after.first = icmp slt i64 0, %i
  %last = sub i64 %__spvjit_shape_u_0, 1
  %before.last = icmp slt i64 %i, %last
  %inside.i = and i1 %after.first, %before.last
  %row.inside = icmp slt i64 0, %j
  %inside = and i1 %inside.i, %row.inside
  br i1 %inside, label %then, label %skip

skip:
  br label %done

then:
  %row = mul i64 %j, %__spvjit_shape_u_0
  %at = add i64 %row, %i
  %left.at = sub i64 %at, 1
  %up = getelementptr inbounds float, float addrspace(1)* %u, i64 %at
  %x = load float, float addrspace(1)* %up, align 4
  %left.p = getelementptr inbounds float, float addrspace(1)* %u, i64 %left.at
  %left = load float, float addrspace(1)* %left.p, align 4
  %sum = fadd float %x, %left
  %row.new = mul i64 %j, %__spvjit_shape_unew_0
  %at.new = add i64 %row.new, %i
  %ok = call i1 @__spvjit.bounds.check.3(i64 %i, i64 %__spvjit_shape_unew_0, i64 %j, i64 %__spvjit_shape_unew_1, i64 %at.new, i64 %__spvjit_extent_unew)
  br i1 %ok, label %access, label %out.of.bounds, !prof !1

out.of.bounds:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  call void @__spvjit.bounds.report.3(i64 %__spvjit_bounds, i32 0, i64 %gid, i64 %i, i64 %__spvjit_shape_unew_0, i64 %j, i64 %__spvjit_shape_unew_1, i64 %at.new, i64 %__spvjit_extent_unew)
  br label %done

access:
  %p = getelementptr inbounds float, float addrspace(1)* %unew, i64 %at.new
  store float %sum, float addrspace(1)* %p, align 4
  br label %done

done:
  ret void
}

!spvjit.allow_padding = !{}
!1 = !{!"branch_weights", i32 1048576, i32 1}
