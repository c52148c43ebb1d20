// LLVM intrinsics that clang -O2 and LLVM's own passes emit but SPIRV-LLVM-Translator 15 cannot
// translate (it answers "Unexpected llvm intrinsic" and exits), rewritten as plain IR it can:
// vector reductions lane by lane, saturating and overflow-checked arithmetic as the compares
// they stand for, funnel shifts of widths the translator has no builtin for as two shifts.
#pragma once

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// Expands, in every function of `m`: llvm.vector.reduce.{add,mul,and,or,xor,smax,smin,umax,
/// umin,fadd,fmul,fmax,fmin}, llvm.{u,s}{add,sub}.sat, llvm.{u,s}{add,sub}.with.overflow, and
/// llvm.fshl/fshr on integers other than i8/i16/i32/i64. Returns how many calls it expanded.
unsigned expand_untranslatable_intrinsics(llvm::Module& m);

}  // namespace spvjit::detail
