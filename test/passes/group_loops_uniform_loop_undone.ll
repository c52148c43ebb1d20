; PASS: group-loops-8x2-uniform-loops
; The loop over %k qualifies for the cut, but each work-item's private array (5000 x i64, 40 KB)
; makes the group's slots 640 KB, past the rewrite's 512 KiB: the rewrite is refused after the
; cut, and the barriers the cut added must go again, so that the device gets the kernel's one
; barrier and no other.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

; CHECK: left alone: needs more than 512 KiB
; CHECK-LABEL: define spir_kernel void @k(
; CHECK: call spir_func void @_Z7barrierj(i32 1)
; CHECK-NOT: call {{.*}}@_Z7barrierj
; CHECK: ret void
define spir_kernel void @k(i64 addrspace(1)* %out, i64 %n) {
entry:
  %private = alloca [5000 x i64]
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %mine = getelementptr [5000 x i64], [5000 x i64]* %private, i64 0, i64 %lx
  store i64 %lx, i64* %mine
  call spir_func void @_Z7barrierj(i32 1)
  br label %header

header:
  %k = phi i64 [ 0, %entry ], [ %k.next, %header ]
  %at = getelementptr [5000 x i64], [5000 x i64]* %private, i64 0, i64 %k
  %v = load i64, i64* %at
  %p = getelementptr i64, i64 addrspace(1)* %out, i64 %lx
  store i64 %v, i64 addrspace(1)* %p
  %k.next = add i64 %k, 1
  %more = icmp slt i64 %k.next, %n
  br i1 %more, label %header, label %done

done:
  ret void
}
