// The group-loop rewrite's code generation: jit/workgroup/group_codegen.hpp.
#include "jit/workgroup/group_codegen.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/error_report.hpp"
#include "ir/block_order.hpp"
#include "ir/work_item_builtins.hpp"
#include "jit/workgroup/group_legality.hpp"
#include "jit/workgroup/region_loops.hpp"

namespace spvjit::detail {

namespace {

// One region's loop nest while it is built.
struct RegionBuild {
  std::string tag;                      ///< "r<k>", the prefix of its names
  std::array<llvm::PHINode*, 3> ids{};  ///< the local id of each looped dimension
  std::array<llvm::BasicBlock*, 3> headers{};
  llvm::ValueToValueMapTy map;             ///< original values → the body's
  llvm::BasicBlock* body_entry = nullptr;  ///< inside the loops, before the cloned blocks
  llvm::BasicBlock* latch = nullptr;       ///< the innermost loop's: where every exit goes
  llvm::PHINode* next = nullptr;           ///< which exit, where there are several
  std::map<std::uint64_t, llvm::BasicBlock*> exit_blocks;  ///< by barrier index or ret_code
  std::vector<llvm::BasicBlock*> clones;
  /// Uniform values the region defines: slot, and the value after the loops.
  std::vector<std::pair<llvm::AllocaInst*, llvm::PHINode*>> written;
  RegionNest nest;
};

class GroupEmitter {
 public:
  GroupEmitter(llvm::Function& kernel, const WorkGroup& group, const GroupPlan& plan)
      : f_(kernel),
        m_(*kernel.getParent()),
        ctx_(kernel.getContext()),
        group_(group),
        plan_(plan) {}

  void run() {
    std::vector<llvm::BasicBlock*> originals;
    for (auto& block : f_) originals.push_back(&block);
    // The values no region owns live in a block no region reaches: what the work-item functions
    // and private slots become differs per region (the clone's loop variables).
    holding_ = llvm::BasicBlock::Create(ctx_, "group.placeholders", &f_);
    entry_ = llvm::BasicBlock::Create(ctx_, "group.entry", &f_, &f_.getEntryBlock());
    llvm::IRBuilder<> b(entry_);
    emit_group_indices(b);
    emit_group_storage(b);
    emit_placeholders();
    replace_work_item_queries(b);
    // Each region's loop nest; the first block of region k is `heads_[k]`.
    for (std::size_t k = 0; k < plan_.regions.size(); ++k) {
      heads_.push_back(llvm::BasicBlock::Create(ctx_, "region" + std::to_string(k), &f_, holding_));
    }
    done_ = llvm::BasicBlock::Create(ctx_, "group.done", &f_, holding_);
    llvm::ReturnInst::Create(ctx_, done_);
    b.CreateBr(heads_[0]);
    for (std::size_t k = 0; k < plan_.regions.size(); ++k) emit_region(k, plan_.regions[k]);
    erase_templates(originals);
    tidy_nests();
  }

 private:
  llvm::Value* ask(llvm::IRBuilder<>& b, const char* name, unsigned d) {
    return builtin_call(b, m_, name, d);
  }

  // Per-group values: the group's index and its first global id.
  void emit_group_indices(llvm::IRBuilder<>& b) {
    for (unsigned d = 0; d < 3; ++d) {
      // One work-item per group: its global id is the group's index plus the launch's offset,
      // both in groups, as the original's is the group's first id plus its offset.
      group_index_[d] = ask(b, builtin::global_id, d);
      first_id_[d] = group_.size[d] == 1
                         ? group_index_[d]
                         : b.CreateMul(group_index_[d], b.getInt64(group_.size[d]), "group.first");
    }
  }

  // The original global size, asked once where the kernel asks for it (asking keeps a kernel
  // from running split with offsets: jit/spirv/offset_safety.hpp).
  llvm::Value* original_global_size(llvm::IRBuilder<>& b, unsigned d) {
    if (!global_size_[d]) {
      global_size_[d] =
          b.CreateMul(ask(b, builtin::global_size, d), b.getInt64(group_.size[d]), "global.size");
    }
    return global_size_[d];
  }

