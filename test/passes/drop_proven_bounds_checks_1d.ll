; PASS: drop-proven-bounds-checks
; y[i] = x[i - 1] + x[i + 1] + x[i + 2] + x[i - 2] under `0 < i && i < n - 1`, n the elements x's
; launch passed (length(x)): x[i - 1] and x[i + 1] are inside and their checks go; x[i + 2] may
; be x[n] and x[i - 2] may be x[-1]: those stay, as does y[i] (y's extent is not n). A check
; whose pair sits beside a proven one (the 2-pair check of a view) keeps its unproven pair and
; has the proven one replaced by (0, 1).
; CHECK-LABEL: define spir_kernel void @neighbours(
; CHECK-NOT: call i1 @__spvjit.bounds.check.1(i64 %im1,
; CHECK-NOT: call i1 @__spvjit.bounds.check.1(i64 %ip1,
; CHECK: call i1 @__spvjit.bounds.check.1(i64 %ip2, i64 %__spvjit_extent_x)
; CHECK: call i1 @__spvjit.bounds.check.1(i64 %im2, i64 %__spvjit_extent_x)
; CHECK: call i1 @__spvjit.bounds.check.2(i64 0, i64 1, i64 %i, i64 %__spvjit_extent_y)
; CHECK: ret void
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) #0
declare i1 @__spvjit.bounds.check.1(i64, i64) #0
declare i1 @__spvjit.bounds.check.2(i64, i64, i64, i64) #0
declare void @__spvjit.bounds.report.1(i64, i32, i64, i64, i64) #1
declare void @__spvjit.bounds.report.2(i64, i32, i64, i64, i64, i64, i64) #1

define spir_kernel void @neighbours(float addrspace(1)* %y, float addrspace(1)* noalias readonly %x, i64 %__spvjit_extent_y, i64 %__spvjit_extent_x, i64 %__spvjit_bounds, i64 %__spvjit_fast_end) {
entry:
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %low = icmp sgt i64 %i, 0
  %n1 = add i64 %__spvjit_extent_x, -1
  %high = icmp slt i64 %i, %n1
  %interior = select i1 %low, i1 %high, i1 false
  br i1 %interior, label %body, label %done

body:
  %im1 = sub i64 %i, 1
  %c1 = call i1 @__spvjit.bounds.check.1(i64 %im1, i64 %__spvjit_extent_x)
  br i1 %c1, label %a1, label %f1, !prof !0
f1:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 0, i64 %i, i64 %im1, i64 %__spvjit_extent_x)
  br label %j1
a1:
  %p1 = getelementptr inbounds float, float addrspace(1)* %x, i64 %im1
  %v1 = load float, float addrspace(1)* %p1, align 4
  br label %j1
j1:
  %x1 = phi float [ %v1, %a1 ], [ 0.0, %f1 ]
  %ip1 = add i64 %i, 1
  %c2 = call i1 @__spvjit.bounds.check.1(i64 %ip1, i64 %__spvjit_extent_x)
  br i1 %c2, label %a2, label %f2, !prof !0
f2:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 1, i64 %i, i64 %ip1, i64 %__spvjit_extent_x)
  br label %j2
a2:
  %p2 = getelementptr inbounds float, float addrspace(1)* %x, i64 %ip1
  %v2 = load float, float addrspace(1)* %p2, align 4
  br label %j2
j2:
  %x2 = phi float [ %v2, %a2 ], [ 0.0, %f2 ]
  %ip2 = add i64 %i, 2
  %c3 = call i1 @__spvjit.bounds.check.1(i64 %ip2, i64 %__spvjit_extent_x)
  br i1 %c3, label %a3, label %f3, !prof !0
f3:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 2, i64 %i, i64 %ip2, i64 %__spvjit_extent_x)
  br label %j3
a3:
  %p3 = getelementptr inbounds float, float addrspace(1)* %x, i64 %ip2
  %v3 = load float, float addrspace(1)* %p3, align 4
  br label %j3
j3:
  %x3 = phi float [ %v3, %a3 ], [ 0.0, %f3 ]
  %im2 = sub i64 %i, 2
  %c4 = call i1 @__spvjit.bounds.check.1(i64 %im2, i64 %__spvjit_extent_x)
  br i1 %c4, label %a4, label %f4, !prof !0
f4:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 3, i64 %i, i64 %im2, i64 %__spvjit_extent_x)
  br label %j4
a4:
  %p4 = getelementptr inbounds float, float addrspace(1)* %x, i64 %im2
  %v4 = load float, float addrspace(1)* %p4, align 4
  br label %j4
j4:
  %x4 = phi float [ %v4, %a4 ], [ 0.0, %f4 ]
  %s1 = fadd float %x1, %x2
  %s2 = fadd float %s1, %x3
  %s3 = fadd float %s2, %x4
  %c5 = call i1 @__spvjit.bounds.check.2(i64 %i, i64 %n1, i64 %i, i64 %__spvjit_extent_y)
  br i1 %c5, label %a5, label %f5, !prof !0
f5:
  call void @__spvjit.bounds.report.2(i64 %__spvjit_bounds, i32 4, i64 %i, i64 %i, i64 %n1, i64 %i, i64 %__spvjit_extent_y)
  br label %done
a5:
  %p5 = getelementptr inbounds float, float addrspace(1)* %y, i64 %i
  store float %s3, float addrspace(1)* %p5, align 4
  br label %done

done:
  ret void
}

attributes #0 = { nounwind readnone }
attributes #1 = { cold nounwind }

!0 = !{!"branch_weights", i32 1048576, i32 1}
