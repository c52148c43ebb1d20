; PASS: promote-odd-integers
; An i24 (clang -O2 makes them of bit fields and narrowed loops) is computed in i32: the add is
; done wide and its result truncated back to 24 bits where the width matters (here, the store of
; a zero-extension).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NOT: i24
; CHECK: add i32
; CHECK: and i32 {{.*}}, 16777215
; CHECK: store i32
define spir_kernel void @k(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %x = trunc i32 %a to i24
  %y = trunc i32 %b to i24
  %s = add i24 %x, %y
  %w = zext i24 %s to i32
  store i32 %w, i32 addrspace(1)* %out
  ret void
}
