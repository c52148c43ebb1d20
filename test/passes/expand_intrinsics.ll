; PASS: expand-intrinsics
; The intrinsics SPIRV-LLVM-Translator 15 cannot translate, as plain IR: an integer reduction
; lane by lane; an ordered fadd reduction from its start value, in lane order; a saturating
; unsigned add as the wrapped sum and a compare; a saturating signed subtract choosing the
; bound by the sign of a; an add with overflow as the sum and its carry; a funnel shift of an
; odd width (i24) as two shifts, the amount taken modulo 24, and the first operand whole for
; amount 0. A funnel shift of i32 has a builtin (rotate) and stays.
; CHECK-LABEL: define spir_kernel void @intrinsics(
; CHECK-NOT: call i32 @llvm.vector.reduce.add
; CHECK: [[V0:%[0-9]+]] = extractelement <4 x i32> %v, i64 0
; CHECK: [[V1:%[0-9]+]] = extractelement <4 x i32> %v, i64 1
; CHECK: [[S01:%[0-9]+]] = add i32 [[V0]], [[V1]]
; CHECK: [[F0:%[0-9]+]] = extractelement <4 x float> %f, i64 0
; CHECK: fadd float 1.000000e+00, [[F0]]
; CHECK: [[UADD:%[0-9]+]] = add i8 %a8, %b8
; CHECK-NEXT: [[WRAPPED:%[0-9]+]] = icmp ult i8 [[UADD]], %a8
; CHECK-NEXT: select i1 [[WRAPPED]], i8 -1, i8 [[UADD]]
; CHECK: [[DIFF:%[0-9]+]] = sub i16 %a16, %b16
; CHECK: select i1 %{{[0-9]+}}, i16 -32768, i16 32767
; CHECK: [[SUM:%[0-9]+]] = add i32 %a, %b
; CHECK-NEXT: [[CARRY:%[0-9]+]] = icmp ult i32 [[SUM]], %a
; CHECK-NEXT: %sel = select i1 [[CARRY]], i32 -1, i32 [[SUM]]
; CHECK: [[AMOUNT:%[0-9]+]] = urem i24 %s, 24
; CHECK: lshr i24 %y,
; CHECK: shl i24 %x, [[AMOUNT]]
; CHECK: icmp eq i24 [[AMOUNT]], 0
; CHECK: %rot = call i32 @llvm.fshl.i32(i32 %a, i32 %a, i32 %b)
; CHECK-NOT: call {{.*}} @llvm.{{vector.reduce|uadd|usub|sadd|ssub|fshl.i24}}
; CHECK: ret void
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)
declare i8 @llvm.uadd.sat.i8(i8, i8)
declare i16 @llvm.ssub.sat.i16(i16, i16)
declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
declare i24 @llvm.fshl.i24(i24, i24, i24)
declare i32 @llvm.fshl.i32(i32, i32, i32)

define spir_kernel void @intrinsics(i32 addrspace(1)* %out, <4 x i32> %v, <4 x float> %f, i8 %a8, i8 %b8, i16 %a16, i16 %b16, i32 %a, i32 %b, i24 %x, i24 %y, i24 %s) {
entry:
  %sum = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %v)
  store i32 %sum, i32 addrspace(1)* %out, align 4
  %fsum = call float @llvm.vector.reduce.fadd.v4f32(float 1.0, <4 x float> %f)
  %fbits = bitcast float %fsum to i32
  store i32 %fbits, i32 addrspace(1)* %out, align 4
  %usat = call i8 @llvm.uadd.sat.i8(i8 %a8, i8 %b8)
  %usat32 = zext i8 %usat to i32
  store i32 %usat32, i32 addrspace(1)* %out, align 4
  %ssat = call i16 @llvm.ssub.sat.i16(i16 %a16, i16 %b16)
  %ssat32 = sext i16 %ssat to i32
  store i32 %ssat32, i32 addrspace(1)* %out, align 4
  %ov = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %a, i32 %b)
  %ovv = extractvalue { i32, i1 } %ov, 0
  %ovf = extractvalue { i32, i1 } %ov, 1
  %sel = select i1 %ovf, i32 -1, i32 %ovv
  store i32 %sel, i32 addrspace(1)* %out, align 4
  %odd = call i24 @llvm.fshl.i24(i24 %x, i24 %y, i24 %s)
  %odd32 = zext i24 %odd to i32
  store i32 %odd32, i32 addrspace(1)* %out, align 4
  %rot = call i32 @llvm.fshl.i32(i32 %a, i32 %a, i32 %b)
  store i32 %rot, i32 addrspace(1)* %out, align 4
  ret void
}
