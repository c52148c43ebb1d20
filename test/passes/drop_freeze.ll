; PASS: drop-freeze
; A freeze becomes its operand; a frozen undef becomes zero, the same zero at every use.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NOT: freeze
; CHECK: %sum = add i32 %a, 0
; CHECK: store i32 %sum
; CHECK: store i32 %a
define spir_kernel void @k(i32 addrspace(1)* %out, i32 %a) {
  %f = freeze i32 %a
  %u = freeze i32 undef
  %sum = add i32 %f, %u
  store i32 %sum, i32 addrspace(1)* %out
  %p = getelementptr i32, i32 addrspace(1)* %out, i64 1
  store i32 %f, i32 addrspace(1)* %p
  ret void
}
