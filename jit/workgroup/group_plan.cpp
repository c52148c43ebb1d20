// The group-loop rewrite's preparation and plan: jit/workgroup/group_plan.hpp.
#include "jit/workgroup/group_plan.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>

#include "common/error_report.hpp"
#include "ir/analysis/divergence.hpp"
#include "ir/analysis/synchronizing.hpp"
#include "jit/workgroup/grid_stride.hpp"
#include "jit/workgroup/group_legality.hpp"
#include "jit/workgroup/group_loops.hpp"
#include "jit/workgroup/uniform_loops.hpp"

namespace spvjit::detail {

namespace {

GroupBarriers isolate_barriers(llvm::Function& kernel) {
  std::vector<llvm::CallInst*> calls;
  for (auto& block : kernel) {
    for (auto& inst : block) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
        if (waits(*call, Waiting::GroupBarrier)) calls.push_back(call);
      }
    }
  }
  GroupBarriers out;
  for (auto* call : calls) {
    llvm::BasicBlock* block = call->getParent();
    // Alone in its block, without phis: a barrier's block is never run after the rewrite.
    if (call != &block->front()) block = block->splitBasicBlock(call, "barrier");
    block->splitBasicBlock(call->getNextNode(), "after.barrier");
    out.index[block] = static_cast<unsigned>(out.blocks.size());
    out.blocks.push_back(block);
  }
  return out;
}

// Whether `v` is live where some region starts (then a work-item needs it after a barrier): the
// blocks it is live into, walked back from its uses to its definition.
bool live_into(const llvm::Instruction& v, const llvm::SmallPtrSetImpl<llvm::BasicBlock*>& starts) {
  const llvm::BasicBlock* def = v.getParent();
  llvm::SmallVector<const llvm::BasicBlock*, 16> work;
  for (const llvm::Use& use : v.uses()) {
    const auto* user = llvm::cast<llvm::Instruction>(use.getUser());
    const llvm::BasicBlock* at = user->getParent();
    if (const auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) {
      at = phi->getIncomingBlock(use);
      if (at == def) continue;  // live out of its own block only
      // Live out of `at`: live into it unless it is the definition's.
    } else if (at == def) {
      continue;  // used after it in its block
    }
    work.push_back(at);
  }
  llvm::SmallPtrSet<const llvm::BasicBlock*, 32> seen;
  while (!work.empty()) {
    const llvm::BasicBlock* block = work.pop_back_val();
    if (!seen.insert(block).second) continue;
    if (starts.count(const_cast<llvm::BasicBlock*>(block))) return true;
    for (const llvm::BasicBlock* pred : llvm::predecessors(block)) {
      if (pred != def) work.push_back(pred);
    }
  }
  return false;
}

GroupRegion region_from(llvm::BasicBlock* start, const GroupBarriers& barriers) {
  GroupRegion r;
  r.start = start;
  llvm::SmallPtrSet<llvm::BasicBlock*, 32> seen;
  llvm::SmallVector<llvm::BasicBlock*, 16> work{start};
  while (!work.empty()) {
    llvm::BasicBlock* block = work.pop_back_val();
    if (const auto it = barriers.index.find(block); it != barriers.index.end()) {
      r.exits.insert(it->second);
      continue;
    }
    if (!seen.insert(block).second) continue;
    r.blocks.push_back(block);
    if (llvm::isa<llvm::ReturnInst>(block->getTerminator())) r.returns = true;
    for (llvm::BasicBlock* next : llvm::successors(block)) work.push_back(next);
  }
  return r;
}

std::uint64_t align_up(std::uint64_t n, std::uint64_t a) { return (n + a - 1) / a * a; }

class Planner {
 public:
  Planner(llvm::Function& kernel, const WorkGroup& group) : f_(kernel), group_(group) {}

