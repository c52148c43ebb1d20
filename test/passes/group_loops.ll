; PASS: group-loops-8x2
; A group of 8 x 2 in one work-item: the barrier's two sides become two loop nests over the
; local ids (dimension 0 innermost), the value loaded before the barrier and used after it (%v)
; lives in a slot of one element per work-item (16 x i32), the one computed from the ids (%l) is
; computed again after it, the local ids become the loops' ids, the global id the group's first
; id (the work-item's own global id times 8) plus the local id, and the kernel asks for one
; work-item per group.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z13get_global_idj(i32)
declare spir_func void @_Z7barrierj(i32)

@tile = internal addrspace(3) global [16 x i32] undef

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-SAME: !reqd_work_group_size [[ONE:![0-9]+]]
; CHECK: group.entry:
; CHECK-NOT: %l.reg2mem.group
; CHECK: %v.reg2mem.group = alloca [64 x i8], align 64
; CHECK: %[[GROUP:.*]] = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK: %group.first = mul i64 %[[GROUP]], 8
; CHECK: region0:
; CHECK: r0.loop1:
; CHECK-NEXT: %r0.id1 = phi i64 [ 0, %region0 ], [ %r0.step1, %r0.latch1 ]
; CHECK: r0.loop0:
; CHECK-NEXT: %r0.id0 = phi i64 [ 0, %r0.loop1 ], [ %r0.step0, %r0.latch ]
; CHECK-NOT: call spir_func void @_Z7barrierj
; CHECK-NOT: call spir_func i64 @_Z12get_local_idj
; CHECK: store i32 %{{.*}}, i32 addrspace(3)* %{{.*}}
; CHECK: %r0.step0 = add nuw nsw i64 %r0.id0, 1
; CHECK: icmp ult i64 %r0.step0, 8
; CHECK: %r0.step1 = add nuw nsw i64 %r0.id1, 1
; CHECK: icmp ult i64 %r0.step1, 2
; CHECK: br i1 %{{.*}}, label %r0.loop1, label %r0.after1
; CHECK: r0.after1:
; CHECK-NEXT: br label %region1
; CHECK: r1.loop0:
; CHECK-NOT: call spir_func void @_Z7barrierj
; CHECK: %r1.gid0 = add i64 %group.first, %r1.id0
; CHECK: %row.again.r1 = mul i64 %r1.id1, 8
; CHECK-NEXT: %l.again.r1 = add i64 %row.again.r1, %r1.id0
; CHECK-NEXT: %r.r1 = sub i64 15, %l.again.r1
; CHECK: load i32, i32 addrspace(3)*
; CHECK: getelementptr i32, i32 addrspace(1)* %out, i64 %r1.gid0
; CHECK: r1.after1:
; CHECK-NEXT: br label %group.done
; CHECK: group.done:
; CHECK-NEXT: ret void
; CHECK: [[ONE]] = !{i32 1, i32 1, i32 1}
define spir_kernel void @k(i32 addrspace(1)* %out) {
entry:
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %ly = call spir_func i64 @_Z12get_local_idj(i32 1)
  %row = mul i64 %ly, 8
  %l = add i64 %row, %lx
  %l32 = trunc i64 %l to i32
  %slot = getelementptr [16 x i32], [16 x i32] addrspace(3)* @tile, i64 0, i64 %l
  store i32 %l32, i32 addrspace(3)* %slot
  %mine = getelementptr i32, i32 addrspace(1)* %out, i64 %l
  %v = load i32, i32 addrspace(1)* %mine
  call spir_func void @_Z7barrierj(i32 1)
  %r = sub i64 15, %l
  %other = getelementptr [16 x i32], [16 x i32] addrspace(3)* @tile, i64 0, i64 %r
  %w = load i32, i32 addrspace(3)* %other
  %sum = add i32 %w, %v
  %g = call spir_func i64 @_Z13get_global_idj(i32 0)
  %dst = getelementptr i32, i32 addrspace(1)* %out, i64 %g
  store i32 %sum, i32 addrspace(1)* %dst
  ret void
}
