// Vectors of lane counts SPIR-V has no type for (1, 5, 6, 7, 9..15, more than 16: an LLVM front
// end's <5 x float>, a <32 x i1> mask) computed lane by lane as scalars, loaded and stored
// element by element.
#pragma once

#include "common/error_report.hpp"

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// Scalarizes every vector value of an odd lane count in `m`'s functions: element-wise
/// arithmetic, compares, casts, selects, phis, element reads and writes (constant or computed
/// index), shuffles, loads, stores and calls of intrinsics overloaded on the vector type alone.
/// Throws UserError, starting with `where`, for what it does not scalarize: such vectors in
/// function signatures, allocas, globals, aggregates, vector GEPs or other calls.
void scalarize_odd_vectors(llvm::Module& m, Where where);

}  // namespace spvjit::detail
