; PASS: hoist-region-bounds-checks
; A work-group's loop over its local ids (it leaves at the latch, as jit/workgroup/group_loops
; makes it) with a lowered, tagged check of an affine index: one test before the loop covers all
; 64 work-items (first and last index against the extent), the fast version runs without the
; check, the checked copy keeps it and its report. The check of a loaded index stays.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: entry:
; CHECK: %[[LAST:.*]] = add i64 %first, 63
; CHECK: icmp ult i64 %first, %n
; CHECK: icmp ult i64 %[[LAST]], %n
; CHECK: br i1 %{{.*}}, label %[[FAST:.*]], label %[[SLOW:.*]]
; CHECK: [[SLOW]]:
; CHECK: loop.checked:
; CHECK: %ok.checked = and i1 true, %{{.*}}, !spvjit.bounds.check
; CHECK: fail.checked:
; CHECK-NEXT: store volatile i64 1
; CHECK: [[FAST]]:
; CHECK: loop:
; CHECK-NOT: spvjit.bounds.check
; CHECK: br i1 true, label %store, label %fail
; CHECK: %loaded.ok = and i1 true, %{{.*}}, !spvjit.bounds.check
define spir_kernel void @k(double addrspace(1)* %a, i64 addrspace(1)* %idx, i64 %n, i64 %first, i64 addrspace(1)* %record) {
entry:
  br label %loop

loop:
  %id = phi i64 [ 0, %entry ], [ %step, %latch ]
  %i = add i64 %first, %id
  %in = icmp ult i64 %i, %n
  %ok = and i1 true, %in, !spvjit.bounds.check !0
  br i1 %ok, label %store, label %fail

store:
  %p = getelementptr double, double addrspace(1)* %a, i64 %i
  store double 1.0, double addrspace(1)* %p
  %q = getelementptr i64, i64 addrspace(1)* %idx, i64 %id
  %j = load i64, i64 addrspace(1)* %q
  %in.j = icmp ult i64 %j, %n
  %loaded.ok = and i1 true, %in.j, !spvjit.bounds.check !0
  br i1 %loaded.ok, label %store.j, label %fail

store.j:
  %pj = getelementptr double, double addrspace(1)* %a, i64 %j
  store double 2.0, double addrspace(1)* %pj
  br label %latch

fail:
  store volatile i64 1, i64 addrspace(1)* %record
  br label %latch

latch:
  %step = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %step, 64
  br i1 %more, label %loop, label %done

done:
  ret void
}

!0 = !{}