  GroupPlanResult run(const GroupLoopOptions& options) {
    GroupPlan plan;
    GridStrideMoves moves;
    if (options.cut_uniform_loops && options.grid_stride) {
      moves = move_grid_stride_loops(f_, group_);
    }
    plan.grid_stride_loops = static_cast<unsigned>(moves.versions.size());
    plan.grid_stride_refusals = moves.refusals;
    std::vector<llvm::CallInst*> cuts;
    if (options.cut_uniform_loops) cuts = cut_uniform_loops(f_);
    plan.uniform_loops_cut = static_cast<unsigned>(cuts.size() / 2);
    plan.barriers = isolate_barriers(f_);
    starts_.insert(&f_.getEntryBlock());
    for (auto* b : plan.barriers.blocks) starts_.insert(b->getSingleSuccessor());
    plan.uniform = uniform_instructions(f_);
    uniform_ = &plan.uniform;
    recompute_values_live_across_barriers();
    plan.uniform_across_barriers = demote_values_live_across_barriers();
    if (!collect_slots(plan.slots, plan.slot_bytes)) {
      undo_cuts(cuts);
      undo_grid_stride_moves(f_, moves);
      GroupPlanResult refused;
      refused.reason = "needs more than " + std::to_string(group_loops_max_storage_bytes / 1024) +
                       " KiB for its group's private values";
      refused.grid_stride_refusals = std::move(moves.refusals);
      return refused;
    }
    plan.regions.push_back(region_from(&f_.getEntryBlock(), plan.barriers));
    for (auto* barrier : plan.barriers.blocks) {
      plan.regions.push_back(region_from(barrier->getSingleSuccessor(), plan.barriers));
    }
    GroupPlanResult planned;
    planned.plan = std::move(plan);
    return planned;
  }

 private:
  bool uniform(const llvm::Value* v) const { return uniform_->contains(v); }

  // Whether `v` can be computed again wherever it is used: a constant, an argument, a value the
  // group shares (kept once per group), a work-item function (asked again in each region), or
  // arithmetic of those, at most `budget` instructions in all.
  bool recomputable(const llvm::Value* v, unsigned& budget) const {
    const auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
    if (!inst) return llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::Constant>(v);
    if (uniform(inst) || work_item_query(*inst) != WorkItemQuery::None) return true;
    if (budget == 0 || llvm::isa<llvm::PHINode>(inst) || inst->mayReadOrWriteMemory() ||
        !llvm::isSafeToSpeculativelyExecute(inst)) {
      return false;
    }
    if (!llvm::isa<llvm::BinaryOperator>(inst) && !llvm::isa<llvm::CastInst>(inst) &&
        !llvm::isa<llvm::CmpInst>(inst) && !llvm::isa<llvm::SelectInst>(inst) &&
        !llvm::isa<llvm::GetElementPtrInst>(inst)) {
      return false;
    }
    --budget;
    for (const llvm::Use& op : inst->operands()) {
      if (!recomputable(op.get(), budget)) return false;
    }
    return true;
  }

  // A copy of `v`'s computation before `at`; what the group shares is used as it is.
  llvm::Value* recompute(llvm::Value* v, llvm::Instruction* at,
                         llvm::DenseMap<llvm::Value*, llvm::Value*>& made) {
    auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
    if (!inst || uniform(inst)) return v;
    if (auto found = made.find(v); found != made.end()) return found->second;
    llvm::Instruction* copy = inst->clone();
    copy->setName(inst->getName() + ".again");
    for (llvm::Use& op : copy->operands()) op.set(recompute(op.get(), at, made));
    copy->insertBefore(at);
    made[v] = copy;
    return copy;
  }

