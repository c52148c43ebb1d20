// Half <-> float conversion of whole vectors in integer vector code, bit for bit as PoCL's
// scalar vload_half/vstore_half do it. Used by vector loads and stores of half memory (ir/) and
// by the SIMD coarsening (jit/): PoCL's own vload_halfN/vstore_halfN cannot be used (below).
#pragma once

#include <llvm/IR/IRBuilder.h>

namespace spvjit::detail {

/// OpenCL's scalar vload_half(size_t, const half*) and vstore_half(float, size_t, half*) as the IR
/// spells them, up to the pointer's address space and qualifiers: the builder emits them for
/// half memory (ir/values.cpp), coarsening recognises them (jit/coarsen/).
inline constexpr const char* vload_half_prefix = "_Z10vload_halfm";
inline constexpr const char* vstore_half_prefix = "_Z11vstore_halffm";

/// The half bits (a vector of i16) PoCL's scalar vstore_half writes for each float lane:
/// round to nearest even, overflow to infinity, and every NaN to sign | 0x7fff (measured:
/// PoCL's vstore_halfN keeps the payload instead, so it cannot be used).
llvm::Value* float_to_half_bits(llvm::IRBuilder<>& b, llvm::Value* floats);

/// The floats (a vector) PoCL's scalar vload_half gives for half bits (a vector of i16):
/// exact, NaNs quieted with their payload kept (0x7c01 -> 0x7fc02000, measured).
llvm::Value* half_bits_to_float(llvm::IRBuilder<>& b, llvm::Value* halves);

}  // namespace spvjit::detail
