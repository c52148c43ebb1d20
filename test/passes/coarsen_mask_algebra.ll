; PASS: coarsen width=4
; The lane-mask algebra of a coarsened body (jit/coarsen/mask_algebra.hpp), on a 1-D smoothing
; step behind the interior test 0 < i < n - 1. Whether every lane is inside is first the scalar
; test on the first and last lane (each compare of the consecutive index with a uniform bound,
; and no wrap between the lanes), then, only where that fails, the lanes themselves folded by
; log2(W) rotations into lane 0. A partial mask's store finds its lanes as one run (first lane,
; end, count by the same folds), stored in pieces.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define internal spir_func void @smooth.vector.w4(
; CHECK: %[[LAST_LANE:[0-9]+]] = add i64 %coarse.base, 3
; CHECK-NEXT: %[[NO_WRAP:[0-9]+]] = icmp sle i64 %coarse.base, %[[LAST_LANE]]
; CHECK-NEXT: icmp sgt i64 %[[LAST_LANE]], 0
; CHECK-NEXT: icmp sgt i64 %coarse.base, 0
; CHECK: icmp slt i64 %coarse.base, %last
; CHECK: %[[UNSURE:[0-9]+]] = xor i1 %{{[0-9]+}}, true
; CHECK-NEXT: br i1 %[[UNSURE]], label %[[LANES:[0-9]+]], label %[[JOIN:[0-9]+]]
; CHECK: [[LANES]]:
; CHECK: shufflevector <4 x i1> %{{[0-9]+}}, <4 x i1> poison, <4 x i32> <i32 2, i32 3, i32 0, i32 1>
; CHECK: shufflevector <4 x i1> %{{[0-9]+}}, <4 x i1> poison, <4 x i32> <i32 1, i32 2, i32 3, i32 0>
; CHECK: %[[EVERY:[0-9]+]] = extractelement <4 x i1> %{{[0-9]+}}, i64 0
; CHECK: [[JOIN]]:
; CHECK-NEXT: %[[ALL:[0-9]+]] = phi i1 [ true, %entry ], [ %[[EVERY]], %[[LANES]] ]
; CHECK-NEXT: br i1 %[[ALL]], label %body.all, label %lanes.none
; The run of a partial store: its first lane (the least active lane number, W where none), its
; end and its count, then the run test.
; CHECK: select <4 x i1> %{{[0-9]+}}, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> <i32 4, i32 4, i32 4, i32 4>
; CHECK: select <4 x i1> %{{[0-9]+}}, <4 x i32> <i32 1, i32 2, i32 3, i32 4>, <4 x i32> zeroinitializer
; CHECK: zext <4 x i1> %{{[0-9]+}} to <4 x i32>
; CHECK: %[[COUNT:[0-9]+]] = extractelement <4 x i32> %{{[0-9]+}}, i64 0
; CHECK-NEXT: icmp ult i32 %[[COUNT]], 4
declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

define spir_kernel void @smooth(float addrspace(1)* %y, float addrspace(1)* noalias readonly %x, i64 %n) {
entry:
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %low = icmp slt i64 0, %i
  %last = sub i64 %n, 1
  %high = icmp slt i64 %i, %last
  %interior = and i1 %low, %high
  br i1 %interior, label %body, label %done

body:
  %left.at = sub i64 %i, 1
  %left.p = getelementptr inbounds float, float addrspace(1)* %x, i64 %left.at
  %left = load float, float addrspace(1)* %left.p, align 4
  %right.at = add i64 %i, 1
  %right.p = getelementptr inbounds float, float addrspace(1)* %x, i64 %right.at
  %right = load float, float addrspace(1)* %right.p, align 4
  %sum = fadd float %left, %right
  %y.p = getelementptr inbounds float, float addrspace(1)* %y, i64 %i
  store float %sum, float addrspace(1)* %y.p, align 4
  br label %done

done:
  ret void
}

!spvjit.allow_padding = !{}
