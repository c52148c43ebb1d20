// llvm.fmuladd lets the code generator fuse a*b+c or not; the translator makes it OpenCL's
// `mad`, which PoCL computes as a multiply and an add, each rounded. Where the device has
// hardware FMA (CL_FP_FMA) the fused form is as fast and is what clBuildProgram gives the same
// OpenCL C source (FP_CONTRACT is ON by default), so spvjit asks for it: llvm.fma.
#pragma once

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// Turns every call of llvm.fmuladd on float (scalar or vector) into llvm.fma when `f32`, on
/// double when `f64`; other calls and modules without fmuladd are left as they are. Returns
/// how many calls it changed.
unsigned fuse_fmuladd(llvm::Module& m, bool f32, bool f64);

}  // namespace spvjit::detail
