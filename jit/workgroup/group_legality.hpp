// Legality of the group-loop rewrite (jit/workgroup/group_loops.hpp): which kernels it can run as
// loops over a group's work-items, and the work-item functions it reads, by kind. Nothing here
// changes the kernel.
#pragma once

#include <cstdint>
#include <string>

#include "spvjit/kernel.hpp"

namespace llvm {
class Function;
class Instruction;
class StringRef;
}  // namespace llvm

namespace spvjit::detail {

/// The OpenCL work-item functions, by kind (ir/work_item_builtins.hpp spells their names).
enum class WorkItemQuery {
  None,
  GlobalId,
  LocalId,
  GroupId,
  NumGroups,
  LocalSize,
  EnqueuedLocalSize,
  GlobalSize,
  GlobalOffset,
  WorkDim
};

/// The work-item function `callee_name` names, or None.
WorkItemQuery work_item_query(llvm::StringRef callee_name);

/// The work-item function `inst` calls, if it is a direct call of one; otherwise None.
WorkItemQuery work_item_query(const llvm::Instruction& inst);

/// Why `kernel` cannot run as group loops for `group` (empty when it can): an empty group, no
/// barrier, private memory sized at run time, control flow or calls the rewrite does not follow,
/// work-item functions of a dimension known only at run time, functions of the group as a whole.
std::string group_loops_refusal(llvm::Function& kernel, const WorkGroup& group);

}  // namespace spvjit::detail
