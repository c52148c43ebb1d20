; PASS: path-cost
; The static price of a function's paths (jit/coarsen/path_cost.hpp): an instruction counts the
; 256-bit registers of its widest value (a <16 x float> is 2), a conditional branch 1, phis and
; address arithmetic nothing, a block inside a loop 16 times per loop level, a call of a defined
; function 1 plus that function's working path, a builtin 10 per register of its result.
; @paths: entry costs 2 (load) + 2 (fadd) + 1 (branch) = 5. Its cheapest path that writes is
; entry, small (a scalar store, 1): 6. Its dearest is entry, wide (a 2-register store), loop (3
; per trip: add, compare, branch, 16 trips = 48): 55. entry -> done writes nothing and is not the
; working path although it is the cheapest.
; CHECK: path-cost @paths: working 6 dearest 55
; @caller: the call (1 + @paths' working 6), a builtin sqrt on <8 x float> (10 x 1), a store: 18.
; CHECK: path-cost @caller: working 18 dearest 18
; @reads: no path writes, so its working path is its dearest: the load only, 1.
; CHECK: path-cost @reads: working 1 dearest 1
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func <8 x float> @_Z4sqrtDv8_f(<8 x float>) nounwind readnone

define spir_func void @paths(<16 x float> addrspace(1)* %p, float addrspace(1)* %q, i64 %n, i8 %c) {
entry:
  %v = load <16 x float>, <16 x float> addrspace(1)* %p
  %w = fadd <16 x float> %v, %v
  switch i8 %c, label %done [i8 0, label %small
                             i8 1, label %wide]
small:
  store float 1.0, float addrspace(1)* %q
  br label %done
wide:
  store <16 x float> %w, <16 x float> addrspace(1)* %p
  br label %loop
loop:
  %i = phi i64 [ 0, %wide ], [ %next, %loop ]
  %next = add i64 %i, 1
  %again = icmp ult i64 %next, %n
  br i1 %again, label %loop, label %done
done:
  ret void
}

define spir_func void @caller(<16 x float> addrspace(1)* %p, float addrspace(1)* %q, <8 x float> addrspace(1)* %r, <8 x float> %x) {
entry:
  call spir_func void @paths(<16 x float> addrspace(1)* %p, float addrspace(1)* %q, i64 4, i8 0)
  %s = call spir_func <8 x float> @_Z4sqrtDv8_f(<8 x float> %x)
  store <8 x float> %s, <8 x float> addrspace(1)* %r
  ret void
}

define spir_func float @reads(float addrspace(1)* %q) {
entry:
  %x = load float, float addrspace(1)* %q
  ret float %x
}
