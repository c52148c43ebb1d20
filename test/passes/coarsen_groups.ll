; PASS: coarsen width=4 workgroup=8 groups=1
; Coarsening in groups (jit/coarsen/coarsen.cpp, CoarsenTarget::groups) of a kernel with a
; barrier and a static workgroup of 8: each work-item stands for 4 consecutive work-items of its
; group. Its local id's lanes are 4 times the coarsened one's plus 0..3, so the store to the tile
; is one 4-lane store; the barrier stays, once; the read of the work-item's mirror element
; (7 - lid: not consecutive) is one element per lane, the uniform read of the tile's first element
; one scalar load; the body is inlined into the kernel, whose group is 8 / 4 = 2 work-items. (A
; read of one element per lane must be paid for by a loop free of them: the sum of the tile.)
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@tile = internal addrspace(3) global [8 x float] undef, align 16

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone
declare spir_func i64 @_Z12get_local_idj(i32) nounwind readnone
declare spir_func void @_Z7barrierj(i32) convergent noduplicate nounwind

; CHECK-LABEL: define spir_kernel void @neighbours(
; CHECK-SAME: !reqd_work_group_size ![[GROUP:[0-9]+]]
; CHECK: %[[G:[0-9]+]] = call spir_func i64 @_Z13get_global_idj(i32 0)
; CHECK-NOT: noalias.scope
; CHECK: %[[BASE:coarse.base[.a-z0-9]*]] = mul nuw i64 %[[G]], 4
; CHECK: %[[LID:coarse.local.id[.a-z0-9]*]] = call spir_func i64 @_Z12get_local_idj(i32 0)
; CHECK: %[[LBASE:coarse.local.base[.a-z0-9]*]] = mul nuw i64 %[[LID]], 4
; CHECK: load <4 x float>, <4 x float> addrspace(1)*
; CHECK: %[[TILE:[0-9]+]] = getelementptr inbounds float, float addrspace(3)* {{.*}}@tile{{.*}}, i64 %[[LBASE]]
; CHECK: %[[TILE4:[0-9]+]] = bitcast float addrspace(3)* %[[TILE]] to <4 x float> addrspace(3)*
; CHECK: store <4 x float> %{{.*}}, <4 x float> addrspace(3)* %[[TILE4]]
; CHECK: call spir_func void @_Z7barrierj(i32 1)
; CHECK-NOT: call spir_func void @_Z7barrierj
; CHECK-COUNT-4: load float, float addrspace(3)*
; CHECK: loop{{.*}}:
; CHECK: load float, float addrspace(3)* %
; CHECK: fadd <4 x float>
; CHECK: store <4 x float> %{{.*}}, <4 x float> addrspace(1)*
; CHECK-NEXT: ret void
; CHECK-NOT: define {{.*}} @neighbours.group
; CHECK: ![[GROUP]] = !{i32 2, i32 1, i32 1}
define spir_kernel void @neighbours(float addrspace(1)* %y, float addrspace(1)* noalias readonly %x) !reqd_work_group_size !0 {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %xp = getelementptr inbounds float, float addrspace(1)* %x, i64 %gid
  %xv = load float, float addrspace(1)* %xp, align 4
  %tp = getelementptr inbounds float, float addrspace(3)* getelementptr inbounds ([8 x float], [8 x float] addrspace(3)* @tile, i64 0, i64 0), i64 %lid
  store float %xv, float addrspace(3)* %tp, align 4
  call spir_func void @_Z7barrierj(i32 1)
  %other = sub i64 7, %lid
  %op = getelementptr inbounds float, float addrspace(3)* getelementptr inbounds ([8 x float], [8 x float] addrspace(3)* @tile, i64 0, i64 0), i64 %other
  %ov = load float, float addrspace(3)* %op, align 4
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %kp = getelementptr inbounds float, float addrspace(3)* getelementptr inbounds ([8 x float], [8 x float] addrspace(3)* @tile, i64 0, i64 0), i64 %k
  %kv = load float, float addrspace(3)* %kp, align 4
  %acc.next = fadd float %acc, %kv
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, 8
  br i1 %more, label %loop, label %done

done:
  %sum = fadd float %ov, %acc.next
  %yp = getelementptr inbounds float, float addrspace(1)* %y, i64 %gid
  store float %sum, float addrspace(1)* %yp, align 4
  ret void
}

!0 = !{i32 8, i32 1, i32 1}
