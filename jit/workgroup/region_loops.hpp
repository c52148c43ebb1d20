// What runs on each region's loop nest once every region of a group-loop rewrite is built
// (group_codegen.cpp): the nest's uniform arithmetic moved before its loops, and its innermost
// loop stopped at the last work-item a guard lets do anything.
#pragma once

#include <llvm/ADT/SmallPtrSet.h>

#include <cstdint>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Function;
class ICmpInst;
class Instruction;
class PHINode;
class Value;
}  // namespace llvm

namespace spvjit::detail {

/// One region's loop nest.
struct RegionNest {
  llvm::BasicBlock* head = nullptr;                   ///< before the loops: runs once per group
  llvm::PHINode* id0 = nullptr;                       ///< the local id of dimension 0
  llvm::ICmpInst* last0 = nullptr;                    ///< the innermost loop's `id0 + 1 < G0`
  llvm::SmallPtrSet<llvm::BasicBlock*, 32> blocks;    ///< the loops' blocks, headers to latches
  llvm::SmallPtrSet<llvm::Instruction*, 32> uniform;  ///< clones of uniform instructions

  /// Whether `v` is computed inside the loops.
  bool contains(const llvm::Value* v) const;
};

/// Moves the nest's uniform arithmetic (no memory, safe to run whatever the branches) before its
/// loops: computed once per group, and loop-invariant for what follows. `f` holds the nest.
void hoist_uniform_arithmetic(llvm::Function& f, RegionNest& nest);

/// When every side effect of a work-item in the nest runs only below some `id0 < X` (X the same
/// for the whole group), the work-items at or past the largest X do nothing but leave by the exit
/// all take: the innermost loop (over `group_size0` work-items) stops there, running at least one
/// work-item, for the exit. An effect counts only where the group-wide conditions above it hold.
/// KernelAbstractions' tree reductions (`if lid < s`) then run s work-items per level, not G.
/// Where a guard then holds for every work-item the loop runs (the others' effects have its test
/// or cannot run with it), its branch takes the loop-invariant `X > 0` instead, and its test goes.
void narrow_to_guarded_items(RegionNest& nest, std::uint64_t group_size0,
                             const llvm::DominatorTree& dominators);

}  // namespace spvjit::detail
