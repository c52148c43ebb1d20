// The group-loop rewrite (jit/workgroup/group_loops.hpp), in LoopVectorize's shape: legality
// (group_legality.hpp) refuses what it cannot run, the plan (group_plan.hpp) prepares the kernel
// and says what to build, code generation (group_codegen.hpp) builds it.
#include "jit/workgroup/group_loops.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "common/error_report.hpp"
#include "jit/workgroup/group_codegen.hpp"
#include "jit/workgroup/group_legality.hpp"
#include "jit/workgroup/group_plan.hpp"

namespace spvjit::detail {

namespace {

// One OpenCL work-item per group: the launch's local size (KernelFacts::group_per_item).
void require_one_item_groups(llvm::Function& kernel) {
  auto& ctx = kernel.getContext();
  auto* one = llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1));
  kernel.setMetadata("reqd_work_group_size", llvm::MDNode::get(ctx, {one, one, one}));
}

}  // namespace

GroupLoopsResult run_group_in_one_item(llvm::Function& kernel, const WorkGroup& group,
                                       const GroupLoopOptions& options) {
  GroupLoopsResult result;
  result.reason = group_loops_refusal(kernel, group);
  if (!result.reason.empty()) return result;
  GroupPlanResult planned = plan_group_loops(kernel, group, options);
  if (!planned.plan) {
    result.reason = planned.reason;
    result.grid_stride_refusals = std::move(planned.grid_stride_refusals);
    return result;
  }
  emit_group_loops(kernel, group, *planned.plan);
  require_one_item_groups(kernel);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  internal_assert(!llvm::verifyFunction(kernel, &out))
      << "the group-loop rewrite of kernel '" << kernel.getName().str()
      << "' left invalid IR: " << out.str();
  const GroupPlan& plan = *planned.plan;
  GroupLoopsResult done;
  done.applied = true;
  done.uniform_loops_cut = plan.uniform_loops_cut;
  done.regions = static_cast<unsigned>(plan.regions.size());
  done.slots = static_cast<unsigned>(plan.slots.size());
  done.slot_bytes = plan.slot_bytes;
  done.kept_once = static_cast<unsigned>(plan.uniform_across_barriers.size());
  done.grid_stride_loops = plan.grid_stride_loops;
  done.grid_stride_refusals = plan.grid_stride_refusals;
  return done;
}

}  // namespace spvjit::detail
