; PASS: price-plans width=4 work_item_checks=1 strips=4
; The plans of coarsen_strips.ll's stencil priced (jit/coarsen/plans.hpp): each made on a copy of
; the module, and priced per index from the code made (jit/coarsen/path_cost.hpp). Strips (no
; partial vector anywhere, the interior test taken as passed) cost least; vectors pay the masked
; partial vectors at each row's ends (two per row of 1024, the nominal row of a dynamic
; ndrange); the device's work-items run one index each. It reads get_global_id(1), so dimension
; 1 is priced too, and refused (there every access is one element per lane, with no loop to pay
; for them): no plan in dimension 1. The module is left as it was.
; CHECK: plans: strips in dimension 0 (4 x 4) at [[STRIPS:[0-9.]+]]; vectors in dimension 0 (1 x 4) at {{[0-9.]+}}; the device's work-items at {{[0-9.]+}} per index (rows of 1024 indices)
; CHECK-NOT: dimension 1
; CHECK-LABEL: define spir_kernel void @step(
; CHECK-NEXT: entry:
; CHECK-NEXT: %i = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK-NOT: define {{.*}}@step.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone
declare i1 @__spvjit.bounds.check.3(i64, i64, i64, i64, i64, i64) nounwind readnone
declare void @__spvjit.bounds.report.3(i64, i32, i64, i64, i64, i64, i64, i64, i64) cold nounwind

; The first vector at the interior's first index, then vectors at multiples of 4.
; The index goes through a volatile slot: no induction variable for loop strength reduction.
; Fewer than 4 accepted indices: one by one.
; Past the fast body's bounds, the accepted indices one by one, checked.
; A work-item whose row fails the test of get_global_id(1) runs the checked vectors.
; The strip's body: the kernel with the interior test's conjuncts on get_global_id(0) true (its
; vectors lie inside them), vectorized as the fast body. It takes its first lane's index as it
; is (no multiple of 4), and tests only the row, with no lane masks.
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
