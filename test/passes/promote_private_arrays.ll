; PASS: promote-private-arrays
; A private array read and written only at constant elements (the builder's
; `getelementptr [4 x float], %private, 0, 0` then each element at a constant index) becomes one
; SSA value per element; an array indexed by a computed value stays in memory.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @arrays(
; CHECK-NOT: %private = alloca [4 x float]
; CHECK: %computed = alloca [4 x float]
; CHECK-NOT: alloca
; CHECK: %sum = fadd float %a, %b
; CHECK: store float %sum, float addrspace(1)* %out
define spir_kernel void @arrays(float addrspace(1)* %out, float %a, float %b, i64 %k) {
entry:
  %private = alloca [4 x float], align 16
  %computed = alloca [4 x float], align 16
  %first = getelementptr inbounds [4 x float], [4 x float]* %private, i64 0, i64 0
  %e1 = getelementptr inbounds float, float* %first, i64 1
  %e3 = getelementptr inbounds float, float* %first, i64 3
  store float %a, float* %e1, align 4
  store float %b, float* %e3, align 4
  %x = load float, float* %e1, align 4
  %y = load float, float* %e3, align 4
  %sum = fadd float %x, %y
  store float %sum, float addrspace(1)* %out, align 4
  %c = getelementptr inbounds [4 x float], [4 x float]* %computed, i64 0, i64 %k
  store float %sum, float* %c, align 4
  ret void
}
