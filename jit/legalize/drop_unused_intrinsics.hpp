// The legalizations (expand_intrinsics, bool_bitcasts, scalarize_vectors, promote_integers)
// replace intrinsic calls and leave the intrinsics' declarations behind: declarations of the
// very intrinsics they exist to keep from the translator to SPIR-V (odd-width integers, vectors
// of lane counts SPIR-V lacks, reductions). They are dropped once, after the last legalization
// (jit/pipeline.cpp), so that the module handed on declares only what it calls.
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace spvjit::detail {

/// Erases every intrinsic declaration of `m` that nothing uses; returns how many.
unsigned drop_unused_intrinsics(llvm::Module& m);

}  // namespace spvjit::detail
