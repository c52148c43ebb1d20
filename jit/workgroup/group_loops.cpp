// The rewrite of jit/workgroup/group_loops.hpp, in five steps: refuse what it cannot run, cut
// every block at its barriers, move values live across a barrier to memory, give every private
// slot one copy per work-item, and emit each region as a loop nest over the local ids whose body
// is a clone of the blocks that region reaches.
#include "jit/workgroup/group_loops.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <array>
#include <map>
#include <set>
#include <vector>

#include "common/error_report.hpp"
#include "ir/block_order.hpp"
#include "jit/specialize.hpp"
#include "jit/workgroup/uniformity.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

// The OpenCL work-item functions, by their Itanium names (what the builder and specialize emit).
enum class Query {
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

Query query_of(llvm::StringRef name) {
  static const std::pair<const char*, Query> names[] = {
      {builtin::global_id, Query::GlobalId},
      {builtin::local_id, Query::LocalId},
      {builtin::group_id, Query::GroupId},
      {builtin::num_groups, Query::NumGroups},
      {builtin::local_size, Query::LocalSize},
      {builtin::enqueued_local_size, Query::EnqueuedLocalSize},
      {builtin::global_size, Query::GlobalSize},
      {builtin::global_offset, Query::GlobalOffset},
      {"_Z12get_work_dimv", Query::WorkDim}};
  for (const auto& [n, q] : names) {
    if (name == n) return q;
  }
  return Query::None;
}

// The work-item function `inst` calls, if it is a call of one.
Query query_of(const llvm::Instruction& inst) {
  const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst);
  const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee ? query_of(callee->getName()) : Query::None;
}

std::uint64_t items_of(const WorkGroup& group) {
  return group.size[0] * group.size[1] * group.size[2];
}

// Exactly barrier() and work_group_barrier(): the regions are cut at these.
bool is_barrier(llvm::StringRef name) { return builtin::is_group_barrier(name); }

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
      if (query_of(name) != Query::None || is_barrier(name) || is_collective(name)) return true;
      if (!callee->isDeclaration() && touches_work_items(*callee, seen)) return true;
    }
  }
  return false;
}

std::string refusal(llvm::Function& kernel, const WorkGroup& group) {
  if (items_of(group) == 0) return "its workgroup is empty";
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
      const llvm::Function* callee = call->getCalledFunction();
      if (!callee) return "calls through a pointer";
      const auto name = callee->getName();
      if (is_barrier(name)) {
        barrier = true;
        continue;
      }
      const Query q = query_of(name);
      if (q != Query::None) {
        if (q != Query::WorkDim && !llvm::isa<llvm::ConstantInt>(call->getArgOperand(0)))
          return "asks for a work-item function of a dimension known only at run time";
        continue;
      }
      if (is_collective(name)) return "calls '" + name.str() + "'";
      std::set<const llvm::Function*> seen{&kernel};
      if (!callee->isDeclaration() && touches_work_items(*callee, seen))
        return "calls '" + name.str() + "', which asks about work-items or waits at a barrier";
    }
  }
  if (!barrier) return "has no barrier";
  return {};
}

// Each barrier alone in a block that branches to the rest of its old block: that rest is where
// a region starts.
struct Barriers {
  std::vector<llvm::BasicBlock*> blocks;  ///< barrier j's block
  llvm::DenseMap<llvm::BasicBlock*, unsigned> index;
};

Barriers isolate_barriers(llvm::Function& kernel) {
  std::vector<llvm::CallInst*> calls;
  for (auto& block : kernel) {
    for (auto& inst : block) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
        if (call->getCalledFunction() && is_barrier(call->getCalledFunction()->getName()))
          calls.push_back(call);
      }
    }
  }
  Barriers out;
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

// One region: the blocks a work-item runs from `start` to the next barrier or the return, and
// the barriers (by index) it may end at.
struct Region {
  llvm::BasicBlock* start = nullptr;
  std::vector<llvm::BasicBlock*> blocks;  ///< reverse post-order is not needed: any order
  std::set<unsigned> exits;               ///< barrier indices; `returns` for the return
  bool returns = false;
};

