; PASS: coarsen width=4
; A loop whose exit test differs between lanes (an escape-time loop: each lane iterates while
; its own value stays below 4) runs under lane masks: an `active` mask phi, `stay` and `leaving`
; as selects on it, the value used after the loop (the count) kept as each lane left it, and one
; uniform exit when no lane stays. The store inside the loop is masked by `stay`; the count is
; a uniform scalar inside the loop and a vector after it.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK-LABEL: define internal spir_func void @escape.vector.w4(
; CHECK: loop:
; CHECK-NEXT: %[[ACTIVE:[0-9a-z.]+]] = phi <4 x i1> [ <i1 true, i1 true, i1 true, i1 true>, %start ], [ %[[STAY:[0-9a-z.]+]], %{{[0-9a-z.]+}} ]
; CHECK-NEXT: %[[LAST:[0-9a-z.]+]] = phi <4 x i32> [ poison, %start ], [ %[[EXIT:[0-9a-z.]+]], %{{[0-9a-z.]+}} ]
; CHECK-NEXT: phi <4 x float>
; CHECK-NEXT: %count = phi i32
; CHECK: %[[STAY]] = select <4 x i1> %[[ACTIVE]], <4 x i1> %{{[0-9a-z.]+}}, <4 x i1> zeroinitializer
; CHECK: %[[LEAVING:[0-9a-z.]+]] = select <4 x i1> %[[ACTIVE]], <4 x i1> %{{[0-9a-z.]+}}, <4 x i1> zeroinitializer
; CHECK: %[[EXIT]] = select <4 x i1> %[[LEAVING]], <4 x i32> %{{[0-9a-z.]+}}, <4 x i32> %[[LAST]]
; CHECK: br i1 %{{[0-9a-z.]+}}, label %after, label %body
; The store: whole when every lane stays, else lane by lane for the lanes that stay.
; CHECK: body:
; CHECK: store <4 x float>
; CHECK: lane.active:
; CHECK: store float
; CHECK: after:
; CHECK: store <4 x i32> %[[EXIT]]
; CHECK-LABEL: define internal spir_func void @escape.scalar(

define spir_kernel void @escape(i32 addrspace(1)* %counts, float addrspace(1)* %trace, float addrspace(1)* noalias readonly %x, i32 %limit, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %inside = icmp ult i64 %gid, %__spvjit_ndrange0
  br i1 %inside, label %start, label %done

start:
  %xp = getelementptr inbounds float, float addrspace(1)* %x, i64 %gid
  %x0 = load float, float addrspace(1)* %xp, align 4
  %tp = getelementptr inbounds float, float addrspace(1)* %trace, i64 %gid
  br label %loop

loop:
  %v = phi float [ %x0, %start ], [ %v.next, %body ]
  %count = phi i32 [ 0, %start ], [ %count.next, %body ]
  %below = fcmp olt float %v, 4.0
  %more = icmp slt i32 %count, %limit
  %go = and i1 %below, %more
  br i1 %go, label %body, label %after

body:
  %v.sq = fmul float %v, %v
  %v.next = fadd float %v.sq, 0.25
  store float %v.next, float addrspace(1)* %tp, align 4
  %count.next = add i32 %count, 1
  br label %loop

after:
  %cp = getelementptr inbounds i32, i32 addrspace(1)* %counts, i64 %gid
  store i32 %count, i32 addrspace(1)* %cp, align 4
  br label %done

done:
  ret void
}
