; PASS: drop-proven-bounds-checks
; A static 16 x 16 group (reqd_work_group_size, which specialize() sets): local ids lie below
; 16, so 16 * ty + tx < 256 and 16 * ty + 15 < 256 hold and their checks go (KA's tiled matmul
; indexes its tiles so, and its tile loop was versioned on such a test). What the ranges do not
; prove stays: 16 * ty + tx reaches 255, ty reaches 15, and a global id has no bound.
; CHECK-LABEL: define spir_kernel void @tile(
; CHECK-NOT: call i1 @__spvjit.bounds.check.1(i64 %lin, i64 256)
; CHECK-NOT: call i1 @__spvjit.bounds.check.1(i64 %last, i64 256)
; CHECK: call i1 @__spvjit.bounds.check.1(i64 %lin, i64 255)
; CHECK: call i1 @__spvjit.bounds.check.1(i64 %ty, i64 15)
; CHECK: call i1 @__spvjit.bounds.check.1(i64 %gl, i64 256)
; CHECK: ret void
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z13get_global_idj(i32)
declare i1 @__spvjit.bounds.check.1(i64, i64) #0
declare void @__spvjit.bounds.report.1(i64, i32, i64, i64, i64) #1

define spir_kernel void @tile(float addrspace(1)* %out, i64 %__spvjit_extent_out, i64 %__spvjit_bounds, i64 %__spvjit_fast_end) !reqd_work_group_size !1 {
entry:
  %tx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %ty = call spir_func i64 @_Z12get_local_idj(i32 1)
  %gx = call spir_func i64 @_Z13get_global_idj(i32 0)
  %row = shl i64 %ty, 4
  %lin = add i64 %row, %tx
  %ok = call i1 @__spvjit.bounds.check.1(i64 %lin, i64 256)
  br i1 %ok, label %access, label %fail, !prof !0
fail:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 0, i64 0, i64 %lin, i64 256)
  br label %exit
access:
  %last = add i64 %row, 15
  %ok1 = call i1 @__spvjit.bounds.check.1(i64 %last, i64 256)
  br i1 %ok1, label %access1, label %fail1, !prof !0
fail1:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 1, i64 0, i64 %last, i64 256)
  br label %exit
access1:
  %ok2 = call i1 @__spvjit.bounds.check.1(i64 %lin, i64 255)
  br i1 %ok2, label %access2, label %fail2, !prof !0
fail2:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 2, i64 0, i64 %lin, i64 255)
  br label %exit
access2:
  %ok3 = call i1 @__spvjit.bounds.check.1(i64 %ty, i64 15)
  br i1 %ok3, label %access3, label %fail3, !prof !0
fail3:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 3, i64 0, i64 %ty, i64 15)
  br label %exit
access3:
  %gl = add i64 %gx, %tx
  %ok4 = call i1 @__spvjit.bounds.check.1(i64 %gl, i64 256)
  br i1 %ok4, label %access4, label %fail4, !prof !0
fail4:
  call void @__spvjit.bounds.report.1(i64 %__spvjit_bounds, i32 4, i64 0, i64 %gl, i64 256)
  br label %exit
access4:
  %p = getelementptr inbounds float, float addrspace(1)* %out, i64 %lin
  store float 1.0, float addrspace(1)* %p, align 4
  br label %exit

exit:
  ret void
}

attributes #0 = { nounwind readnone }
attributes #1 = { cold nounwind }

!0 = !{!"branch_weights", i32 1048576, i32 1}
!1 = !{i32 16, i32 16, i32 1}
