// Variables as SSA values: the builder's allocas promoted as mem2reg would. Used by the passes
// that read loops and values (jit/bounds/hoist_bounds.cpp, jit/coarsen/coarsen.cpp,
// jit/device/barrier_tails.cpp) and by the stack estimate (ir/analysis/group_stack.cpp).
#pragma once

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Promotes the allocas mem2reg can promote in `fn`'s entry block to SSA values. The builder
/// reaches a variable through `getelementptr %slot, 0`, which mem2reg does not look through:
/// those are folded into the slot first.
void promote_variables(llvm::Function& fn);

/// Private arrays every access of which is at a constant element (`t(j, 0, 1)` with j a C++
/// number, a loop the builder unrolled) become one variable per element, then SSA values as
/// promote_variables makes them: registers, not a stack slot per work-item. Arrays indexed by
/// a computed value are left as they are. Returns how many arrays were promoted.
unsigned promote_constant_indexed_arrays(llvm::Function& fn);

}  // namespace spvjit::detail
