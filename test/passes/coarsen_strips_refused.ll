; PASS: coarsen width=4 strips=4
; No strips for a kernel that reads what it writes (jit/coarsen/strips.hpp): a strip's last
; vector overlaps the one before it, and running `x[i] = x[i] + 1` twice for a lane would add 2.
; The guard is an interior test like a stencil's; the dispatcher stays one vector per work-item
; (U = 1: strips would have made it 4) with the vector body and the scalar tail.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32) nounwind readnone

; CHECK-LABEL: define spir_kernel void @bump(
; CHECK: %base = mul nuw i64 %{{[0-9]+}}, 4
; CHECK-NOT: strip
; CHECK: call spir_func void @bump.vector.w4(
; CHECK-NOT: strip
; CHECK: ret void
define spir_kernel void @bump(float addrspace(1)* %x, i64 %n, i64 %__spvjit_ndrange0, i64 %__spvjit_ndrange1, i64 %__spvjit_ndrange2) {
entry:
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %after.first = icmp slt i64 0, %i
  %before.n = icmp slt i64 %i, %n
  %in.range = icmp ult i64 %i, %__spvjit_ndrange0
  %inside.i = and i1 %after.first, %before.n
  %inside = and i1 %inside.i, %in.range
  br i1 %inside, label %then, label %done

then:
  %p = getelementptr inbounds float, float addrspace(1)* %x, i64 %i
  %v = load float, float addrspace(1)* %p, align 4
  %w = fadd float %v, 1.0
  store float %w, float addrspace(1)* %p, align 4
  br label %done

done:
  ret void
}
