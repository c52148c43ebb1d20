; PASS: coarsen width=4 vector_math=1
; On a device that computes each math builtin with one algorithm at every vector width (PoCL
; with patch 0014), a coarsened kernel calls the builtin's vector form once per vector: exp and
; pow here, beside the exact fabs.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone
declare spir_func float @_Z3expf(float) nounwind readnone
declare spir_func float @_Z3powff(float, float) nounwind readnone
declare spir_func float @_Z4fabsf(float) nounwind readnone

; CHECK-LABEL: define internal spir_func void @expow.vector.w4(
; CHECK: %[[E:[0-9a-z.]+]] = call spir_func <4 x float> @_Z3expDv4_f(<4 x float>
; CHECK: call spir_func <4 x float> @_Z3powDv4_fS_(<4 x float> %[[E]], <4 x float>
; CHECK: call spir_func <4 x float> @_Z4fabsDv4_f(
; CHECK-NOT: call spir_func float @_Z3expf
; CHECK-LABEL: define internal spir_func void @expow.scalar(

define spir_kernel void @expow(float addrspace(1)* %z, float addrspace(1)* noalias readonly %x, float %a, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %inside = icmp ult i64 %gid, %__spvjit_ndrange0
  br i1 %inside, label %body, label %done

body:
  %xp = getelementptr inbounds float, float addrspace(1)* %x, i64 %gid
  %xv = load float, float addrspace(1)* %xp, align 4
  %e = call spir_func float @_Z3expf(float %xv)
  %p = call spir_func float @_Z3powff(float %e, float %a)
  %m = call spir_func float @_Z4fabsf(float %p)
  %zp = getelementptr inbounds float, float addrspace(1)* %z, i64 %gid
  store float %m, float addrspace(1)* %zp, align 4
  br label %done

done:
  ret void
}
