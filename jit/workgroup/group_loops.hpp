// A work-group as loops in one work-item, for CPU devices (issue #31; docs/performance.md, "Work-
// group code generation"). A kernel with barriers and a static workgroup of G work-items is
// rewritten so that one OpenCL work-item runs its whole group: the body between two barriers (a
// region) becomes a loop over the group's local ids, the barrier the end of that loop. Values a
// work-item computes before a barrier and uses after it live in per-group arrays indexed by the
// local id (contiguous, so a region loop reads and writes them as vectors), as do its private
// arrays. PoCL then compiles a plain loop nest per region, which its loop vectorizer widens for
// the device, instead of its own work-item loops with context arrays.
//
// The launch runs one work-item per group: the group count in every dimension, a local size of 1
// (KernelFacts::group_per_item, runtime/launch.cpp). Semantics are the kernel's: regions run in
// the order the group's work-items reach the barriers, work-items of a region in local-id order
// (a valid schedule of the original kernel, whose barriers the builder checks are reached by the
// whole group: ir/analysis/barriers_uniform).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spvjit/kernel.hpp"

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// What the rewrite did to one kernel.
struct GroupLoopsResult {
  bool applied = false;
  std::string reason;              ///< why the kernel was left alone (empty when applied)
  unsigned uniform_loops_cut = 0;  ///< loops run with the work-items innermost (uniform_loops.hpp)
  unsigned regions = 0;            ///< the loops over the group's work-items, one per region
  unsigned slots = 0;              ///< values and private arrays kept per work-item across barriers
  std::uint64_t slot_bytes = 0;    ///< their storage for the whole group
  unsigned kept_once = 0;          ///< uniform values kept once per group across barriers
  unsigned grid_stride_loops = 0;  ///< grid-stride loops moved (grid_stride.hpp)
  /// Loops whose counter starts at a work-item's id, left as they were, with why (for the log).
  std::vector<std::string> grid_stride_refusals;
};

/// Choices of the rewrite beyond what the kernel says.
struct GroupLoopOptions {
  /// Loops the whole group runs alike iterate outside the loop over work-items
  /// (jit/workgroup/uniform_loops.hpp).
  bool cut_uniform_loops = false;
  /// Grid-stride loops are first made loops the whole group runs alike (grid_stride.hpp), so
  /// that they are cut too; only with cut_uniform_loops.
  bool grid_stride = false;
};

/// Per-group storage (cross-barrier values and private arrays, for the whole group) the rewrite
/// may allocate on the stack of the thread that runs the group; larger kernels are left alone.
inline constexpr std::uint64_t group_loops_max_storage_bytes = 512 * 1024;

/// Rewrites `kernel` (specialized, bounds checks lowered) to run `group` work-items per OpenCL
/// work-item when it has barriers and everything it asks about work-items is known; otherwise
/// says why and leaves its meaning as it was (refused before any change, or, when its group's
/// slots would be too large, with its barriers in blocks of their own and the values live
/// across them in private slots, as the device would keep them anyway). Conservative: what it
/// does not understand, it refuses.
GroupLoopsResult run_group_in_one_item(llvm::Function& kernel, const WorkGroup& group,
                                       const GroupLoopOptions& options = {});

}  // namespace spvjit::detail
