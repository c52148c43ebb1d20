; PASS: unroll-private-array-loops
; A loop of a few trips whose counter indexes a private array (KA's `@simd for i in 1:PPWI`) is
; unrolled, leaving each access at a constant element for promote-private-arrays; its last copy,
; past the array's end behind the header's test, is gone. Left as they are: a loop of more trips
; than the limit (16); a loop over an array also indexed by a loaded value (unrolled, the array
; would stay in memory); a loop with a barrier; a loop that indexes no private array.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare void @_Z7barrierj(i32) #0

; CHECK-LABEL: define spir_kernel void @loops(
; The filling loop, four copies at elements 0 (the array's first) to 3 and none at 4.
; CHECK: store float %x, float* %first
; CHECK: getelementptr inbounds float, float* %first, i64 1
; CHECK: getelementptr inbounds float, float* %first, i64 2
; CHECK: getelementptr inbounds float, float* %first, i64 3
; CHECK-NOT: float* %first, i64 4
; The loop of 32 trips keeps its counter.
; CHECK: %b = phi i64
; CHECK: icmp slt i64 %b, 32
; The loop over the array also indexed by a loaded value keeps its counter.
; CHECK: %l = phi i64
; CHECK: %by.counter = getelementptr inbounds float, float* %loaded.first, i64 %l
; CHECK: %by.load = getelementptr inbounds float, float* %loaded.first, i64 %which
; The loop with a barrier keeps its counter.
; CHECK: %s = phi i64
; CHECK: call void @_Z7barrierj(i32 1)
; The loop over global memory alone keeps its counter.
; CHECK: %g = phi i64
; CHECK: icmp slt i64 %g, 4
define spir_kernel void @loops(float addrspace(1)* %out, float addrspace(1)* %in, i64 addrspace(1)* %indices) {
entry:
  %table = alloca [4 x float], align 16
  %big = alloca [32 x float], align 16
  %loaded = alloca [4 x float], align 16
  %synced = alloca [4 x float], align 16
  %first = getelementptr inbounds [4 x float], [4 x float]* %table, i64 0, i64 0
  %big.first = getelementptr inbounds [32 x float], [32 x float]* %big, i64 0, i64 0
  %loaded.first = getelementptr inbounds [4 x float], [4 x float]* %loaded, i64 0, i64 0
  %synced.first = getelementptr inbounds [4 x float], [4 x float]* %synced, i64 0, i64 0
  br label %fill.header

fill.header:
  %j = phi i64 [ 0, %entry ], [ %j.next, %fill.body ]
  %fill.more = icmp slt i64 %j, 4
  br i1 %fill.more, label %fill.body, label %big.header

fill.body:
  %in.at = getelementptr inbounds float, float addrspace(1)* %in, i64 %j
  %x = load float, float addrspace(1)* %in.at, align 4
  %fill.slot = getelementptr inbounds float, float* %first, i64 %j
  store float %x, float* %fill.slot, align 4
  %j.next = add i64 %j, 1
  br label %fill.header

big.header:
  %b = phi i64 [ 0, %fill.header ], [ %b.next, %big.body ]
  %big.more = icmp slt i64 %b, 32
  br i1 %big.more, label %big.body, label %load.header

big.body:
  %big.slot = getelementptr inbounds float, float* %big.first, i64 %b
  store float 1.0, float* %big.slot, align 4
  %b.next = add i64 %b, 1
  br label %big.header

load.header:
  %l = phi i64 [ 0, %big.header ], [ %l.next, %load.body ]
  %load.more = icmp slt i64 %l, 4
  br i1 %load.more, label %load.body, label %sync.header

load.body:
  %index.at = getelementptr inbounds i64, i64 addrspace(1)* %indices, i64 %l
  %which = load i64, i64 addrspace(1)* %index.at, align 8
  %by.counter = getelementptr inbounds float, float* %loaded.first, i64 %l
  store float 2.0, float* %by.counter, align 4
  %by.load = getelementptr inbounds float, float* %loaded.first, i64 %which
  store float 2.0, float* %by.load, align 4
  %l.next = add i64 %l, 1
  br label %load.header

sync.header:
  %s = phi i64 [ 0, %load.header ], [ %s.next, %sync.body ]
  %sync.more = icmp slt i64 %s, 4
  br i1 %sync.more, label %sync.body, label %global.header

sync.body:
  %sync.slot = getelementptr inbounds float, float* %synced.first, i64 %s
  store float 3.0, float* %sync.slot, align 4
  call void @_Z7barrierj(i32 1) #0
  %s.next = add i64 %s, 1
  br label %sync.header

global.header:
  %g = phi i64 [ 0, %sync.header ], [ %g.next, %global.body ]
  %global.more = icmp slt i64 %g, 4
  br i1 %global.more, label %global.body, label %done

global.body:
  %out.at = getelementptr inbounds float, float addrspace(1)* %out, i64 %g
  store float 4.0, float addrspace(1)* %out.at, align 4
  %g.next = add i64 %g, 1
  br label %global.header

done:
  %big.last = getelementptr inbounds float, float* %big.first, i64 31
  %y = load float, float* %big.last, align 4
  %z = load float, float* %first, align 4
  %sum = fadd float %y, %z
  store float %sum, float addrspace(1)* %out, align 4
  ret void
}

attributes #0 = { convergent nounwind }
