// A static estimate of what one call of a function costs on a CPU device, for pricing the plans a
// kernel could run by (jit/coarsen/plans.hpp). Each instruction counts the vector registers its
// widest value occupies (a 16-lane float is two 256-bit registers for PoCL's x86-64-v3 kernels),
// a load or store likewise, a call to a builtin (math) ten times that, and nothing for what
// compiles to no instruction (phis, address arithmetic folded into the access, casts between
// pointers). A block inside loops counts `loop_trips` times per loop around it. Two paths from
// the entry to a return are priced: the cheapest that does the function's work (passes a store,
// or a call that may write), and the dearest of all. The model is LoopVectorize's cost tables in
// miniature: relative figures to rank plans by, not cycles.
#pragma once

namespace llvm {
class Function;
}

namespace spvjit::detail {

struct PathCost {
  /// The cheapest path from the entry to a return through a block that writes memory; the
  /// dearest path when no path writes.
  double working = 0;
  /// The dearest path from the entry to a return.
  double dearest = 0;
};

struct PathCostOptions {
  unsigned register_bits = 256;  ///< a vector register of the device's kernels
  double loop_trips = 16;        ///< trips assumed per loop level
  /// Calls of functions defined in the module cost their own working path (depth-limited);
  /// without, only the call itself counts (a dispatcher's own work beside the bodies it calls).
  bool follow_calls = true;
};

/// The two paths' prices of `f` (a defined function).
PathCost path_cost(const llvm::Function& f, const PathCostOptions& options = {});

}  // namespace spvjit::detail
