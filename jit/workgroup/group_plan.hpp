// The plan of the group-loop rewrite (jit/workgroup/group_loops.hpp), as LoopVectorize keeps a
// VPlan between its legality and its code generation: the kernel prepared for the rewrite, and
// what code generation (group_codegen.hpp) and later steps read. Preparing changes the kernel
// but not its meaning: loops the whole group runs alike cut with barriers where asked
// (uniform_loops.hpp; taken out again when there is no plan), each barrier alone in a block,
// values of ids computed again after the barriers they were live across, the other values live
// across one moved to private slots.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "jit/workgroup/group_loops.hpp"
#include "spvjit/kernel.hpp"

namespace llvm {
class AllocaInst;
class BasicBlock;
class Function;
class Instruction;
class Value;
}  // namespace llvm

namespace spvjit::detail {

/// The kernel's barriers, each alone in a block that branches to the rest of its old block (where
/// a region starts).
struct GroupBarriers {
  std::vector<llvm::BasicBlock*> blocks;  ///< barrier j's block
  llvm::DenseMap<llvm::BasicBlock*, unsigned> index;
};

/// One region: the blocks a work-item runs from `start` to the next barrier or the return, and
/// the barriers (by index) it may end at.
struct GroupRegion {
  llvm::BasicBlock* start = nullptr;
  std::vector<llvm::BasicBlock*> blocks;  ///< in the order they were found; any order serves
  std::set<unsigned> exits;               ///< barrier indices
  bool returns = false;                   ///< whether it may reach the return
};

/// A private slot of one work-item, to be made one per work-item of the group: `stride` bytes
/// apart (the slot's size rounded up to its alignment) in one byte array.
struct GroupSlot {
  llvm::AllocaInst* original = nullptr;
  std::uint64_t stride = 0;
};

/// Everything code generation reads.
struct GroupPlan {
  GroupBarriers barriers;
  /// Region 0 starts at the kernel's entry, region j + 1 after barrier j.
  std::vector<GroupRegion> regions;
  std::vector<GroupSlot> slots;
  /// The slots' storage for the whole group (each stride times the group's work-items).
  std::uint64_t slot_bytes = 0;
  /// The instructions every work-item of the group computes alike, wherever they are read
  /// (ir/analysis/divergence.hpp, DivergenceRules::group_loops), of the prepared kernel.
  llvm::DenseSet<const llvm::Value*> uniform;
  /// The uniform values live across a barrier: kept once per group, not per work-item.
  std::vector<llvm::Instruction*> uniform_across_barriers;
  /// Loops the whole group runs alike, cut with barriers of their own (uniform_loops.hpp).
  unsigned uniform_loops_cut = 0;
  /// Grid-stride loops moved before the cut (grid_stride.hpp), and those left, with why.
  unsigned grid_stride_loops = 0;
  std::vector<std::string> grid_stride_refusals;
};

/// A plan, or why there is none.
struct GroupPlanResult {
  std::optional<GroupPlan> plan;
  std::string reason;  ///< when `plan` is empty
  /// Loops whose counter starts at a work-item's id, left as they were, with why.
  std::vector<std::string> grid_stride_refusals;
};

/// Prepares `kernel` (one group_loops_refusal accepts) and plans its rewrite for `group`. Without
/// a plan (the group's private values would pass group_loops_max_storage_bytes) the kernel is
/// left prepared, with its meaning unchanged.
GroupPlanResult plan_group_loops(llvm::Function& kernel, const WorkGroup& group,
                                 const GroupLoopOptions& options);

}  // namespace spvjit::detail
