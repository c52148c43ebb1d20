// Code generation of the group-loop rewrite (jit/workgroup/group_loops.hpp): each region of the
// plan (group_plan.hpp) becomes a loop nest over the group's local ids, x innermost, whose body is
// a clone of the blocks the region reaches; the private slots become one per work-item, the
// uniform values kept across barriers one per group, and the work-item functions the loops' ids
// or values of the group. The nests are then tidied (region_loops.hpp).
#pragma once

#include "jit/workgroup/group_plan.hpp"
#include "spvjit/kernel.hpp"

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Rewrites `kernel`, prepared by plan_group_loops for `group`, as `plan` says.
void emit_group_loops(llvm::Function& kernel, const WorkGroup& group, const GroupPlan& plan);

}  // namespace spvjit::detail
