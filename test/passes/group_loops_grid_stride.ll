; PASS: group-loops-8x2-grid-stride
; A grid-stride sum, `for (i = get_global_id(0); i < n; i += s) sum += a[i]`: the move versions
; it on s > 0, the group's first id >= 0 and n <= MAX - s, keeps the sum in a slot per
; work-item, and the cut runs each round `u` as a region whose loop over work-items stops at
; n - u (no per-work-item test left). Where the version's test fails, the original loop runs.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z13get_global_idj(i32)
declare spir_func void @_Z7barrierj(i32)

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: %grid.stride.group{{[^ ]*}} = mul i64 %0, 8
; CHECK: icmp sgt i64 %s, 0
; CHECK: %grid.stride.holds{{[^ ]*}} = and i1
; CHECK: br i1 %grid.stride.holds{{[^,]*}}, label %grid.stride.enter{{[^,]*}}, label %grid.stride.original
; The original, for each work-item:
; CHECK: %i.r0 = phi i64 [ %r0.gid0, %grid.stride.original.r0 ]
; CHECK: grid.stride.enter.r0:
; CHECK-NEXT: store double 0.000000e+00, double* %sum.item.r0
; A round:
; CHECK: region1:
; CHECK: %grid.stride.any.r1 = icmp slt i64 %grid.stride.u.in.r1, %n
; CHECK: %grid.stride.left.r1 = sub nsw i64 %n, %grid.stride.u.in.r1
; CHECK: %region.items = select
; CHECK: %region.any = icmp sgt i64 %grid.stride.left.r1, 0
; CHECK: br i1 %region.any, label %header.item.r1, label %grid.stride.next.r1
; CHECK: %grid.stride.i.r1 = add nuw nsw i64 %grid.stride.u.in.r1, %r1.id0
; CHECK: getelementptr double, double addrspace(1)* %a, i64 %grid.stride.i.r1
; CHECK: store double %sum.next.item.r1, double* %sum.item.r1
; CHECK: icmp ult i64 %r1.step0, %region.items
; After the rounds, each work-item's sum from its slot:
; CHECK: %sum.left.r2 = load double, double* %sum.item.r2
; CHECK: store double %sum.left.r2
define spir_kernel void @k(double addrspace(1)* %out, double addrspace(1)* %a, i64 %n, i64 %s) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %gx = call spir_func i64 @_Z13get_global_idj(i32 0)
  br label %header

header:
  %i = phi i64 [ %gx, %entry ], [ %i.next, %body ]
  %sum = phi double [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done

body:
  %p = getelementptr double, double addrspace(1)* %a, i64 %i
  %v = load double, double addrspace(1)* %p
  %sum.next = fadd double %sum, %v
  %i.next = add i64 %i, %s
  br label %header

done:
  %o = getelementptr double, double addrspace(1)* %out, i64 %gx
  store double %sum, double addrspace(1)* %o
  call spir_func void @_Z7barrierj(i32 1)
  ret void
}