  // Each private slot made one per work-item; each uniform value kept across barriers one per
  // group. The originals move to the placeholders' block, for the regions' maps.
  void emit_group_storage(llvm::IRBuilder<>& b) {
    llvm::Type* i8 = llvm::Type::getInt8Ty(ctx_);
    for (const auto& slot : plan_.slots) {
      auto* storage = b.CreateAlloca(llvm::ArrayType::get(i8, slot.stride * group_.total()),
                                     nullptr, slot.original->getName() + ".group");
      storage->setAlignment(
          llvm::Align(std::max<std::uint64_t>(slot.original->getAlign().value(), 64)));
      slot.original->moveBefore(*holding_, holding_->end());
      slot_storage_.push_back(storage);
    }
    for (auto* value : plan_.uniform_across_barriers) {
      uniform_slots_.push_back(
          b.CreateAlloca(value->getType(), nullptr, value->getName() + ".group"));
    }
  }

  // A work-item's local and global ids: placeholders each region maps to its own loops' values.
  void emit_placeholders() {
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx_);
    llvm::Type* i32 = llvm::Type::getInt32Ty(ctx_);
    llvm::IRBuilder<> h(holding_);
    placeholder_ =
        llvm::Function::Create(llvm::FunctionType::get(i64, {i32}, false),
                               llvm::GlobalValue::PrivateLinkage, "__spvjit_group_placeholder", m_);
    for (unsigned d = 0; d < 3; ++d) {
      local_id_[d] = h.CreateCall(placeholder_, {h.getInt32(d)}, "local.id");
      global_id_[d] = h.CreateCall(placeholder_, {h.getInt32(3 + d)}, "global.id");
    }
    h.CreateUnreachable();
  }

  // What a work-item function of dimension `d` is in the rewrite; null past the third dimension.
  llvm::Value* query_value(llvm::IRBuilder<>& b, llvm::CallInst& call, WorkItemQuery q,
                           unsigned d) {
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx_);
    switch (q) {
      case WorkItemQuery::LocalId:
        return d < 3 ? local_id_[d] : nullptr;
      case WorkItemQuery::GlobalId:
        return d < 3 ? global_id_[d] : nullptr;
      case WorkItemQuery::LocalSize:
      case WorkItemQuery::EnqueuedLocalSize:
        return llvm::ConstantInt::get(i64, d < 3 ? group_.size[d] : 1);
      case WorkItemQuery::GlobalSize:
        return d < 3 ? original_global_size(b, d) : nullptr;
      // The group's index is the work-item's global id: the same value unsplit, and the group's
      // own index when a split launch runs this group with an offset, where get_group_id would
      // count from the offset. So a kernel that asks for it may run split
      // (jit/spirv/offset_safety.hpp), as KernelAbstractions' dot does.
      case WorkItemQuery::GroupId:
        return d < 3 ? group_index_[d] : nullptr;
      // One work-item per group leaves the group count, the work dimension and the (absent)
      // offset what they were: asked once, in the entry, where every region sees them (they are
      // not kept across barriers).
      case WorkItemQuery::NumGroups:
      case WorkItemQuery::GlobalOffset:
      case WorkItemQuery::WorkDim: {
        auto*& asked = asked_once_[{call.getCalledFunction(), d}];
        if (!asked) asked = b.Insert(call.clone(), call.getName());
        return asked;
      }
      case WorkItemQuery::None:
        break;
    }
    return nullptr;
  }

