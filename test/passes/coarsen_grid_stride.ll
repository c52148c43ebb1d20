; PASS: coarsen width=4 grid_stride_loops=1
; A grid-stride loop (`for (j = get_global_id(0); j < n; j += ndrange(0))`) with the exit for_
; adds before `j + step` would overflow, a per-work-item sum written after it. The counter is
; consecutive across the lanes: lane 0's counter runs beside the vector's and addresses one
; 4-element load per pass. The overflow exit is folded into the header's test: a vector flag
; phi, set by the lanes' own test before the latch, ends a lane's loop at the next pass, and the
; sum a lane leaves with is the one that exit carried round. Before that masked loop, an
; unmasked copy runs while every lane stays, its tests scalar.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK-LABEL: define internal spir_func void @strided_sum.vector.w4(
; The unmasked run: the first and last lane's counters tested, whole vectors loaded.
; CHECK: loop.unmasked:
; CHECK: %j.unmasked.first = phi i64 [ %coarse.base, %start ], [ %[[RUN_NEXT:[0-9]+]], %{{[0-9]+}} ]
; CHECK: %[[LAST:[0-9]+]] = add i64 %j.unmasked.first, 3
; CHECK: icmp slt i64 %[[LAST]], %2
; CHECK: icmp slt i64 %j.unmasked.first, %2
; CHECK: br i1 %{{[0-9]+}}, label %body.unmasked, label %masked.entry
; CHECK: body.unmasked:
; CHECK-NOT: lane.active
; CHECK: load <4 x double>
; CHECK: step.unmasked:
; CHECK: %[[RUN_NEXT]] = add i64 %j.unmasked.first, %3
; CHECK: br i1 %{{[0-9]+}}, label %loop.unmasked, label %masked.entry
; The masked loop, entered in the state the run left, the lanes that took the overflow exit
; flagged.
; CHECK: masked.entry:
; CHECK-NEXT: %[[TAKEN_IN:[0-9]+]] = phi <4 x i1> [ zeroinitializer, %{{[0-9]+}} ], [ %{{[0-9]+}}, %{{[0-9]+}} ]
; CHECK: %j.entry.first = phi i64 [ %j.unmasked.first, %{{[0-9]+}} ], [ %[[RUN_NEXT]], %{{[0-9]+}} ]
; CHECK: loop:
; CHECK-NEXT: phi <4 x i1> [ <i1 true, i1 true, i1 true, i1 true>, %masked.entry ]
; CHECK-NEXT: phi <4 x double> [ poison, %masked.entry ]
; CHECK-NEXT: %[[TAKEN:[0-9]+]] = phi <4 x i1> [ %[[TAKEN_IN]], %masked.entry ], [ %[[WRAPS:[0-9]+]], %step ]
; CHECK-NEXT: %[[CARRIED:[0-9]+]] = phi <4 x double>
; CHECK-NEXT: phi <4 x i64>
; CHECK-NEXT: %j.first = phi i64 [ %j.entry.first, %masked.entry ], [ %[[NEXT:[0-9]+]], %step ]
; CHECK-NEXT: %[[SUM:[0-9]+]] = phi <4 x double>
; CHECK: select <4 x i1> %[[TAKEN]], <4 x double> %[[CARRIED]], <4 x double> %[[SUM]]
; CHECK: select <4 x i1> %[[TAKEN]], <4 x i1> zeroinitializer, <4 x i1>
; CHECK: body:
; CHECK: lane.active:
; CHECK: step:
; CHECK: %[[NEXT]] = add i64 %j.first, %3
; CHECK: %[[WRAPS]] = icmp sgt <4 x i64>
; CHECK: br label %loop
; CHECK-LABEL: define internal spir_func void @strided_sum.scalar(

define spir_kernel void @strided_sum(double addrspace(1)* %out, double addrspace(1)* noalias readonly %x, i64 %n, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %inside = icmp ult i64 %gid, %__spvjit_ndrange0
  br i1 %inside, label %start, label %done

start:
  br label %loop

loop:
  %j = phi i64 [ %gid, %start ], [ %j.next, %step ]
  %sum = phi double [ 0.0, %start ], [ %sum.next, %step ]
  %more = icmp slt i64 %j, %n
  br i1 %more, label %body, label %after

body:
  %xp = getelementptr inbounds double, double addrspace(1)* %x, i64 %j
  %xj = load double, double addrspace(1)* %xp, align 8
  %sum.next = fadd double %sum, %xj
  %limit = sub i64 9223372036854775807, %__spvjit_ndrange0
  %wraps = icmp sgt i64 %j, %limit
  br i1 %wraps, label %after, label %step

step:
  %j.next = add i64 %j, %__spvjit_ndrange0
  br label %loop

after:
  %total = phi double [ %sum, %loop ], [ %sum.next, %body ]
  %op = getelementptr inbounds double, double addrspace(1)* %out, i64 %gid
  store double %total, double addrspace(1)* %op, align 8
  br label %done

done:
  ret void
}
