; PASS: split-wide-builtin-calls
; PoCL's SPIR wrapper returns garbage for builtins on vectors over 256 bits: a sqrt of a
; float16 becomes two sqrts of float8, joined.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-COUNT-2: call <8 x float> @_Z4sqrtDv8_f(<8 x float>
; CHECK: shufflevector <8 x float>
; CHECK-NOT: @_Z4sqrtDv16_f(
; CHECK: call <4 x float> @_Z4sqrtDv4_f(
define spir_kernel void @k(<16 x float> addrspace(1)* %out, <16 x float> %x, <4 x float> addrspace(1)* %out4, <4 x float> %y) {
  %r = call <16 x float> @_Z4sqrtDv16_f(<16 x float> %x)
  store <16 x float> %r, <16 x float> addrspace(1)* %out
  %s = call <4 x float> @_Z4sqrtDv4_f(<4 x float> %y)
  store <4 x float> %s, <4 x float> addrspace(1)* %out4
  ret void
}
declare <16 x float> @_Z4sqrtDv16_f(<16 x float>)
declare <4 x float> @_Z4sqrtDv4_f(<4 x float>)
