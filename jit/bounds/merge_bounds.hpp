// Bounds checks merged, so that a kernel's compiled size grows with its statements and not with
// its statements times a report path each (issue #34: 5.9 KB of SPIR-V per `acc += x[i] * c`,
// 69 s for PoCL to compile 1,000 of them).
//
// Run after coarsening and before the markers are lowered (jit/bounds/bounds_lowering.hpp), on
// every function of the module:
// - branches on constant checks (a coarsened fast body's) fold, and their report paths go;
// - in a module with no barrier or other convergent call, a failing access ends the function
//   it is in, as Julia's BoundsError ends the task: its report path returns (a read's value is
//   no longer needed), all report paths of one arity share one block, and a check whose
//   (index, extent) pairs equal those of a check that passed on every path to it is true. Where
//   barriers are, work-items must still reach them: the paths rejoin as before.
// - equal checks are found after the index computations of such a module are made one value each
//   (ir/cse.hpp, inside this pass: the check folds need them); elsewhere, and for what the merged
//   checks no longer separate, the `cse` step after it computes repeated loads and arithmetic
//   once (jit/pipeline.cpp).
// The first failure of a launch is reported exactly as before; what a failing launch wrote was
// and stays unspecified (docs/language.md, "Bounds checks").
#pragma once

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace spvjit::detail {

/// Merges the bounds checks of every function of `m` as above.
void merge_bounds_checks(llvm::Module& m);

/// Folds `f`'s branches on constants, removes the blocks no path reaches and merges each block
/// into its only predecessor (folding single-entry phis): after checks became `true`.
void fold_and_merge_blocks(llvm::Function& f);

}  // namespace spvjit::detail
