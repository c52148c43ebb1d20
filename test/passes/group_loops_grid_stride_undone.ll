; PASS: group-loops-8x2-grid-stride
; Two loops whose counter starts at a work-item's id. The first, from get_local_id(0) + %base by 8
; below %n (unsigned), would move, but each work-item's private array (5000 x i64, 40 KB) makes the
; group's slots 640 KB, past the rewrite's 512 KiB: the rewrite is refused after the move, and
; the move must be taken back out, so that the device gets the kernel's loops as they were. The
; second reads its counter after it, which the moved loop does not keep: left, and the log says
; why.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z13get_global_idj(i32)
declare spir_func void @_Z7barrierj(i32)

; CHECK: grid-stride loop 'second': its counter is read after it
; CHECK: left alone: needs more than 512 KiB
; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NOT: grid.stride
; CHECK: %start = add i64 %lx, %base
; CHECK-NEXT: br label %first
; CHECK: first:
; CHECK-NEXT: %i = phi i64 [ %start, %entry ], [ %i.next, %first.body ]
; CHECK-NOT: grid.stride
; CHECK: call spir_func void @_Z7barrierj(i32 1)
; CHECK-NOT: call {{.*}}@_Z7barrierj
; CHECK-NOT: grid.stride
; CHECK: ret void
define spir_kernel void @k(i64 addrspace(1)* %out, i64 %n, i64 %base) {
entry:
  %private = alloca [5000 x i64]
  %lx = call spir_func i64 @_Z12get_local_idj(i32 0)
  %gx = call spir_func i64 @_Z13get_global_idj(i32 0)
  %start = add i64 %lx, %base
  br label %first

first:
  %i = phi i64 [ %start, %entry ], [ %i.next, %first.body ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %first.body ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %first.body, label %between

first.body:
  %at = getelementptr [5000 x i64], [5000 x i64]* %private, i64 0, i64 %i
  %v = load i64, i64* %at
  %acc.next = add i64 %acc, %v
  %i.next = add i64 %i, 8
  br label %first

between:
  br label %second

second:
  %j = phi i64 [ %gx, %between ], [ %j.next, %second.body ]
  %again = icmp slt i64 %j, %n
  br i1 %again, label %second.body, label %done

second.body:
  %j.next = add i64 %j, 16
  br label %second

done:
  %p = getelementptr i64, i64 addrspace(1)* %out, i64 %gx
  %sum = add i64 %acc, %j
  store i64 %sum, i64 addrspace(1)* %p
  call spir_func void @_Z7barrierj(i32 1)
  ret void
}
