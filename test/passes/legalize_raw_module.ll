; PASS: legalize-raw-module
; A raw module's legalization end to end, and its last step, drop-unused-intrinsics: the freeze
; goes (its operand is used in its place), the reduction, saturating and overflow-checked
; intrinsics are expanded, and the declarations of those replaced are dropped; the declaration
; of llvm.fshl.i32, still called (the translator has rotate for it), stays.
; CHECK-NOT: declare {{.*}} @llvm.vector.reduce
; CHECK-NOT: declare {{.*}} @llvm.uadd.sat
; CHECK-NOT: declare {{.*}} @llvm.ssub.sat
; CHECK-NOT: declare {{.*}} @llvm.uadd.with.overflow
; CHECK: declare i32 @llvm.fshl.i32(i32, i32, i32)
; CHECK-LABEL: define spir_kernel void @intrinsics(
; CHECK-NOT: freeze
; CHECK: extractelement <4 x i32> %v, i64 0
; CHECK: %rot = call i32 @llvm.fshl.i32(i32 %a, i32 %a, i32 %b)
; CHECK-NOT: call {{.*}} @llvm.{{vector.reduce|uadd|usub|sadd|ssub}}
; CHECK: ret void
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)
declare i8 @llvm.uadd.sat.i8(i8, i8)
declare i16 @llvm.ssub.sat.i16(i16, i16)
declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)

define spir_kernel void @intrinsics(i32 addrspace(1)* %out, <4 x i32> %v, <4 x float> %f, i8 %a8, i8 %b8, i16 %a16, i16 %b16, i32 %a, i32 %b) {
entry:
  %vf = freeze <4 x i32> %v
  %sum = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %vf)
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
  %rot = call i32 @llvm.fshl.i32(i32 %a, i32 %a, i32 %b)
  store i32 %rot, i32 addrspace(1)* %out, align 4
  ret void
}