  // Values of ids and shared values, live across a barrier (a bounds check's `lid < G`, an index
  // `lid + s`), are computed again after it instead of kept in a slot per work-item: no memory,
  // and the region's loop sees them as functions of its own ids (affine indices, hoistable
  // checks).
  void recompute_values_live_across_barriers() {
    std::vector<llvm::Instruction*> values;
    for (auto& block : f_) {
      for (auto& inst : block) {
        if (inst.use_empty() || uniform(&inst) || work_item_query(inst) != WorkItemQuery::None)
          continue;
        unsigned budget = 16;
        if (!live_into(inst, starts_) || !recomputable(&inst, budget)) continue;
        values.push_back(&inst);
      }
    }
    for (auto* value : values) {
      std::vector<llvm::Use*> uses;
      for (llvm::Use& use : value->uses()) {
        auto* user = llvm::cast<llvm::Instruction>(use.getUser());
        const auto* phi = llvm::dyn_cast<llvm::PHINode>(user);
        const llvm::BasicBlock* at = phi ? phi->getIncomingBlock(use) : user->getParent();
        if (at != value->getParent()) uses.push_back(&use);
      }
      for (llvm::Use* use : uses) {
        auto* user = llvm::cast<llvm::Instruction>(use->getUser());
        auto* phi = llvm::dyn_cast<llvm::PHINode>(user);
        llvm::Instruction* at = phi ? phi->getIncomingBlock(*use)->getTerminator() : user;
        llvm::DenseMap<llvm::Value*, llvm::Value*> made;
        use->set(recompute(value, at, made));
      }
    }
  }

  // The values still live across a barrier go to private slots, except the uniform ones, which
  // are returned: code generation keeps those once per group.
  std::vector<llvm::Instruction*> demote_values_live_across_barriers() {
    std::vector<llvm::Instruction*> uniform_across;
    llvm::Instruction* alloca_point = &*f_.getEntryBlock().getFirstInsertionPt();
    // Demoting one value adds loads before its uses and a store after it, none of them live
    // across a barrier: one pass leaves none, the assertion below checks it.
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<llvm::Instruction*> live;
      for (auto& block : f_) {
        for (auto& inst : block) {
          if (llvm::isa<llvm::AllocaInst>(inst) || inst.use_empty()) continue;
          // The work-item functions are asked again in each region (its loops' ids).
          if (work_item_query(inst) != WorkItemQuery::None) continue;
          if (!live_into(inst, starts_)) continue;
          if (uniform(&inst)) {
            if (pass == 0) uniform_across.push_back(&inst);
            continue;
          }
          live.push_back(&inst);
        }
      }
      internal_assert(pass == 0 || live.empty())
          << live.size() << " values still live across a barrier after demotion";
      for (auto* inst : live) llvm::DemoteRegToStack(*inst, false, alloca_point);
    }
    return uniform_across;
  }

  // The slots and their storage for the whole group; false past group_loops_max_storage_bytes.
  bool collect_slots(std::vector<GroupSlot>& slots, std::uint64_t& total) const {
    const auto& layout = f_.getParent()->getDataLayout();
    const std::uint64_t items = group_.total();
    total = 0;
    for (auto& inst : f_.getEntryBlock()) {
      auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst);
      if (!alloca) continue;
      const std::uint64_t size =
          layout.getTypeAllocSize(alloca->getAllocatedType()).getFixedSize() *
          llvm::cast<llvm::ConstantInt>(alloca->getArraySize())->getZExtValue();
      const std::uint64_t stride =
          align_up(std::max<std::uint64_t>(size, 1), alloca->getAlign().value());
      slots.push_back({alloca, stride});
      total += stride * items;
      if (total > group_loops_max_storage_bytes) return false;
    }
    return true;
  }

  llvm::Function& f_;
  const WorkGroup& group_;
  llvm::SmallPtrSet<llvm::BasicBlock*, 16> starts_;
  const llvm::DenseSet<const llvm::Value*>* uniform_ = nullptr;
};

}  // namespace

GroupPlanResult plan_group_loops(llvm::Function& kernel, const WorkGroup& group,
                                 const GroupLoopOptions& options) {
  return Planner(kernel, group).run(options);
}

}  // namespace spvjit::detail