Region region_from(llvm::BasicBlock* start, const Barriers& barriers) {
  Region r;
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

// A private slot of one work-item, made one per work-item of the group: `stride` bytes apart
// (the slot's size rounded up to its alignment) in one byte array.
struct GroupSlot {
  llvm::AllocaInst* original;
  llvm::AllocaInst* storage = nullptr;
  std::uint64_t stride = 0;
};

class Rewriter {
 public:
  Rewriter(llvm::Function& kernel, const WorkGroup& group)
      : f_(kernel), m_(*kernel.getParent()), ctx_(kernel.getContext()), group_(group) {}

  GroupLoopsResult run() {
    barriers_ = isolate_barriers(f_);
    starts_.insert(&f_.getEntryBlock());
    for (auto* b : barriers_.blocks) starts_.insert(b->getSingleSuccessor());
    uniform_ = uniform_instructions(f_, [](const llvm::CallBase& call) {
      const Query q = query_of(call);
      if (q == Query::None) return CallKind::Unknown;
      return q == Query::LocalId || q == Query::GlobalId ? CallKind::Varying : CallKind::Uniform;
    });
    recompute_values_live_across_barriers();
    demote_values_live_across_barriers();
    if (!collect_slots()) {
      return {false, "needs more than " + std::to_string(group_loops_max_storage_bytes / 1024) +
                         " KiB for its group's private values"};
    }
    emit();
    return {true, {}};
  }

 private:
  // Whether `v` can be computed again wherever it is used: a constant, an argument, a value the
  // group shares (kept once per group), a work-item function (asked again in each region), or
  // arithmetic of those, at most `budget` instructions in all.
  bool recomputable(const llvm::Value* v, unsigned& budget) const {
    const auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
    if (!inst) return llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::Constant>(v);
    if (uniform_.contains(inst) || query_of(*inst) != Query::None) return true;
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
    if (!inst || uniform_.contains(inst)) return v;
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
        if (inst.use_empty() || uniform_.contains(&inst) || query_of(inst) != Query::None) continue;
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

  void demote_values_live_across_barriers() {
    llvm::Instruction* alloca_point = &*f_.getEntryBlock().getFirstInsertionPt();
    // Demoting one value adds loads before its uses and a store after it, none of them live
    // across a barrier: one pass leaves none, the assertion below checks it.
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<llvm::Instruction*> live;
      for (auto& block : f_) {
        for (auto& inst : block) {
          if (llvm::isa<llvm::AllocaInst>(inst) || inst.use_empty()) continue;
          // The work-item functions are asked again in each region (its loops' ids).
          if (query_of(inst) != Query::None) continue;
          if (!live_into(inst, starts_)) continue;
          // A value the whole group shares is kept once per group (emit_region).
          if (uniform_.contains(&inst)) {
            if (pass == 0) uniform_cross_.push_back(&inst);
            continue;
          }
          live.push_back(&inst);
        }
      }
      internal_assert(pass == 0 || live.empty())
          << live.size() << " values still live across a barrier after demotion";
      for (auto* inst : live) llvm::DemoteRegToStack(*inst, false, alloca_point);
    }
  }

  bool collect_slots() {
    const auto& layout = m_.getDataLayout();
    const std::uint64_t items = items_of(group_);
    std::uint64_t total = 0;
    for (auto& inst : f_.getEntryBlock()) {
      auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst);
      if (!alloca) continue;
      const std::uint64_t size =
          layout.getTypeAllocSize(alloca->getAllocatedType()).getFixedSize() *
          llvm::cast<llvm::ConstantInt>(alloca->getArraySize())->getZExtValue();
      const std::uint64_t stride =
          align_up(std::max<std::uint64_t>(size, 1), alloca->getAlign().value());
      slots_.push_back({alloca, nullptr, stride});
      total += stride * items;
      if (total > group_loops_max_storage_bytes) return false;
    }
    return true;
  }

  void emit() {
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx_);
    llvm::Type* i32 = llvm::Type::getInt32Ty(ctx_);
    llvm::Type* i8 = llvm::Type::getInt8Ty(ctx_);
    // The values no region owns live in a block no region reaches: what the work-item functions
    // and private slots become differs per region (the clone's loop variables).
    auto* holding = llvm::BasicBlock::Create(ctx_, "group.placeholders", &f_);
    auto* entry = llvm::BasicBlock::Create(ctx_, "group.entry", &f_, &f_.getEntryBlock());
    llvm::IRBuilder<> b(entry);
    auto builtin = [&](const char* name, unsigned d) { return builtin_call(b, m_, name, d); };
    // Per-group values: the group's first global id, and the original global size where the
    // kernel asks for it (asking keeps a kernel from running split with offsets:
    // jit/spirv/offset_safety.hpp).
    std::array<llvm::Value*, 3> first_id{}, global_size{}, group_index{};
    for (unsigned d = 0; d < 3; ++d) {
      // One work-item per group: its global id is the group's index plus the launch's offset,
      // both in groups, as the original's is the group's first id plus its offset.
      group_index[d] = builtin(builtin::global_id, d);
      first_id[d] = group_.size[d] == 1
                        ? group_index[d]
                        : b.CreateMul(group_index[d], b.getInt64(group_.size[d]), "group.first");
    }
    auto original_global_size = [&](unsigned d) {
      if (!global_size[d]) {
        global_size[d] = b.CreateMul(builtin(builtin::global_size, d), b.getInt64(group_.size[d]),
                                     "global.size");
      }
      return global_size[d];
    };
    for (auto& slot : slots_) {
      slot.storage = b.CreateAlloca(llvm::ArrayType::get(i8, slot.stride * items_of(group_)),
                                    nullptr, slot.original->getName() + ".group");
      slot.storage->setAlignment(
          llvm::Align(std::max<std::uint64_t>(slot.original->getAlign().value(), 64)));
      slot.original->moveBefore(*holding, holding->end());
    }
    for (auto* value : uniform_cross_) {
      uniform_slots_.push_back(
          b.CreateAlloca(value->getType(), nullptr, value->getName() + ".group"));
    }
    // Work-item functions: those of a region's work-item become placeholders, the rest values.
    std::array<llvm::Instruction*, 3> local_id{}, global_id{};
    {
      llvm::IRBuilder<> h(holding);
      auto* placeholder_fn = llvm::Function::Create(llvm::FunctionType::get(i64, {i32}, false),
                                                    llvm::GlobalValue::PrivateLinkage,
                                                    "__spvjit_group_placeholder", m_);
      for (unsigned d = 0; d < 3; ++d) {
        local_id[d] = h.CreateCall(placeholder_fn, {h.getInt32(d)}, "local.id");
        global_id[d] = h.CreateCall(placeholder_fn, {h.getInt32(3 + d)}, "global.id");
      }
      h.CreateUnreachable();
      placeholder_ = placeholder_fn;
    }
    std::map<std::pair<const llvm::Function*, unsigned>, llvm::Instruction*> asked_once;
    std::vector<llvm::CallInst*> queries;
    for (auto& block : f_) {
      for (auto& inst : block) {
        if (query_of(inst) != Query::None) queries.push_back(llvm::cast<llvm::CallInst>(&inst));
      }
    }
    for (auto* call : queries) {
      if (call->getParent() == entry) continue;  // the ones emitted above
      const Query q = query_of(*call);
      const unsigned d =
          q == Query::WorkDim
              ? 0
              : static_cast<unsigned>(
                    llvm::cast<llvm::ConstantInt>(call->getArgOperand(0))->getZExtValue());
      llvm::Value* v = nullptr;
      llvm::Type* type = call->getType();
      switch (q) {
        case Query::LocalId:
          v = d < 3 ? local_id[d] : nullptr;
          break;
        case Query::GlobalId:
          v = d < 3 ? global_id[d] : nullptr;
          break;
        case Query::LocalSize:
        case Query::EnqueuedLocalSize:
          v = llvm::ConstantInt::get(i64, d < 3 ? group_.size[d] : 1);
          break;
        case Query::GlobalSize:
          v = d < 3 ? original_global_size(d) : nullptr;
          break;
        // The group's index is the work-item's global id: the same value unsplit, and the
        // group's own index when a split launch runs this group with an offset, where
        // get_group_id would count from the offset. So a kernel that asks for it may run split
        // (jit/spirv/offset_safety.hpp), as KernelAbstractions' dot does.
        case Query::GroupId:
          v = d < 3 ? group_index[d] : nullptr;
          break;
        // One work-item per group leaves the group count, the work dimension and the (absent)
        // offset what they were: asked once, in the entry, where every region sees them (they
        // are not kept across barriers).
        case Query::NumGroups:
        case Query::GlobalOffset:
        case Query::WorkDim: {
          auto*& asked = asked_once[{call->getCalledFunction(), d}];
          if (!asked) asked = b.Insert(call->clone(), call->getName());
          v = asked;
          break;
        }
        case Query::None:
          continue;
      }
      if (!v) {  // past the third dimension: ids 0, sizes and counts 1
        const bool id = q == Query::GlobalId || q == Query::LocalId || q == Query::GroupId;
        v = llvm::ConstantInt::get(i64, id ? 0 : 1);
      }
      if (v->getType() != type) {
        llvm::IRBuilder<> at(call);
        v = at.CreateZExtOrTrunc(v, type);
      }
      call->replaceAllUsesWith(v);
      call->eraseFromParent();
    }

    // The regions, found from the original blocks (the new entry is not among them).
    std::vector<llvm::BasicBlock*> originals;
    for (auto& block : f_) {
      if (&block != entry && &block != holding) originals.push_back(&block);
    }
    llvm::BasicBlock* start0 = originals.front();
    std::vector<Region> regions;
    regions.push_back(region_from(start0, barriers_));
    for (auto* barrier : barriers_.blocks) {
      regions.push_back(region_from(barrier->getSingleSuccessor(), barriers_));
    }
    // Each region's loop nest; the first block of region k is `heads[k]`.
    std::vector<llvm::BasicBlock*> heads(regions.size()), tails(regions.size());
    for (std::size_t k = 0; k < regions.size(); ++k) {
      heads[k] = llvm::BasicBlock::Create(ctx_, "region" + std::to_string(k), &f_, holding);
    }
    auto* done = llvm::BasicBlock::Create(ctx_, "group.done", &f_, holding);
    llvm::ReturnInst::Create(ctx_, done);
    b.CreateBr(heads[0]);
    for (std::size_t k = 0; k < regions.size(); ++k) {
      emit_region(k, regions[k], heads, done, local_id, global_id, first_id);
    }
    // The original blocks are clones' templates only now.
    for (auto* block : originals) block->dropAllReferences();
    holding->dropAllReferences();
    for (auto* block : originals) block->eraseFromParent();
    holding->eraseFromParent();  // the private slots and placeholders, unused now
    placeholder_->eraseFromParent();
    // SPIR-V wants the variables first in the first block, and every block after the blocks
    // that dominate it: reverse post-order.
    for (auto& slot : slots_) slot.storage->moveBefore(&*entry->getFirstInsertionPt());
    for (auto* slot : uniform_slots_) slot->moveBefore(&*entry->getFirstInsertionPt());
    order_blocks(f_);
    for (auto& nest : nests_) hoist_uniform(nest);
    llvm::DominatorTree dominators(f_);
    for (auto& nest : nests_) narrow(nest, dominators);
  }

  // One region's loop nest, for what runs after every region is built.
  struct Nest {
    llvm::BasicBlock* head = nullptr;                   ///< before the loops: runs once per group
    llvm::PHINode* id0 = nullptr;                       ///< the local id of dimension 0
    llvm::ICmpInst* last0 = nullptr;                    ///< the innermost loop's `id0 + 1 < G0`
    llvm::SmallPtrSet<llvm::BasicBlock*, 32> blocks;    ///< the loops' blocks, headers to latches
    llvm::SmallPtrSet<llvm::Instruction*, 32> uniform;  ///< clones of uniform instructions
  };

  bool in_nest(const Nest& nest, const llvm::Value* v) const {
    const auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
    return inst && nest.blocks.contains(inst->getParent());
  }

  // The nest's uniform arithmetic (no memory, safe to run whatever the branches) moves before
  // its loops: computed once per group, and loop-invariant for what follows.
  void hoist_uniform(Nest& nest) {
    llvm::Instruction* before = nest.head->getTerminator();
    for (bool moved = true; moved;) {
      moved = false;
      for (llvm::BasicBlock* block : llvm::ReversePostOrderTraversal<llvm::Function*>(&f_)) {
        if (!nest.blocks.contains(block)) continue;
        for (auto it = block->begin(); it != block->end();) {
          llvm::Instruction& inst = *it++;
          if (!nest.uniform.contains(&inst) || llvm::isa<llvm::PHINode>(inst) ||
              inst.isTerminator() || inst.mayReadOrWriteMemory() ||
              !llvm::isSafeToSpeculativelyExecute(&inst)) {
            continue;
          }
          bool invariant = true;
          for (const llvm::Use& op : inst.operands())
            invariant = invariant && !in_nest(nest, op.get());
          if (!invariant) continue;
          inst.moveBefore(before);
          moved = true;
        }
      }
    }
  }

  // When every side effect of a work-item in the nest runs only below some `id0 < X` (X the same
  // for the whole group), the work-items at or past the largest X do nothing but leave by the
  // exit all take: the innermost loop stops there (at least one work-item runs, for the exit).
  // KernelAbstractions' tree reductions (`if lid < s`) then run s work-items per level, not G.
  void narrow(Nest& nest, const llvm::DominatorTree& dominators) {
    if (!nest.id0 || !nest.last0) return;
    llvm::IRBuilder<> b(nest.head->getTerminator());
    llvm::Type* i64 = b.getInt64Ty();
    const std::uint64_t g0 = group_.size[0];
    llvm::Value* bound = nullptr;
    auto candidate = [&](llvm::Value* x, bool is_signed) -> llvm::Value* {
      if (x->getType() != i64 || in_nest(nest, x)) return nullptr;
      if (is_signed) x = b.CreateSelect(b.CreateICmpSLT(x, b.getInt64(0)), b.getInt64(0), x);
      return b.CreateSelect(b.CreateICmpULT(x, b.getInt64(g0)), x, b.getInt64(g0));
    };
    // The bound a guard `edge` sets, or null when it is not of the form.
    auto guard_bound = [&](const llvm::BasicBlock* from,
                           const llvm::BasicBlock* to) -> llvm::Value* {
      const auto* br = llvm::dyn_cast<llvm::BranchInst>(from->getTerminator());
      if (!br || !br->isConditional() || br->getSuccessor(0) != to || br->getSuccessor(1) == to) {
        return nullptr;
      }
      auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(br->getCondition());
      if (!cmp) return nullptr;
      llvm::Value* lhs = cmp->getOperand(0);
      llvm::Value* rhs = cmp->getOperand(1);
      auto pred = cmp->getPredicate();
      if (rhs == nest.id0) {
        std::swap(lhs, rhs);
        pred = llvm::ICmpInst::getSwappedPredicate(pred);
      }
      if (lhs != nest.id0) return nullptr;
      switch (pred) {
        case llvm::ICmpInst::ICMP_ULT:
          return candidate(rhs, false);
        case llvm::ICmpInst::ICMP_SLT:
          return candidate(rhs, true);
        case llvm::ICmpInst::ICMP_EQ:
          if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(rhs)) {
            const std::int64_t v = c->getSExtValue();
            return b.getInt64(v < 0 ? 0 : v >= static_cast<std::int64_t>(g0) ? g0 : v + 1);
          }
          return nullptr;
        default:
          return nullptr;
      }
    };
    const llvm::BasicBlock* top = nest.id0->getParent();
    for (llvm::BasicBlock* block : nest.blocks) {
      for (llvm::Instruction& inst : *block) {
        if (!inst.mayHaveSideEffects()) continue;
        llvm::Value* found = nullptr;
        // Up the dominator tree to the loop's header: an edge that alone leads to `inst`.
        for (const auto* node = dominators.getNode(block); node && !found; node = node->getIDom()) {
          const llvm::BasicBlock* at = node->getBlock();
          if (at == top) break;
          const llvm::BasicBlock* pred = at->getSinglePredecessor();
          if (pred) found = guard_bound(pred, at);
        }
        // Not all guarded: the full loop (what was made above is dead, for the device's DCE).
        if (!found) return;
        bound = bound ? b.CreateSelect(b.CreateICmpUGT(bound, found), bound, found) : found;
      }
    }
    if (!bound) bound = b.getInt64(0);  // nothing to do: one work-item runs, for the exit
    bound =
        b.CreateSelect(b.CreateICmpEQ(bound, b.getInt64(0)), b.getInt64(1), bound, "region.items");
    nest.last0->setOperand(1, bound);
  }

  void emit_region(std::size_t k, const Region& region, const std::vector<llvm::BasicBlock*>& heads,
                   llvm::BasicBlock* done, const std::array<llvm::Instruction*, 3>& local_id,
                   const std::array<llvm::Instruction*, 3>& global_id,
                   const std::array<llvm::Value*, 3>& first_id) {
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx_);
    const std::string tag = "r" + std::to_string(k);
    // Loops from the outermost dimension in: x innermost, so consecutive local ids of dimension
    // 0 are consecutive iterations (the vectorizer's loop).
    llvm::BasicBlock* outer = heads[k];
    llvm::IRBuilder<> b(outer);
    if (region.blocks.empty()) {  // two barriers in a row: nothing runs between them
      b.CreateBr(*region.exits.begin() + 1 < heads.size() ? heads[*region.exits.begin() + 1]
                                                          : done);
      return;
    }
    std::array<llvm::PHINode*, 3> ids{};
    std::array<llvm::BasicBlock*, 3> headers{}, latches{};
    for (int d = 2; d >= 0; --d) {
      if (d > 0 && group_.size[d] == 1) continue;
      auto* header = llvm::BasicBlock::Create(ctx_, tag + ".loop" + std::to_string(d), &f_,
                                              heads[k]->getNextNode());
      b.CreateBr(header);
      // Keep the blocks in order: each new header after the previous one.
      header->moveAfter(b.GetInsertBlock());
      b.SetInsertPoint(header);
      ids[d] = b.CreatePHI(i64, 2, tag + ".id" + std::to_string(d));
      ids[d]->addIncoming(b.getInt64(0), outer);
      headers[d] = header;
      outer = header;
    }
    // The body's first block: the work-item's linear id, its global ids, its slots.
    llvm::Value* linear = nullptr;
    std::uint64_t stride = 1;
    for (unsigned d = 0; d < 3; ++d) {
      if (ids[d]) {
        llvm::Value* term = stride == 1 ? ids[d] : b.CreateMul(ids[d], b.getInt64(stride));
        linear = linear ? b.CreateAdd(linear, term, tag + ".linear") : term;
      }
      stride *= group_.size[d];
    }
    llvm::ValueToValueMapTy map;
    for (unsigned d = 0; d < 3; ++d) {
      llvm::Value* id = ids[d] ? static_cast<llvm::Value*>(ids[d]) : b.getInt64(0);
      map[local_id[d]] = id;
      map[global_id[d]] =
          ids[d] ? b.CreateAdd(first_id[d], id, tag + ".gid" + std::to_string(d)) : first_id[d];
    }
    for (const auto& slot : slots_) {
      llvm::Value* at = b.CreateMul(linear, b.getInt64(slot.stride));
      llvm::Value* bytes =
          b.CreateInBoundsGEP(slot.storage->getAllocatedType(), slot.storage, {b.getInt64(0), at});
      map[slot.original] =
          b.CreateBitCast(bytes, slot.original->getType(), slot.original->getName() + "." + tag);
    }
    llvm::BasicBlock* body_entry = b.GetInsertBlock();

    // The latch of the innermost loop: where every exit of the body goes.
    auto* latch = llvm::BasicBlock::Create(ctx_, tag + ".latch", &f_, heads[k]);
    llvm::PHINode* next = nullptr;
    const std::size_t targets = region.exits.size() + (region.returns ? 1 : 0);
    internal_assert(targets > 0) << "region " << k << " ends nowhere";
    llvm::IRBuilder<> lb(latch);
    if (targets > 1) next = lb.CreatePHI(i64, 2, tag + ".next");
    const std::uint64_t ret_code = barriers_.blocks.size();
    std::map<std::uint64_t, llvm::BasicBlock*> exit_blocks;
    auto exit_to = [&](std::uint64_t code) {
      auto& block = exit_blocks[code];
      if (!block) {
        block = llvm::BasicBlock::Create(ctx_, tag + ".exit" + std::to_string(code), &f_, latch);
        llvm::BranchInst::Create(latch, block);
        if (next) next->addIncoming(llvm::ConstantInt::get(i64, code), block);
      }
      return block;
    };
    for (unsigned j : region.exits) map[barriers_.blocks[j]] = exit_to(j);

    // The body: the region's blocks, cloned.
    std::vector<llvm::BasicBlock*> clones;
    for (auto* block : region.blocks) {
      auto* clone = llvm::CloneBasicBlock(block, map, "." + tag, &f_);
      clone->moveBefore(latch);
      map[block] = clone;
      clones.push_back(clone);
    }
    for (auto* clone : clones) {
      for (auto& inst : *clone) {
        llvm::RemapInstruction(&inst, map,
                               llvm::RF_NoModuleLevelChanges | llvm::RF_IgnoreMissingLocals);
      }
    }
    llvm::SmallPtrSet<llvm::BasicBlock*, 32> clone_set(clones.begin(), clones.end());
    for (auto* clone : clones) {
      // Edges from outside the region (an earlier region's way in) are not taken here.
      for (auto it = clone->begin(); auto* phi = llvm::dyn_cast<llvm::PHINode>(&*it);) {
        ++it;
        for (unsigned i = phi->getNumIncomingValues(); i-- > 0;) {
          if (!clone_set.count(phi->getIncomingBlock(i))) phi->removeIncomingValue(i, false);
        }
        internal_assert(phi->getNumIncomingValues() > 0) << "a phi with no way in";
      }
      if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(clone->getTerminator())) {
        llvm::BranchInst::Create(exit_to(ret_code), clone);
        ret->eraseFromParent();
      }
    }
    llvm::IRBuilder<>(body_entry).CreateBr(llvm::cast<llvm::BasicBlock>(map[region.start]));

    // Values the whole group shares across barriers: read once before the loops, each use in the
    // body the value a work-item holds there (the group's, or the one it made in this region),
    // and written back after the loops from the last work-item where the region defines them.
    std::vector<std::pair<llvm::AllocaInst*, llvm::PHINode*>> written;
    llvm::IRBuilder<> pre(heads[k]->getTerminator());
    for (std::size_t u = 0; u < uniform_cross_.size(); ++u) {
      llvm::Instruction* value = uniform_cross_[u];
      const bool defined_here = map.count(value) != 0;
      llvm::Value* clone = defined_here ? static_cast<llvm::Value*>(map[value]) : nullptr;
      std::vector<llvm::Use*> uses;
      for (auto* block : clones) {
        for (auto& inst : *block) {
          for (llvm::Use& op : inst.operands()) {
            if (op.get() != value && (!clone || op.get() != clone)) continue;
            // After its definition in its own block the clone is already what the use reads.
            if (clone && inst.getParent() == llvm::cast<llvm::Instruction>(clone)->getParent() &&
                !llvm::isa<llvm::PHINode>(inst)) {
              continue;
            }
            uses.push_back(&op);
          }
        }
      }
      if (uses.empty() && !defined_here) continue;
      llvm::LoadInst* shared =
          pre.CreateLoad(value->getType(), uniform_slots_[u], value->getName() + ".in." + tag);
      llvm::SSAUpdater ssa;
      ssa.Initialize(value->getType(), value->getName());
      ssa.AddAvailableValue(body_entry, shared);
      if (clone) ssa.AddAvailableValue(llvm::cast<llvm::Instruction>(clone)->getParent(), clone);
      for (llvm::Use* use : uses) ssa.RewriteUse(*use);
      if (!defined_here) continue;
      llvm::PHINode* out = llvm::PHINode::Create(value->getType(), exit_blocks.size(),
                                                 value->getName() + ".out." + tag, latch);
      for (const auto& [code, stub] : exit_blocks) {
        out->addIncoming(ssa.GetValueAtEndOfBlock(stub), stub);
      }
      written.emplace_back(uniform_slots_[u], out);
    }
    // A phi left with one way in (the others came from outside the region) is that value.
    for (auto* clone : clones) {
      for (auto it = clone->begin(); auto* phi = llvm::dyn_cast<llvm::PHINode>(&*it);) {
        ++it;
        if (llvm::Value* same = phi->hasConstantValue(); same && same != phi) {
          phi->replaceAllUsesWith(same);
          phi->eraseFromParent();
        }
      }
    }
    Nest nest;
    nest.head = heads[k];
    nest.id0 = ids[0];
    for (auto* block : clones) nest.blocks.insert(block);
    for (const auto& [code, stub] : exit_blocks) nest.blocks.insert(stub);
    nest.blocks.insert(latch);
    for (auto* header : headers) {
      if (header) nest.blocks.insert(header);
    }
    for (auto* block : region.blocks) {
      for (auto& inst : *block) {
        if (!uniform_.contains(&inst)) continue;
        const auto found = map.find(&inst);
        if (found == map.end()) continue;
        if (auto* copy = llvm::dyn_cast_or_null<llvm::Instruction>(
                static_cast<llvm::Value*>(found->second))) {
          if (copy->getParent()) nest.uniform.insert(copy);
        }
      }
    }

    // Latches, innermost out.
    llvm::BasicBlock* at = latch;
    for (unsigned d = 0; d < 3; ++d) {
      if (!ids[d]) continue;
      llvm::BasicBlock* block = at;
      if (block != latch) {
        block = llvm::BasicBlock::Create(ctx_, tag + ".latch" + std::to_string(d), &f_, heads[k]);
        block->moveAfter(at);
        llvm::BranchInst::Create(block, at);  // `at` is the previous loop's exit
      }
      llvm::IRBuilder<> l(block);
      llvm::Value* step =
          l.CreateAdd(ids[d], l.getInt64(1), tag + ".step" + std::to_string(d), true, true);
      ids[d]->addIncoming(step, block);
      auto* after = llvm::BasicBlock::Create(ctx_, tag + ".after" + std::to_string(d), &f_);
      after->moveAfter(block);
      auto* last = llvm::cast<llvm::ICmpInst>(l.CreateICmpULT(step, l.getInt64(group_.size[d])));
      l.CreateCondBr(last, headers[d], after);
      if (d == 0) nest.last0 = last;
      nest.blocks.insert(block);
      if (d > 0) nest.blocks.insert(at);  // the previous loop's exit, inside this loop
      latches[d] = block;
      at = after;
    }
    // After the group: every work-item ended at the same barrier (or returned); go where the
    // last one went.
    llvm::IRBuilder<> tail(at);
    for (const auto& [slot, value] : written) tail.CreateStore(value, slot);
    nests_.push_back(std::move(nest));
    auto target = [&](std::uint64_t code) { return code == ret_code ? done : heads[code + 1]; };
    if (!next) {
      tail.CreateBr(target(region.returns ? ret_code : *region.exits.begin()));
    } else {
      auto* sw = tail.CreateSwitch(next, done, static_cast<unsigned>(targets));
      for (unsigned j : region.exits)
        sw->addCase(llvm::ConstantInt::get(llvm::cast<llvm::IntegerType>(i64), j), target(j));
    }
  }

  llvm::Function& f_;
  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
  const WorkGroup& group_;
  Barriers barriers_;
  llvm::SmallPtrSet<llvm::BasicBlock*, 16> starts_;
  std::vector<GroupSlot> slots_;
  llvm::Function* placeholder_ = nullptr;
  llvm::DenseSet<const llvm::Value*> uniform_;     ///< of the kernel as isolate_barriers left it
  std::vector<llvm::Instruction*> uniform_cross_;  ///< uniform values live across a barrier
  std::vector<llvm::AllocaInst*> uniform_slots_;   ///< one per group for each of them
  std::vector<Nest> nests_;
};

void run_group_reqd_size(llvm::Function& kernel) {
  auto& ctx = kernel.getContext();
  auto* one = llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1));
  kernel.setMetadata("reqd_work_group_size", llvm::MDNode::get(ctx, {one, one, one}));
}

}  // namespace

GroupLoopsResult run_group_in_one_item(llvm::Function& kernel, const WorkGroup& group) {
  if (std::string why = refusal(kernel, group); !why.empty()) return {false, why};
  GroupLoopsResult result = Rewriter(kernel, group).run();
  if (!result.applied) return result;
  run_group_reqd_size(kernel);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  internal_assert(!llvm::verifyFunction(kernel, &out))
      << "the group-loop rewrite of kernel '" << kernel.getName().str()
      << "' left invalid IR: " << out.str();
  return result;
}

}  // namespace spvjit::detail
