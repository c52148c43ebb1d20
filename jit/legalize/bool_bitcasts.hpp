// `bitcast <N x i1> %mask to iN` and back: clang -O2's SLP vectorizer tests "any"/"all" of a
// comparison chain this way. SPIR-V's OpBitcast takes no booleans (spirv-val refuses it, and
// for N other than 8/16/32/64 the translator exits on the width), so the integer is built lane
// by lane: bit i is lane i, as LLVM defines the cast on little-endian targets.
#pragma once

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// Rewrites every bitcast between a vector of i1 and an integer in `m` as extracts, shifts and
/// ors (or shifts, truncs and inserts the other way); returns how many it rewrote.
unsigned expand_bool_vector_bitcasts(llvm::Module& m);

}  // namespace spvjit::detail
