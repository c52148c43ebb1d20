; PASS: divergence-group-loops
; The one divergence analysis (ir/analysis/divergence.hpp) under the group loops' rules. A loop
; whose exit depends on the local id: its blocks run for only some work-items, and its counter
; %i, read after the loop, is the iteration each work-item left in, so %i varies, and %inner and
; %next with it (divergence_loop_counter.ll: the same loop, its counter not read after it). The
; branch on the group index is the whole group's; a load varies (another work-item may have
; written the memory), and so does the private slot's address. Nothing else varies.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z12get_group_idj(i32)

; CHECK: varies: %slot (a private variable, each work-item's own)
; CHECK-NEXT: varies: %lx (local_index(0))
; CHECK-NEXT: varies: %i (local_index(0))
; CHECK-NEXT: varies: %more (local_index(0))
; CHECK-NEXT: varies: %after (local_index(0))
; CHECK-NEXT: varies: %loaded (a read of memory other work-items may write)
; CHECK-NEXT: varies: %inner (local_index(0))
; CHECK-NEXT: varies: %next (local_index(0))
; CHECK-NEXT: divergent: %header
; CHECK-NEXT: divergent: %body
; CHECK-NEXT: ; ModuleID
define spir_kernel void @k(i64 addrspace(1)* %out) {
entry:
  %slot = alloca i64
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %gx = call spir_func i64 @_Z12get_group_idj(i32 0)
  %twice = mul i64 %gx, 2
  br label %header

header:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %more = icmp ult i64 %i, %lx
  br i1 %more, label %body, label %exit

body:
  %inner = mul i64 %i, 3
  %next = add i64 %i, 1
  br label %header

exit:
  %after = add i64 %i, %twice
  store i64 %after, i64* %slot
  %loaded = load i64, i64 addrspace(1)* %out
  %k = icmp eq i64 %gx, 0
  br i1 %k, label %group.side, label %done

group.side:
  store i64 %loaded, i64 addrspace(1)* %out
  br label %done

done:
  ret void
}