  void replace_work_item_queries(llvm::IRBuilder<>& b) {
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx_);
    std::vector<llvm::CallInst*> queries;
    for (auto& block : f_) {
      for (auto& inst : block) {
        if (work_item_query(inst) != WorkItemQuery::None)
          queries.push_back(llvm::cast<llvm::CallInst>(&inst));
      }
    }
    for (auto* call : queries) {
      if (call->getParent() == entry_) continue;  // the ones emit_group_indices made
      const WorkItemQuery q = work_item_query(*call);
      const unsigned d =
          q == WorkItemQuery::WorkDim
              ? 0
              : static_cast<unsigned>(
                    llvm::cast<llvm::ConstantInt>(call->getArgOperand(0))->getZExtValue());
      llvm::Value* v = query_value(b, *call, q, d);
      if (!v) {  // past the third dimension: ids 0, sizes and counts 1
        const bool id = q == WorkItemQuery::GlobalId || q == WorkItemQuery::LocalId ||
                        q == WorkItemQuery::GroupId;
        v = llvm::ConstantInt::get(i64, id ? 0 : 1);
      }
      if (v->getType() != call->getType()) {
        llvm::IRBuilder<> at(call);
        v = at.CreateZExtOrTrunc(v, call->getType());
      }
      call->replaceAllUsesWith(v);
      call->eraseFromParent();
    }
  }

  void emit_region(std::size_t k, const GroupRegion& region) {
    RegionBuild r;
    r.tag = "r" + std::to_string(k);
    llvm::IRBuilder<> b(heads_[k]);
    if (region.blocks.empty()) {  // two barriers in a row: nothing runs between them
      b.CreateBr(*region.exits.begin() + 1 < heads_.size() ? heads_[*region.exits.begin() + 1]
                                                           : done_);
      return;
    }
    open_loops(k, r, b);
    map_work_item(r, b);
    r.body_entry = b.GetInsertBlock();
    make_exits(k, r, region);
    clone_body(r, region);
    share_uniform_values(k, r);
    fold_phis_with_one_value(r);
    describe_nest(k, r, region);
    llvm::BasicBlock* after = close_loops(k, r);
    leave_group(r, region, after);
  }

  // Loops from the outermost dimension in: x innermost, so consecutive local ids of dimension 0
  // are consecutive iterations (the vectorizer's loop). Leaves `b` in the innermost header.
  void open_loops(std::size_t k, RegionBuild& r, llvm::IRBuilder<>& b) {
    llvm::BasicBlock* outer = heads_[k];
    for (int d = 2; d >= 0; --d) {
      if (d > 0 && group_.size[d] == 1) continue;
      auto* header = llvm::BasicBlock::Create(ctx_, r.tag + ".loop" + std::to_string(d), &f_,
                                              heads_[k]->getNextNode());
      b.CreateBr(header);
      // Keep the blocks in order: each new header after the previous one.
      header->moveAfter(b.GetInsertBlock());
      b.SetInsertPoint(header);
      r.ids[d] = b.CreatePHI(b.getInt64Ty(), 2, r.tag + ".id" + std::to_string(d));
      r.ids[d]->addIncoming(b.getInt64(0), outer);
      r.headers[d] = header;
      outer = header;
    }
  }

  // The body's first instructions: the work-item's linear id, its global ids, its slots.
  void map_work_item(RegionBuild& r, llvm::IRBuilder<>& b) {
    llvm::Value* linear = nullptr;
    std::uint64_t stride = 1;
    for (unsigned d = 0; d < 3; ++d) {
      if (r.ids[d]) {
        llvm::Value* term = stride == 1 ? r.ids[d] : b.CreateMul(r.ids[d], b.getInt64(stride));
        linear = linear ? b.CreateAdd(linear, term, r.tag + ".linear") : term;
      }
      stride *= group_.size[d];
    }
    for (unsigned d = 0; d < 3; ++d) {
      llvm::Value* id = r.ids[d] ? static_cast<llvm::Value*>(r.ids[d]) : b.getInt64(0);
      r.map[local_id_[d]] = id;
      r.map[global_id_[d]] = r.ids[d]
                                 ? b.CreateAdd(first_id_[d], id, r.tag + ".gid" + std::to_string(d))
                                 : first_id_[d];
    }
    for (std::size_t s = 0; s < plan_.slots.size(); ++s) {
      const GroupSlot& slot = plan_.slots[s];
      llvm::AllocaInst* storage = slot_storage_[s];
      llvm::Value* at = b.CreateMul(linear, b.getInt64(slot.stride));
      llvm::Value* bytes =
          b.CreateInBoundsGEP(storage->getAllocatedType(), storage, {b.getInt64(0), at});
      r.map[slot.original] =
          b.CreateBitCast(bytes, slot.original->getType(), slot.original->getName() + "." + r.tag);
    }
  }

  std::uint64_t return_code() const { return plan_.barriers.blocks.size(); }

  // The block a work-item leaving by `code` (a barrier's index, or return_code()) ends its
  // iteration in.
  llvm::BasicBlock* exit_block(RegionBuild& r, std::uint64_t code) {
    auto& block = r.exit_blocks[code];
    if (!block) {
      block = llvm::BasicBlock::Create(ctx_, r.tag + ".exit" + std::to_string(code), &f_, r.latch);
      llvm::BranchInst::Create(r.latch, block);
      if (r.next) r.next->addIncoming(llvm::ConstantInt::get(r.next->getType(), code), block);
    }
    return block;
  }

  // The latch of the innermost loop, where every exit of the body goes, and the exits to the
  // region's barriers.
  void make_exits(std::size_t k, RegionBuild& r, const GroupRegion& region) {
    r.latch = llvm::BasicBlock::Create(ctx_, r.tag + ".latch", &f_, heads_[k]);
    const std::size_t targets = region.exits.size() + (region.returns ? 1 : 0);
    internal_assert(targets > 0) << "region " << k << " ends nowhere";
    llvm::IRBuilder<> lb(r.latch);
    if (targets > 1) r.next = lb.CreatePHI(lb.getInt64Ty(), 2, r.tag + ".next");
    for (unsigned j : region.exits) r.map[plan_.barriers.blocks[j]] = exit_block(r, j);
  }

  // The body: the region's blocks, cloned, entered from `body_entry`.
  void clone_body(RegionBuild& r, const GroupRegion& region) {
    for (auto* block : region.blocks) {
      auto* clone = llvm::CloneBasicBlock(block, r.map, "." + r.tag, &f_);
      clone->moveBefore(r.latch);
      r.map[block] = clone;
      r.clones.push_back(clone);
    }
    for (auto* clone : r.clones) {
      for (auto& inst : *clone) {
        llvm::RemapInstruction(&inst, r.map,
                               llvm::RF_NoModuleLevelChanges | llvm::RF_IgnoreMissingLocals);
      }
    }
    llvm::SmallPtrSet<llvm::BasicBlock*, 32> clone_set(r.clones.begin(), r.clones.end());
    for (auto* clone : r.clones) {
      // Edges from outside the region (an earlier region's way in) are not taken here.
      for (auto it = clone->begin(); auto* phi = llvm::dyn_cast<llvm::PHINode>(&*it);) {
        ++it;
        for (unsigned i = phi->getNumIncomingValues(); i-- > 0;) {
          if (!clone_set.count(phi->getIncomingBlock(i))) phi->removeIncomingValue(i, false);
        }
        internal_assert(phi->getNumIncomingValues() > 0) << "a phi with no way in";
      }
      if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(clone->getTerminator())) {
        llvm::BranchInst::Create(exit_block(r, return_code()), clone);
        ret->eraseFromParent();
      }
    }
    llvm::IRBuilder<>(r.body_entry).CreateBr(llvm::cast<llvm::BasicBlock>(r.map[region.start]));
  }

  // The uses in the body of uniform value `value` (or of `clone`, the region's own definition of
  // it) that read what a work-item holds on entering their block.
  std::vector<llvm::Use*> uses_to_rewrite(const RegionBuild& r, llvm::Instruction* value,
                                          llvm::Value* clone) const {
    std::vector<llvm::Use*> uses;
    for (auto* block : r.clones) {
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
    return uses;
  }

  // Values the whole group shares across barriers: read once before the loops, each use in the
  // body the value a work-item holds there (the group's, or the one it made in this region), and
  // written back after the loops from the last work-item where the region defines them.
  void share_uniform_values(std::size_t k, RegionBuild& r) {
    llvm::IRBuilder<> pre(heads_[k]->getTerminator());
    for (std::size_t u = 0; u < plan_.uniform_across_barriers.size(); ++u) {
      llvm::Instruction* value = plan_.uniform_across_barriers[u];
      const bool defined_here = r.map.count(value) != 0;
      llvm::Value* clone = defined_here ? static_cast<llvm::Value*>(r.map[value]) : nullptr;
      std::vector<llvm::Use*> uses = uses_to_rewrite(r, value, clone);
      if (uses.empty() && !defined_here) continue;
      llvm::LoadInst* shared =
          pre.CreateLoad(value->getType(), uniform_slots_[u], value->getName() + ".in." + r.tag);
      llvm::SSAUpdater ssa;
      ssa.Initialize(value->getType(), value->getName());
      ssa.AddAvailableValue(r.body_entry, shared);
      if (clone) ssa.AddAvailableValue(llvm::cast<llvm::Instruction>(clone)->getParent(), clone);
      for (llvm::Use* use : uses) ssa.RewriteUse(*use);
      if (!defined_here) continue;
      llvm::PHINode* out = llvm::PHINode::Create(value->getType(), r.exit_blocks.size(),
                                                 value->getName() + ".out." + r.tag, r.latch);
      for (const auto& [code, stub] : r.exit_blocks) {
        out->addIncoming(ssa.GetValueAtEndOfBlock(stub), stub);
      }
      r.written.emplace_back(uniform_slots_[u], out);
    }
  }

  // A phi left with one way in (the others came from outside the region) is that value.
  static void fold_phis_with_one_value(RegionBuild& r) {
    for (auto* clone : r.clones) {
      for (auto it = clone->begin(); auto* phi = llvm::dyn_cast<llvm::PHINode>(&*it);) {
        ++it;
        if (llvm::Value* same = phi->hasConstantValue(); same && same != phi) {
          phi->replaceAllUsesWith(same);
          phi->eraseFromParent();
        }
      }
    }
  }

  // The nest for what runs after every region is built: its blocks so far (close_loops adds the
  // outer latches) and its clones of uniform instructions.
  void describe_nest(std::size_t k, RegionBuild& r, const GroupRegion& region) const {
    RegionNest& nest = r.nest;
    nest.head = heads_[k];
    nest.id0 = r.ids[0];
    for (auto* block : r.clones) nest.blocks.insert(block);
    for (const auto& [code, stub] : r.exit_blocks) nest.blocks.insert(stub);
    nest.blocks.insert(r.latch);
    for (auto* header : r.headers) {
      if (header) nest.blocks.insert(header);
    }
    for (auto* block : region.blocks) {
      for (auto& inst : *block) {
        if (!plan_.uniform.contains(&inst)) continue;
        const auto found = r.map.find(&inst);
        if (found == r.map.end()) continue;
        if (auto* copy = llvm::dyn_cast_or_null<llvm::Instruction>(
                static_cast<llvm::Value*>(found->second))) {
          if (copy->getParent()) nest.uniform.insert(copy);
        }
      }
    }
  }

  // Latches, innermost out; returns the block after the outermost loop.
  llvm::BasicBlock* close_loops(std::size_t k, RegionBuild& r) {
    llvm::BasicBlock* at = r.latch;
    for (unsigned d = 0; d < 3; ++d) {
      if (!r.ids[d]) continue;
      llvm::BasicBlock* block = at;
      if (block != r.latch) {
        block =
            llvm::BasicBlock::Create(ctx_, r.tag + ".latch" + std::to_string(d), &f_, heads_[k]);
        block->moveAfter(at);
        llvm::BranchInst::Create(block, at);  // `at` is the previous loop's exit
      }
      llvm::IRBuilder<> l(block);
      llvm::Value* step =
          l.CreateAdd(r.ids[d], l.getInt64(1), r.tag + ".step" + std::to_string(d), true, true);
      r.ids[d]->addIncoming(step, block);
      auto* after = llvm::BasicBlock::Create(ctx_, r.tag + ".after" + std::to_string(d), &f_);
      after->moveAfter(block);
      auto* last = llvm::cast<llvm::ICmpInst>(l.CreateICmpULT(step, l.getInt64(group_.size[d])));
      l.CreateCondBr(last, r.headers[d], after);
      if (d == 0) r.nest.last0 = last;
      r.nest.blocks.insert(block);
      if (d > 0) r.nest.blocks.insert(at);  // the previous loop's exit, inside this loop
      at = after;
    }
    return at;
  }

  // After the group: every work-item ended at the same barrier (or returned); go where the last
  // one went.
  void leave_group(RegionBuild& r, const GroupRegion& region, llvm::BasicBlock* after) {
    llvm::IRBuilder<> tail(after);
    for (const auto& [slot, value] : r.written) tail.CreateStore(value, slot);
    nests_.push_back(std::move(r.nest));
    auto target = [&](std::uint64_t code) {
      return code == return_code() ? done_ : heads_[code + 1];
    };
    if (!r.next) {
      tail.CreateBr(target(region.returns ? return_code() : *region.exits.begin()));
      return;
    }
    const std::size_t targets = region.exits.size() + (region.returns ? 1 : 0);
    auto* sw = tail.CreateSwitch(r.next, done_, static_cast<unsigned>(targets));
    for (unsigned j : region.exits)
      sw->addCase(llvm::ConstantInt::get(llvm::cast<llvm::IntegerType>(r.next->getType()), j),
                  target(j));
  }

  // The original blocks were the clones' templates only; they go, with the placeholders.
  void erase_templates(const std::vector<llvm::BasicBlock*>& originals) {
    for (auto* block : originals) block->dropAllReferences();
    holding_->dropAllReferences();
    for (auto* block : originals) block->eraseFromParent();
    holding_->eraseFromParent();  // the private slots and placeholders, unused now
    placeholder_->eraseFromParent();
  }

  void tidy_nests() {
    // SPIR-V wants the variables first in the first block, and every block after the blocks
    // that dominate it: reverse post-order.
    for (auto* storage : slot_storage_) storage->moveBefore(&*entry_->getFirstInsertionPt());
    for (auto* slot : uniform_slots_) slot->moveBefore(&*entry_->getFirstInsertionPt());
    order_blocks(f_);
    for (auto& nest : nests_) hoist_uniform_arithmetic(f_, nest);
    llvm::DominatorTree dominators(f_);
    for (auto& nest : nests_) narrow_to_guarded_items(nest, group_.size[0], dominators);
  }

  llvm::Function& f_;
  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
  const WorkGroup& group_;
  const GroupPlan& plan_;
  llvm::BasicBlock* entry_ = nullptr;
  llvm::BasicBlock* holding_ = nullptr;  ///< placeholders and the original slots
  llvm::BasicBlock* done_ = nullptr;
  llvm::Function* placeholder_ = nullptr;
  std::array<llvm::Value*, 3> first_id_{}, global_size_{}, group_index_{};
  std::array<llvm::Instruction*, 3> local_id_{}, global_id_{};
  std::map<std::pair<const llvm::Function*, unsigned>, llvm::Instruction*> asked_once_;
  std::vector<llvm::AllocaInst*> slot_storage_;   ///< per plan_.slots, one per work-item
  std::vector<llvm::AllocaInst*> uniform_slots_;  ///< per uniform_across_barriers, one per group
  std::vector<llvm::BasicBlock*> heads_;
  std::vector<RegionNest> nests_;
};

}  // namespace

void emit_group_loops(llvm::Function& kernel, const WorkGroup& group, const GroupPlan& plan) {
  GroupEmitter(kernel, group, plan).run();
}

}  // namespace spvjit::detail
