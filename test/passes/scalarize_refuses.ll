; PASS: legalize-raw-module
; What legalization cannot rewrite is refused, naming it and saying what to do: a <5 x float>
; passed to a function (scalarizing it would change the function's signature).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

; CHECK: refused: test: function 'twice' takes or returns a vector of a lane count SPIR-V has no type for
; CHECK-SAME: inline it or split the vector
define spir_func <5 x float> @twice(<5 x float> %v) {
  %r = fadd <5 x float> %v, %v
  ret <5 x float> %r
}
define spir_kernel void @k(float addrspace(1)* %out, float %a) {
  %v = insertelement <5 x float> zeroinitializer, float %a, i32 0
  %r = call spir_func <5 x float> @twice(<5 x float> %v)
  %e = extractelement <5 x float> %r, i32 0
  store float %e, float addrspace(1)* %out
  ret void
}
