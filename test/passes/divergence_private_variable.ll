; PASS: divergence-barrier-check
; The one divergence analysis (ir/analysis/divergence.hpp) under the builder's rules, which read a
; kernel before it is lowered: a load is as uniform as its address, and a private variable as what
; was stored in it. %shared reads global memory at a uniform address: uniform. %mine reads the
; variable a work-item's own index was stored in: it varies, and the branch on it makes %then
; divergent; %joined joins the two sides of that branch and varies too. An atomic's result varies.
; Nothing else varies.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)

; CHECK: varies: %gx (global_index(0))
; CHECK-NEXT: varies: %mine (global_index(0))
; CHECK-NEXT: varies: %odd (global_index(0))
; CHECK-NEXT: varies: %joined (global_index(0))
; CHECK-NEXT: varies: %old (the result of an atomic operation)
; CHECK-NEXT: divergent: %then
; CHECK-NEXT: ; ModuleID
define spir_kernel void @k(i64 addrspace(1)* %data) {
entry:
  %slot = alloca i64
  %gx = call spir_func i64 @_Z13get_global_idj(i32 0)
  store i64 %gx, i64* %slot
  %shared = load i64, i64 addrspace(1)* %data
  %doubled = mul i64 %shared, 2
  %mine = load i64, i64* %slot
  %odd = trunc i64 %mine to i1
  br i1 %odd, label %then, label %join

then:
  br label %join

join:
  %joined = phi i64 [ 1, %then ], [ %doubled, %entry ]
  %old = atomicrmw add i64 addrspace(1)* %data, i64 %joined seq_cst
  ret void
}
