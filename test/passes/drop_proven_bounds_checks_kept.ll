; PASS: drop-proven-bounds-checks
; What the conditions do not prove stays checked. k <u size(A, 1) does not make k >= 0: a shape
; extent is not known to be non-negative (a launch checks only the extents' product, which a
; zero extent makes 0 whatever the others hold), so b[k] keeps its check although k < length(b)
; too. A check nested in another's access block is judged on the condition as it was.
; CHECK-LABEL: define spir_kernel void @unsigned_fact(
; CHECK: call i1 @__spvjit.bounds.check.1(i64 %k, i64 %__spvjit_extent_b)
; CHECK: call i1 @__spvjit.bounds.check.1(i64 %k1, i64 %__spvjit_extent_b)
; CHECK: ret void
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare i1 @__spvjit.bounds.check.1(i64, i64) #0
declare void @__spvjit.bounds.report.1(i64, i32, i64, i64, i64) #1

define spir_kernel void @unsigned_fact(float addrspace(1)* %A, float addrspace(1)* %b, i64 %k, i64 %__spvjit_extent_A, i64 %__spvjit_extent_b, i64 %__spvjit_bounds, i64 %__spvjit_fast_end, i64 %__spvjit_shape_A_0, i64 %__spvjit_shape_A_1) {
entry:
  %c1 = icmp ult i64 %k, %__spvjit_shape_A_1
  %c2 = icmp slt i64 %k, %__spvjit_extent_b
  %c = select i1 %c1, i1 %c2, i1 false
  br i1 %c, label %body, label %exit

body:
  %ok = call i1 @__spvjit.bounds.check.1(i64 %k, i64 %__spvjit_extent_b)
  br i1 %ok, label %access, label %fail, !prof !0
fail:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 0, i64 0, i64 %k, i64 %__spvjit_extent_b)
  br label %exit
access:
  %p = getelementptr inbounds float, float addrspace(1)* %b, i64 %k
  store float 1.0, float addrspace(1)* %p, align 4
  %k1 = add i64 %k, 1
  %ok1 = call i1 @__spvjit.bounds.check.1(i64 %k1, i64 %__spvjit_extent_b)
  br i1 %ok1, label %access1, label %fail1, !prof !0
fail1:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 1, i64 0, i64 %k1, i64 %__spvjit_extent_b)
  br label %exit
access1:
  %p1 = getelementptr inbounds float, float addrspace(1)* %b, i64 %k1
  store float 2.0, float addrspace(1)* %p1, align 4
  br label %exit

exit:
  ret void
}

attributes #0 = { nounwind readnone }
attributes #1 = { cold nounwind }

!0 = !{!"branch_weights", i32 1048576, i32 1}
