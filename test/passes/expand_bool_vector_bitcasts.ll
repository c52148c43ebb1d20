; PASS: expand-bool-vector-bitcasts
; A bitcast between <4 x i1> and i4 (LLVM's vectorizers make them for masks; the translator
; cannot give a bool vector a bit width): to the integer, lane k's bit shifted to bit k and
; or-ed in; back, bit k shifted down and truncated into lane k.
; CHECK-LABEL: define spir_kernel void @bool_bitcasts(
; CHECK-NOT: bitcast <4 x i1>
; CHECK: [[L3:%[0-9]+]] = extractelement <4 x i1> %lanes, i64 3
; CHECK-NEXT: [[Z3:%[0-9]+]] = zext i1 [[L3]] to i4
; CHECK-NEXT: [[S3:%[0-9]+]] = shl i4 [[Z3]], 3
; CHECK-NEXT: [[MASK:%[0-9]+]] = or i4 %{{[0-9]+}}, [[S3]]
; CHECK-NEXT: %wide = zext i4 [[MASK]] to i8
; CHECK: [[B0:%[0-9]+]] = trunc i4 %bits to i1
; CHECK-NEXT: insertelement <4 x i1> poison, i1 [[B0]], i64 0
; CHECK: [[SH3:%[0-9]+]] = lshr i4 %bits, 3
; CHECK-NEXT: [[B3:%[0-9]+]] = trunc i4 [[SH3]] to i1
; CHECK-NEXT: [[BACK:%[0-9]+]] = insertelement <4 x i1> %{{[0-9]+}}, i1 [[B3]], i64 3
; CHECK-NEXT: %pick = select <4 x i1> [[BACK]], <4 x i32> %a, <4 x i32> %b
; CHECK-NOT: bitcast i4
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @bool_bitcasts(i8 addrspace(1)* %out, <4 x i32> %a, <4 x i32> %b, i4 %bits) {
entry:
  %lanes = icmp slt <4 x i32> %a, %b
  %mask = bitcast <4 x i1> %lanes to i4
  %wide = zext i4 %mask to i8
  store i8 %wide, i8 addrspace(1)* %out, align 1
  %back = bitcast i4 %bits to <4 x i1>
  %pick = select <4 x i1> %back, <4 x i32> %a, <4 x i32> %b
  %first = extractelement <4 x i32> %pick, i64 0
  %byte = trunc i32 %first to i8
  store i8 %byte, i8 addrspace(1)* %out, align 1
  ret void
}
