// EntryLaunch: what launching a compiled kernel needs besides its binary, learned by the
// lowering (jit/pipeline.hpp), stored in its disk-cache entry (jit/cache/cache_entry.hpp) and
// held by the launch state (runtime/launch_state.hpp's KernelFacts): one struct on the way
// from the compile to every launch.
#pragma once

#include <cstdint>

namespace spvjit::detail {

/// What launching a compiled kernel needs besides its binary.
struct EntryLaunch {
  /// Indices per work-item in dimension coarsen_dimension (jit/coarsen/coarsen.hpp).
  unsigned coarsen = 1;
  bool runs_with_offsets = false;  ///< jit/spirv/offset_safety.hpp
  /// One work-item runs a whole work-group (jit/workgroup/group_loops.hpp).
  bool group_per_item = false;
  /// What the lowering added to a work-item's stack on the thread that runs its group
  /// (ir/analysis/group_stack.hpp's estimate of the lowered kernel; a coarsened body's lane
  /// buffers): a multiple of 16, at most entry_max_stack_bytes (jit/cache/cache_entry.hpp); 0 when
  /// the pipeline added none.
  std::uint32_t stack_bytes_per_item = 0;
  /// 31 or 32: the coarsened kernel took a 32-bit narrowing of the coarsened dimension's global
  /// id for the id itself (jit/coarsen/narrow_index.hpp); a launch's ndrange in that dimension
  /// must be at most 2^index_bits. 0: none.
  unsigned index_bits = 0;
  /// The kernel uses no atomics (jit/spirv/offset_safety.hpp): its work-groups may run split
  /// over threads through PoCL's kernel runner, which shows each part the whole launch, even
  /// where it reads its group id or the global size (runtime/launch.cpp).
  bool free_of_atomics = false;
  /// The dimension `coarsen` divides: 0, or 1 for a kernel whose contiguous index is
  /// get_global_id(1) (jit/coarsen/swap_dimensions.hpp).
  unsigned coarsen_dimension = 0;
  /// Coarsened in groups (jit/coarsen/coarsen.hpp, CoarsenTarget::groups): the static
  /// workgroup's coarsened dimension is divided by `coarsen` too, and the launch pads no more
  /// than the kernel allows.
  bool coarsen_groups = false;
  friend bool operator==(const EntryLaunch&, const EntryLaunch&) = default;
};

}  // namespace spvjit::detail
