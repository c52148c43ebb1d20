// What the group-loop rewrite refuses: jit/workgroup/group_legality.hpp.
#include "jit/workgroup/group_legality.hpp"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <set>
#include <utility>

#include "ir/analysis/synchronizing.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

WorkItemQuery work_item_query(llvm::StringRef name) {
  static const std::pair<const char*, WorkItemQuery> names[] = {
      {builtin::global_id, WorkItemQuery::GlobalId},
      {builtin::local_id, WorkItemQuery::LocalId},
      {builtin::group_id, WorkItemQuery::GroupId},
      {builtin::num_groups, WorkItemQuery::NumGroups},
      {builtin::local_size, WorkItemQuery::LocalSize},
      {builtin::enqueued_local_size, WorkItemQuery::EnqueuedLocalSize},
      {builtin::global_size, WorkItemQuery::GlobalSize},
      {builtin::global_offset, WorkItemQuery::GlobalOffset},
      {builtin::work_dim, WorkItemQuery::WorkDim}};
  for (const auto& [n, q] : names) {
    if (name == n) return q;
  }
  return WorkItemQuery::None;
}

WorkItemQuery work_item_query(const llvm::Instruction& inst) {
  const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst);
  const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee ? work_item_query(callee->getName()) : WorkItemQuery::None;
}

namespace {

// Functions of the group as a whole or of sub-groups, whose meaning a loop of work-items would
// change.
bool is_collective(llvm::StringRef name) {
  return name.contains("work_group_") || name.contains("sub_group") || name.contains("linear_id") ||
         name.contains("async_work_group") || name.contains("wait_group_events") ||
         name.startswith("__spirv_");
}

// Whether `f` or what it calls asks about work-items or synchronizes the group.
bool touches_work_items(const llvm::Function& f, std::set<const llvm::Function*>& seen) {
  if (!seen.insert(&f).second) return false;
  for (const auto& block : f) {
    for (const auto& inst : block) {
      const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst);
      if (!call) continue;
      const llvm::Function* callee = call->getCalledFunction();
      if (!callee) return true;
      const auto name = callee->getName();
      if (work_item_query(name) != WorkItemQuery::None || builtin::is_group_barrier(name) ||
          is_collective(name)) {
        return true;
      }
      if (!callee->isDeclaration() && touches_work_items(*callee, seen)) return true;
    }
  }
  return false;
}

// Why one call of the kernel keeps it from group loops (empty when it does not).
std::string call_refusal(const llvm::Function& kernel, const llvm::CallInst& call) {
  const llvm::Function* callee = call.getCalledFunction();
  if (!callee) return "calls through a pointer";
  const auto name = callee->getName();
  const WorkItemQuery q = work_item_query(name);
  if (q != WorkItemQuery::None) {
    if (q != WorkItemQuery::WorkDim && !llvm::isa<llvm::ConstantInt>(call.getArgOperand(0)))
      return "asks for a work-item function of a dimension known only at run time";
    return {};
  }
  if (is_collective(name)) return "calls '" + name.str() + "'";
  std::set<const llvm::Function*> seen{&kernel};
  if (!callee->isDeclaration() && touches_work_items(*callee, seen))
    return "calls '" + name.str() + "', which asks about work-items or waits at a barrier";
  return {};
}

}  // namespace

std::string group_loops_refusal(llvm::Function& kernel, const WorkGroup& group) {
  if (group.total() == 0) return "its workgroup is empty";
  bool barrier = false;
  for (auto& block : kernel) {
    for (auto& inst : block) {
      if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst)) {
        if (!alloca->isStaticAlloca() || &block != &kernel.getEntryBlock())
          return "allocates private memory of a size known only at run time";
        continue;
      }
      if (llvm::isa<llvm::InvokeInst>(inst) || llvm::isa<llvm::CallBrInst>(inst) ||
          llvm::isa<llvm::IndirectBrInst>(inst)) {
        return "has control flow the rewrite does not follow";
      }
      auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
      if (!call) continue;
      if (waits(*call, Waiting::GroupBarrier)) {
        barrier = true;
        continue;
      }
      if (std::string why = call_refusal(kernel, *call); !why.empty()) return why;
    }
  }
  if (!barrier) return "has no barrier";
  return {};
}

}  // namespace spvjit::detail
