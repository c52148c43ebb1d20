; PASS: coarsen width=4
; Memory under lane masks in a coarsened body (jit/coarsen/masked_memory.hpp), on a 1-D smoothing
; step behind the interior test 0 < i < n - 1: each load of x is one vector load where every
; lane is active, else the active lanes one element each into the lane buffer (inactive lanes
; read 0); the store is one vector store where every lane is active, else, when the active lanes
; are one run (a row's end), pieces of 2 and 1 lanes read from the lane buffer, else one element
; per active lane. The body where every lane is active has plain vector accesses.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define internal spir_func void @smooth.vector.w4(
; CHECK: %lanes.buffer = alloca <4 x float>, align 16
; CHECK: %[[WHOLE:[0-9]+]] = load <4 x float>, <4 x float> addrspace(1)*
; CHECK: store <4 x float> zeroinitializer, <4 x float>* %lanes.buffer
; CHECK: lane.active:
; CHECK: %[[ONE:[0-9]+]] = load float, float addrspace(1)*
; CHECK: store float %[[ONE]], float* %{{[0-9]+}}
; CHECK: lanes.done:
; CHECK-NEXT: %[[LANES:[0-9]+]] = load <4 x float>, <4 x float>* %lanes.buffer
; CHECK: %masked.load = phi <4 x float> [ %[[WHOLE]], %{{[0-9]+}} ], [ %[[LANES]], %lanes.done ]
; CHECK: %masked.load{{[0-9]+}} = phi <4 x float>
; CHECK: %[[SUM:[0-9]+]] = fadd <4 x float> %masked.load, %masked.load{{[0-9]+}}
; CHECK: store <4 x float> %[[SUM]], <4 x float> addrspace(1)*
; CHECK: store <4 x float> %[[SUM]], <4 x float>* %lanes.buffer
; CHECK: %[[PAIR:[0-9]+]] = load <2 x float>, <2 x float>* %{{[0-9]+}}, align 4
; CHECK-NEXT: store <2 x float> %[[PAIR]], <2 x float> addrspace(1)* %{{[0-9]+}}, align 4
; CHECK: %[[SINGLE:[0-9]+]] = load float, float* %{{[0-9]+}}, align 4
; CHECK-NEXT: store float %[[SINGLE]], float addrspace(1)* %{{[0-9]+}}, align 4
; CHECK: lane.active{{[0-9]+}}:
; CHECK: extractelement <4 x float> %[[SUM]], i64 %lane{{[0-9]+}}
; CHECK: body.all:
; CHECK: load <4 x float>, <4 x float> addrspace(1)*
; CHECK: load <4 x float>, <4 x float> addrspace(1)*
; CHECK: store <4 x float> %{{[0-9]+}}, <4 x float> addrspace(1)*
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
