// Loops over a work-item's private arrays unrolled, so the arrays' indices become constants and
// ir/promote_variables.hpp's promote_constant_indexed_arrays makes them registers. KA's
// `@simd for i in 1:PPWI` over an `MArray`, written `kb.for_(0, PPWI, ...)`, indexes its private
// arrays by the loop's counter; unrolled, each element is one SSA value and the kernel can be
// coarsened (issue #63: an array left in memory keeps it scalar, "has private variables").
#pragma once

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// The limits of unroll_private_array_loops: a loop runs at most `max_trip_count` times, and its
/// body times that count is at most `max_instructions` (a nest: the outer loop's body holds the
/// inner loops unrolled).
struct ArrayLoopLimits {
  unsigned max_trip_count = 16;
  unsigned max_instructions = 4096;
};

/// Unrolls fully the loops of `fn` that leave a private array (an entry-block alloca of an array
/// type) at constant elements only: each index of the array a constant or an affine function, of
/// constant start and step, of the counters of loops around the access, each loop of a constant
/// trip count within `limits` and holding no synchronizing call (a barrier, anything convergent:
/// ir/analysis/synchronizing.hpp). Innermost loops first.
/// An array with another index (a loaded value, an argument, a loop of a run-time trip count)
/// keeps its loops: unrolled, they would leave it in memory all the same. Returns how many loops
/// were unrolled.
unsigned unroll_private_array_loops(llvm::Function& fn, ArrayLoopLimits limits = {});

}  // namespace spvjit::detail
