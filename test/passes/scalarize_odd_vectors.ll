; PASS: scalarize-odd-vectors
; SPIR-V has vectors of 2, 3, 4, 8 and 16 lanes only: a <5 x float> computed in registers is
; computed lane by lane, and only the lanes that are read.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NOT: <5 x float>
; CHECK: [[LANE0:%[0-9]+]] = fadd float %a, 0.000000e+00
; CHECK-NEXT: [[LANE4:%[0-9]+]] = fadd float 0.000000e+00, %b
; CHECK-NEXT: %t = fadd float [[LANE0]], [[LANE4]]
; CHECK-NOT: <5 x float>
define spir_kernel void @k(float addrspace(1)* %out, float %a, float %b) {
  %va = insertelement <5 x float> zeroinitializer, float %a, i32 0
  %vb = insertelement <5 x float> zeroinitializer, float %b, i32 4
  %s = fadd <5 x float> %va, %vb
  %e0 = extractelement <5 x float> %s, i32 0
  %e4 = extractelement <5 x float> %s, i32 4
  %t = fadd float %e0, %e4
  store float %t, float addrspace(1)* %out
  ret void
}
