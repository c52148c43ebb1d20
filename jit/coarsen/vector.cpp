#include "jit/coarsen/vector.hpp"
#include "common/error_report.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <algorithm>
#include <cstring>

#include <llvm/ADT/DenseSet.h>

#include "ir/half_bits.hpp"
#include "ir/kernel_module.hpp"
#include "ir/work_item_builtins.hpp"
#include "jit/coarsen/math.hpp"
#include "spvjit/error.hpp"

namespace spvjit::detail {

namespace {

// The scalar elements a W-lane access covers: lane l's is pointer[first + l], or
// pointer[indices[l]] for a gather.
struct LaneAddress {
  llvm::Value* pointer = nullptr;
  llvm::Value* first = nullptr;
  llvm::Type* element = nullptr;
  llvm::Value* indices = nullptr;  ///< the W lanes' indices, for an address of Role::Gather
};

class Vectorizer {
 public:
  Vectorizer(llvm::Function& f, const CoarsenPlan& plan, const LaneMasks& masks, unsigned w,
             VectorMath math, const FastChecks& fast, bool index_fits,
             std::span<const unsigned> param_extents)
      : f_(f),
        plan_(plan),
        masks_(masks),
        width_(w),
        math_(math),
        fast_(fast),
        index_fits_(index_fits),
        param_extents_(param_extents) {
    llvm::IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
    g_ = f.getArg(f.arg_size() - 1);
    base_ = b.CreateMul(g_, b.getInt64(width_), "coarse.base", /*HasNUW=*/true);
  }

  void run() {
    for (auto* inst : plan_.order) {
      rewrite(inst, plan_.roles.at(inst));
      dead_.push_back(inst);
    }
    // Uniform loads and checks under a mask: done when any lane is active.
    for (auto& [inst, lanes] : masks_) {
      if (!plan_.roles.count(inst)) guard_uniform(inst, lanes.mask);
    }
    for (auto [phi, vector_phi] : phis_) {
      for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
        llvm::BasicBlock* from = phi->getIncomingBlock(k);
        llvm::IRBuilder<> b(from->getTerminator());
        vector_phi->addIncoming(vector_of(b, phi->getIncomingValue(k)), from);
      }
    }
    for (auto* d : dead_) d->replaceAllUsesWith(llvm::PoisonValue::get(d->getType()));
    for (auto* d : dead_) d->eraseFromParent();
    sink_lane_masks();
  }

  // Lane masks are computed where they are defined, but with the scalar tests of every_lane in
  // front, most are used only on the paths of partial masks. Each <W x i1> computation moves
  // (copied where several blocks use it) into the blocks that use it, users first, so that a
  // full vector never pays for the lane-by-lane comparisons. LLVM does not sink values used in
  // several blocks.
  void sink_lane_masks() {
    std::vector<llvm::Instruction*> masks;
    for (auto& bb : f_) {
      for (auto& i : bb) {
        auto* type = llvm::dyn_cast<llvm::FixedVectorType>(i.getType());
        if (type && type->getElementType()->isIntegerTy(1) &&
            llvm::isa<llvm::CmpInst, llvm::BinaryOperator, llvm::ShuffleVectorInst,
                      llvm::InsertElementInst>(i)) {
          masks.push_back(&i);
        }
      }
    }
    for (auto it = masks.rbegin(); it != masks.rend(); ++it) {
      llvm::Instruction* mask = *it;
      std::vector<llvm::BasicBlock*> blocks;
      for (auto& use : mask->uses()) {
        auto* user = llvm::cast<llvm::Instruction>(use.getUser());
        auto* phi = llvm::dyn_cast<llvm::PHINode>(user);
        auto* block = phi ? phi->getIncomingBlock(use) : user->getParent();
        if (block != mask->getParent() &&
            std::find(blocks.begin(), blocks.end(), block) == blocks.end()) {
          blocks.push_back(block);
        }
      }
      for (auto* block : blocks) {
        llvm::Instruction* first_use = block->getTerminator();
        for (auto& i : *block) {
          if (!llvm::isa<llvm::PHINode>(i) && llvm::is_contained(i.operands(), mask)) {
            first_use = &i;
            break;
          }
        }
        auto* copy = mask->clone();
        copy->insertBefore(first_use);
        mask->replaceUsesWithIf(copy, [&](llvm::Use& use) {
          auto* user = llvm::cast<llvm::Instruction>(use.getUser());
          auto* phi = llvm::dyn_cast<llvm::PHINode>(user);
          return (phi ? phi->getIncomingBlock(use) : user->getParent()) == block && user != copy;
        });
      }
      if (mask->use_empty()) mask->eraseFromParent();
    }
  }

 private:
  llvm::Type* vector_type(llvm::Type* element) const {
    return llvm::FixedVectorType::get(element, width_);
  }

  // Lane 0's value of a consecutive index, or a uniform value itself.
  llvm::Value* first_of(llvm::Value* v) const {
    auto it = firsts_.find(v);
    return it != firsts_.end() ? it->second : v;
  }

  // A varying value's vector, or a uniform value broadcast to every lane.
  llvm::Value* vector_of(llvm::IRBuilder<>& b, llvm::Value* v) {
    auto it = vectors_.find(v);
    if (it != vectors_.end()) return it->second;
    return b.CreateVectorSplat(width_, v);
  }

  llvm::Function* declare(llvm::Function* scalar, const std::string& name, llvm::Type* ret,
                          llvm::ArrayRef<llvm::Type*> params) {
    auto* type = llvm::FunctionType::get(ret, params, false);
    auto callee = f_.getParent()->getOrInsertFunction(name, type);
    auto* fn = llvm::cast<llvm::Function>(callee.getCallee());
    fn->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    fn->setAttributes(scalar->getAttributes());
    return fn;
  }

  llvm::Value* call(llvm::IRBuilder<>& b, llvm::Function* fn, llvm::ArrayRef<llvm::Value*> args) {
    auto* c = b.CreateCall(fn, args);
    c->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    return c;
  }

  void rewrite(llvm::Instruction* inst, Role role) {
    llvm::IRBuilder<> b(inst);
    switch (role) {
      case Role::Index: {
        index_values_.insert(inst);
        std::vector<llvm::Constant*> lanes;
        for (unsigned l = 0; l < width_; ++l) lanes.push_back(b.getInt64(l));
        vectors_[inst] = b.CreateAdd(b.CreateVectorSplat(width_, base_),
                                     llvm::ConstantVector::get(lanes), "coarse.lanes");
        firsts_[inst] = base_;
        return;
      }
      case Role::Offset: {
        // Index + uniform: the vector for arithmetic, and lane 0's value for addresses.
        auto* op = llvm::cast<llvm::BinaryOperator>(inst);
        vectors_[inst] = vector_value(b, inst);
        firsts_[inst] = b.CreateBinOp(op->getOpcode(), first_of(op->getOperand(0)),
                                      first_of(op->getOperand(1)));
        return;
      }
      case Role::InBounds:
        inst->replaceAllUsesWith(b.getTrue());
        return;
      case Role::Address: {
        auto* gep = llvm::cast<llvm::GetElementPtrInst>(inst);
        llvm::Type* element = gep->getResultElementType();
        auto* first =
            b.CreateInBoundsGEP(element, gep->getPointerOperand(), first_of(gep->getOperand(1)));
        const unsigned space = gep->getType()->getPointerAddressSpace();
        addresses_[inst] =
            b.CreateBitCast(first, llvm::PointerType::get(vector_type(element), space));
        lane_addresses_[inst] = {gep->getPointerOperand(), first_of(gep->getOperand(1)), element};
        return;
      }
      case Role::Gather: {
        auto* gep = llvm::cast<llvm::GetElementPtrInst>(inst);
        lane_addresses_[inst] = {gep->getPointerOperand(), nullptr, gep->getResultElementType(),
                                 vector_of(b, gep->getOperand(1))};
        return;
      }
      case Role::Store: {
        llvm::BasicBlock* block = inst->getParent();
        rewrite_store(b, inst);
        return store_lanes_inside(inst, block);
      }
      case Role::Check: {
        auto* c = llvm::cast<llvm::CallInst>(inst);
        note_straddle_path(c);
        llvm::Value* all_inside = all_lanes_inside(b, c, 0);
        if (masks_.count(inst)) {
          llvm::Value* mask = mask_of(b, inst);
          all_inside = or_else(
              b, all_inside, [&](llvm::IRBuilder<>& t) { return active_lanes_inside(t, c, mask); });
        }
        inst->replaceAllUsesWith(all_inside);
        return;
      }
      case Role::Report:
        return rewrite_report(b, llvm::cast<llvm::CallInst>(inst));
      case Role::LaneTest: {
        llvm::Value* condition = llvm::cast<llvm::CallInst>(inst)->getArgOperand(0);
        const bool every =
            llvm::cast<llvm::CallInst>(inst)->getCalledFunction()->getName() == every_lane_marker;
        inst->replaceAllUsesWith(every ? every_lane_of(b, condition)
                                       : b.CreateNot(any_of(b, vector_of(b, condition))));
        return;
      }
      case Role::Vector:
        vectors_[inst] = vector_value(b, inst);
        note_sure_all(b, inst);
        return;
    }
  }

  bool is_consecutive(llvm::Value* v) const { return firsts_.count(v) != 0; }
  // A value of its own in each lane: computed from the index, not consecutive.
  bool is_varying(llvm::Value* v) const { return vectors_.count(v) != 0 && !is_consecutive(v); }

  // Whether the dispatcher can test the check pair (index, extent) once for the work-item, so
  // that a fast body leaves it out: get_global_id(0) itself (all the work-item's lanes) or
  // another dimension's global id, against an i64 argument. Records the dispatcher's test.
  bool left_out(llvm::Value* index, llvm::Value* extent) {
    auto* arg = llvm::dyn_cast<llvm::Argument>(extent);
    if (fast_.covered.end == 0 || !arg || arg->getParent() != &f_ || arg == g_ ||
        !arg->getType()->isIntegerTy(64)) {
      return false;
    }
    const unsigned a = arg->getArgNo();
    if (!fast_.work_item_checks) {
      return index_values_.count(index) && a >= fast_.covered.first && a < fast_.covered.end;
    }
    if (index_values_.count(index)) {
      // The hidden extents are in fast_end already.
      if (a < fast_.covered.first || a >= fast_.covered.end) add_once(entry_.index_below, a);
      return true;
    }
    for (unsigned d = 1; d < 3; ++d) {
      if (builtin::is_query_call(index, builtin::global_id, d) &&
          index->getType()->isIntegerTy(64)) {
        add_once(entry_.id_below, std::pair{d, a});
        return true;
      }
    }
    return false;
  }
  template <class T>
  static void add_once(std::vector<T>& list, T item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
  }

  // Which of a check's (or report's) pairs from `first_pair` on a fast body leaves out: those
  // the dispatcher tests, and an array parameter's offset pair when its view's pairs are.
  std::vector<bool> left_out_pairs(llvm::CallInst* c, unsigned first_pair) {
    std::vector<bool> out;
    for (unsigned k = first_pair; k + 1 < c->arg_size(); k += 2) {
      out.push_back(left_out(c->getArgOperand(k), c->getArgOperand(k + 1)));
    }
    if (first_pair == 0 && !out.empty() && !out.back() && fast_.work_item_checks &&
        linear_pair_follows(c, out, fast_.shaped)) {
      out.back() = true;
    }
    if (std::find(out.begin(), out.end(), true) != out.end()) entry_.leaves_checks_out = true;
    return out;
  }

 public:
  FastEntry entry_;

 private:
  // Which lanes a check's (index, extent) pairs from `first_pair` on hold for, as <W x i1>.
  llvm::Value* lanes_inside(llvm::IRBuilder<>& b, llvm::CallInst* c, unsigned first_pair) {
    return and_over_pairs(
        b, c, first_pair, llvm::ConstantInt::getTrue(vector_type(b.getInt1Ty())),
        [&](llvm::Value* index, llvm::Value* extent) {
          return is_consecutive(index) || is_varying(index)
                     ? b.CreateICmpULT(vector_of(b, index), b.CreateVectorSplat(width_, extent))
                     : b.CreateVectorSplat(width_, b.CreateICmpULT(index, extent));
        });
  }

  // `all` AND test(index, extent) over a check's (index, extent) pairs from `first_pair` on,
  // but for the pairs the dispatcher tested once for the work-item (index_fits).
  template <class Test>
  llvm::Value* and_over_pairs(llvm::IRBuilder<>& b, llvm::CallInst* c, unsigned first_pair,
                              llvm::Value* all, Test test) {
    const std::vector<bool> out = left_out_pairs(c, first_pair);
    for (unsigned k = first_pair, j = 0; k + 1 < c->arg_size(); k += 2, ++j) {
      if (out[j] && index_fits_) continue;
      all = b.CreateAnd(all, test(c->getArgOperand(k), c->getArgOperand(k + 1)));
    }
    return all;
  }

  // A bounds check under a mask passes when every active lane is inside: inactive lanes (the
  // left neighbour of column 0 under `0 < col`) would not have made the access.
  llvm::Value* active_lanes_inside(llvm::IRBuilder<>& b, llvm::CallInst* c, llvm::Value* mask) {
    return b.CreateNot(any_of(b, b.CreateAnd(mask, b.CreateNot(lanes_inside(b, c, 0)))));
  }

  // `first || second()`, with `second` built only where `first` fails: the lane-by-lane test
  // of a mask costs more than the one-compare test it backs up. Splits the block at b's point.
  llvm::Value* or_else(llvm::IRBuilder<>& b, llvm::Value* first,
                       llvm::function_ref<llvm::Value*(llvm::IRBuilder<>&)> second) {
    llvm::Instruction* at = &*b.GetInsertPoint();
    auto* then_end = llvm::SplitBlockAndInsertIfThen(b.CreateNot(first), at, false);
    llvm::BasicBlock* head = then_end->getParent()->getSinglePredecessor();
    llvm::IRBuilder<> then(then_end);
    llvm::Value* backup = second(then);
    auto* result = llvm::PHINode::Create(first->getType(), 2, "", &at->getParent()->front());
    result->addIncoming(llvm::ConstantInt::getTrue(first->getType()), head);
    result->addIncoming(backup, then.GetInsertBlock());
    b.SetInsertPoint(at);
    return result;
  }

  // The mask an instruction acts under, as <W x i1>.
  llvm::Value* mask_of(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
    return vector_of(b, masks_.at(inst).mask);
  }

  // The lanes of `lanes` combined pairwise by `combine`, log2(W) rotations: lane 0 holds the
  // result.
  template <class Combine>
  llvm::Value* fold_lanes(llvm::IRBuilder<>& b, llvm::Value* lanes, Combine combine) {
    for (unsigned step = width_ / 2; step >= 1; step /= 2) {
      std::vector<int> rotated(width_);
      for (unsigned l = 0; l < width_; ++l) rotated[l] = static_cast<int>((l + step) % width_);
      lanes = combine(lanes, b.CreateShuffleVector(lanes, rotated));
    }
    return b.CreateExtractElement(lanes, std::uint64_t{0});
  }

  // Every lane, or any lane: halves and-ed (or-ed) together.
  llvm::Value* reduce_lanes(llvm::IRBuilder<>& b, llvm::Value* lanes, bool all) {
    return fold_lanes(b, lanes, [&](llvm::Value* x, llvm::Value* y) {
      return all ? b.CreateAnd(x, y) : b.CreateOr(x, y);
    });
  }
  llvm::Value* all_of(llvm::IRBuilder<>& b, llvm::Value* lanes) {
    return reduce_lanes(b, lanes, true);
  }

  // Whether every lane of the mask `inst` acts under is active: first the scalar test that
  // suffices for masks made of comparisons of consecutive indices (interior checks), then the
  // lanes themselves.
  llvm::Value* every_lane(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
    return every_lane_of(b, masks_.at(inst).mask);
  }
  llvm::Value* every_lane_of(llvm::IRBuilder<>& b, llvm::Value* mask) {
    llvm::Value* vector = vector_of(b, mask);
    if (llvm::Value* sure = sure_all(mask)) {
      return or_else(b, sure, [&](llvm::IRBuilder<>& t) { return all_of(t, vector); });
    }
    return all_of(b, vector);
  }

  // A scalar that, when true, shows every lane of the i1 value `v` true (null: none known).
  llvm::Value* sure_all(llvm::Value* v) const {
    if (!vectors_.count(v)) return v->getType()->isIntegerTy(1) ? v : nullptr;  // uniform
    auto it = sure_all_.find(v);
    return it != sure_all_.end() ? it->second : nullptr;
  }

  // Records sure_all for a comparison of a consecutive index with a uniform value, and for and/or
  // of values that have one. Lanes first .. first+W-1 satisfy an order comparison with a uniform
  // bound when the first and last do (the values between them lie between them) and the lanes
  // do not wrap around.
  void note_sure_all(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
    if (auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(inst)) {
      llvm::Value* x = cmp->getOperand(0);
      llvm::Value* bound = cmp->getOperand(1);
      auto predicate = cmp->getPredicate();
      if (!is_consecutive(x)) {
        std::swap(x, bound);
        predicate = llvm::CmpInst::getSwappedPredicate(predicate);
      }
      if (!is_consecutive(x) || vectors_.count(bound) || !cmp->isRelational()) return;
      llvm::Value* first = first_of(x);
      llvm::Value* last = b.CreateAdd(first, llvm::ConstantInt::get(first->getType(), width_ - 1));
      llvm::Value* no_wrap =
          cmp->isSigned() ? b.CreateICmpSLE(first, last) : b.CreateICmpULE(first, last);
      sure_all_[inst] = b.CreateAnd(no_wrap, b.CreateAnd(b.CreateICmp(predicate, first, bound),
                                                         b.CreateICmp(predicate, last, bound)));
      return;
    }
    auto* op = llvm::dyn_cast<llvm::BinaryOperator>(inst);
    if (!op || !op->getType()->isIntegerTy(1)) return;
    llvm::Value* left = sure_all(op->getOperand(0));
    llvm::Value* right = sure_all(op->getOperand(1));
    if (op->getOpcode() == llvm::Instruction::And && left && right) {
      sure_all_[inst] = b.CreateAnd(left, right);
    } else if (op->getOpcode() == llvm::Instruction::Or && (left || right)) {
      sure_all_[inst] = left && right ? b.CreateOr(left, right) : (left ? left : right);
    }
  }
  llvm::Value* any_of(llvm::IRBuilder<>& b, llvm::Value* lanes) {
    return reduce_lanes(b, lanes, false);
  }

  // Lane l's element: pointer + first + l, without `inbounds` (an inactive lane's address may
  // lie outside the buffer).
  llvm::Value* lane_address(llvm::IRBuilder<>& b, const LaneAddress& a, llvm::Value* lane) {
    if (a.indices)
      return b.CreateGEP(a.element, a.pointer, b.CreateExtractElement(a.indices, lane));
    return b.CreateGEP(a.element, a.pointer, b.CreateAdd(a.first, lane));
  }

  bool is_gather(llvm::Value* address) const {
    auto found = lane_addresses_.find(address);
    return found != lane_addresses_.end() && found->second.indices;
  }

  // A gather's W elements: one load per lane (lanes outside the mask, where there is one, are
  // not read and give 0).
  llvm::Value* gather(llvm::IRBuilder<>& b, llvm::LoadInst* load) {
    const LaneAddress lanes = lane_addresses_.lookup(load->getPointerOperand());
    if (masks_.count(load)) {
      llvm::Value* v = load_lanes(load, mask_of(b, load), lanes, load->getAlign());
      b.SetInsertPoint(load);
      return v;
    }
    llvm::Value* v = llvm::PoisonValue::get(vector_type(load->getType()));
    for (unsigned l = 0; l < width_; ++l) {
      llvm::Value* element = b.CreateAlignedLoad(
          lanes.element, lane_address(b, lanes, b.getInt64(l)), load->getAlign());
      v = b.CreateInsertElement(v, element, l);
    }
    return v;
  }

  // A scatter: one store per (active) lane, in lane order as the work-items would.
  void scatter(llvm::IRBuilder<>& b, llvm::StoreInst* store) {
    const LaneAddress lanes = lane_addresses_.lookup(store->getPointerOperand());
    llvm::Value* value = vector_of(b, store->getValueOperand());
    if (masks_.count(store)) {
      store_lanes(store, mask_of(b, store), value, lanes, store->getAlign());
      b.SetInsertPoint(store);
      return;
    }
    for (unsigned l = 0; l < width_; ++l) {
      b.CreateAlignedStore(b.CreateExtractElement(value, l), lane_address(b, lanes, b.getInt64(l)),
                           store->getAlign());
    }
  }

  // The half elements at p[first ..] as i16s.
  LaneAddress half_lanes(llvm::IRBuilder<>& b, llvm::Value* pointer, llvm::Value* first) {
    const unsigned space = pointer->getType()->getPointerAddressSpace();
    return {b.CreateBitCast(pointer, llvm::PointerType::get(b.getInt16Ty(), space)), first,
            b.getInt16Ty()};
  }

  // Whether the bounds check guarding a load under a mask shows all W lanes inside the buffer
  // the load reads: its last pair is the element index and the buffer's extent (ir/bounds.hpp).
  llvm::Value* whole_vector_inside(llvm::IRBuilder<>& b, llvm::Instruction* load,
                                   llvm::Value* index) {
    llvm::CallInst* check = masks_.at(load).check;
    llvm::Value* extent = nullptr;
    if (check && check->arg_size() >= 2) {
      if (check->getArgOperand(check->arg_size() - 2) != index) return nullptr;
      extent = check->getArgOperand(check->arg_size() - 1);
    } else {
      extent = elements_reached(llvm::cast<llvm::LoadInst>(load)->getPointerOperand());
    }
    if (!extent || !is_consecutive(index)) return nullptr;
    llvm::Value* first = first_of(index);
    llvm::Value* last = b.CreateAdd(first, b.getInt64(width_ - 1));
    return b.CreateAnd(b.CreateICmpULT(first, extent), b.CreateICmpULT(last, extent));
  }

  // The hidden extent of the pointer argument `address` indexes (through GEPs), or null.
  llvm::Value* elements_reached(llvm::Value* address) const {
    // The access's GEP (one index, in elements), then the builder's GEP of the parameter at
    // element 0, of the same element type.
    auto* access = llvm::dyn_cast<llvm::GetElementPtrInst>(address);
    if (!access || access->getNumIndices() != 1) return nullptr;
    llvm::Value* base = access->getPointerOperand();
    if (auto* start = llvm::dyn_cast<llvm::GetElementPtrInst>(base)) {
      if (!start->hasAllZeroIndices() ||
          start->getSourceElementType() != access->getSourceElementType()) {
        return nullptr;
      }
      base = start->getPointerOperand();
    }
    auto* arg = llvm::dyn_cast<llvm::Argument>(base->stripPointerCasts());
    if (!arg || arg->getParent() != &f_ || arg->getArgNo() >= param_extents_.size()) {
      return nullptr;
    }
    const unsigned extent = param_extents_[arg->getArgNo()];
    return extent < f_.arg_size() ? f_.getArg(extent) : nullptr;
  }

  // A loop over the lanes before `end` (a block's last instruction), running `body` for the
  // active ones; skipped when none is. A loop, not W copies: this is the cold path of a partial
  // mask, and small code compiles faster.
  void for_active_lanes(llvm::Instruction* end, llvm::Value* mask,
                        llvm::function_ref<void(llvm::IRBuilder<>&, llvm::Value*)> body) {
    auto& ctx = f_.getContext();
    llvm::BasicBlock* before = end->getParent();
    llvm::BasicBlock* after = before->splitBasicBlock(end, "lanes.done");
    auto* header = llvm::BasicBlock::Create(ctx, "lanes", &f_, after);
    auto* active = llvm::BasicBlock::Create(ctx, "lane.active", &f_, after);
    auto* next = llvm::BasicBlock::Create(ctx, "lanes.next", &f_, after);
    before->getTerminator()->eraseFromParent();
    llvm::IRBuilder<> b(before);
    b.CreateCondBr(any_of(b, mask), header, after);
    b.SetInsertPoint(header);
    auto* lane = b.CreatePHI(b.getInt64Ty(), 2, "lane");
    b.CreateCondBr(b.CreateExtractElement(mask, lane), active, next);
    b.SetInsertPoint(active);
    body(b, lane);
    b.CreateBr(next);
    b.SetInsertPoint(next);
    auto* following = b.CreateAdd(lane, b.getInt64(1));
    lane->addIncoming(b.getInt64(0), before);
    lane->addIncoming(following, next);
    b.CreateCondBr(b.CreateICmpULT(following, b.getInt64(width_)), header, after);
  }

  // The private W-element buffer the partial loads of `element`s assemble their lanes in, in the
  // entry block: element stores and one vector load cost less than inserting lanes at a computed
  // position (a stack round trip each). One per element type for the whole body: each partial
  // load fills it and reads it back before the next begins. PoCL keeps every alloca of a kernel
  // once per work-item of the group on the stack of the thread that runs it (common/
  // group_stack.hpp): one buffer per load was 34 x 64 bytes per work-item for a 16-lane upwind
  // step, 8.9 MB for its 4096-item groups, and overflowed an 8 MiB stack (issue #46).
  llvm::AllocaInst* lane_buffer(llvm::Type* element) {
    llvm::AllocaInst*& buffer = lane_buffers_[element];
    if (!buffer) {
      llvm::IRBuilder<> b(&*f_.getEntryBlock().getFirstInsertionPt());
      buffer = b.CreateAlloca(vector_type(element), nullptr, "lanes.buffer");
    }
    return buffer;
  }

  // A W-element load under a mask: one vector load when every lane is active or the whole
  // vector lies inside the buffer, else one element per active lane (inactive lanes read 0).
  // Splits the block at `at`.
  llvm::Value* masked_load(llvm::IRBuilder<>& b, llvm::Instruction* at, llvm::Value* vector_address,
                           const LaneAddress& lanes, llvm::Align align,
                           llvm::Value* index = nullptr) {
    llvm::Value* mask = mask_of(b, at);
    llvm::Value* inside = index ? whole_vector_inside(b, at, index) : nullptr;
    llvm::Value* whole =
        inside ? or_else(b, inside, [&](llvm::IRBuilder<>& t) { return every_lane(t, at); })
               : every_lane(b, at);
    llvm::Instruction *whole_end = nullptr, *partial_end = nullptr;
    llvm::SplitBlockAndInsertIfThenElse(whole, at, &whole_end, &partial_end);
    llvm::IRBuilder<> w(whole_end);
    llvm::Value* vector = w.CreateAlignedLoad(vector_type(lanes.element), vector_address, align);
    llvm::Value* partial = load_lanes(partial_end, mask, lanes, align);
    auto* result =
        llvm::PHINode::Create(vector->getType(), 2, "masked.load", &at->getParent()->front());
    result->addIncoming(vector, whole_end->getParent());
    result->addIncoming(partial, partial_end->getParent());
    b.SetInsertPoint(at);
    return result;
  }

  // A W-element store under a mask: one vector store when every lane is active, else one
  // element per active lane (a store must not write the others: another work-item may).
  // Splits the block at `at`.
  void masked_store(llvm::IRBuilder<>& b, llvm::Instruction* at, llvm::Value* value,
                    llvm::Value* vector_address, const LaneAddress& lanes, llvm::Align align) {
    llvm::Value* mask = mask_of(b, at);
    llvm::Instruction *whole_end = nullptr, *partial_end = nullptr;
    llvm::SplitBlockAndInsertIfThenElse(every_lane(b, at), at, &whole_end, &partial_end);
    llvm::IRBuilder<>(whole_end).CreateAlignedStore(value, vector_address, align);
    store_run_or_lanes(partial_end, mask, value, lanes, align);
    b.SetInsertPoint(at);
  }

  // A partial mask's lanes as one run: its first lane and its length (i64), and whether the
  // active lanes are exactly those (a count below W). An interior test's mask is one run at a
  // row's ends.
  struct LaneRun {
    llvm::Value* first;
    llvm::Value* length;
    llvm::Value* is_run;
  };
  LaneRun lane_run(llvm::IRBuilder<>& b, llvm::Value* mask) {
    auto* i32 = b.getInt32Ty();
    std::vector<llvm::Constant*> numbers, ends;
    for (unsigned l = 0; l < width_; ++l) {
      numbers.push_back(llvm::ConstantInt::get(i32, l));
      ends.push_back(llvm::ConstantInt::get(i32, l + 1));
    }
    auto* lane = llvm::ConstantVector::get(numbers);
    auto* after_lane = llvm::ConstantVector::get(ends);
    auto min = [&](llvm::Value* x, llvm::Value* y) {
      return b.CreateSelect(b.CreateICmpULT(x, y), x, y);
    };
    auto max = [&](llvm::Value* x, llvm::Value* y) {
      return b.CreateSelect(b.CreateICmpUGT(x, y), x, y);
    };
    llvm::Value* first = fold_lanes(
        b, b.CreateSelect(mask, lane, b.CreateVectorSplat(width_, b.getInt32(width_))), min);
    llvm::Value* end = fold_lanes(
        b, b.CreateSelect(mask, after_lane, llvm::Constant::getNullValue(lane->getType())), max);
    llvm::Value* count =
        fold_lanes(b, b.CreateZExt(mask, lane->getType()),
                   [&](llvm::Value* x, llvm::Value* y) { return b.CreateAdd(x, y); });
    llvm::Value* is_run = b.CreateAnd(b.CreateICmpEQ(b.CreateSub(end, first), count),
                                      b.CreateICmpULT(count, b.getInt32(width_)));
    return {b.CreateZExt(first, b.getInt64Ty()), b.CreateZExt(count, b.getInt64Ty()), is_run};
  }

  // A partial store before `end`: when the active lanes are one run, in pieces of W/2, W/4, ..
  // 1 lanes (at most log2(W) stores, read from the lane buffer at the run's lane); else one
  // element per active lane.
  void store_run_or_lanes(llvm::Instruction* end, llvm::Value* mask, llvm::Value* value,
                          const LaneAddress& lanes, llvm::Align align) {
    if (value->getType() != vector_type(lanes.element)) {
      store_lanes(end, mask, value, lanes, align);
      return;
    }
    llvm::IRBuilder<> b(end);
    const LaneRun run = lane_run(b, mask);
    llvm::Instruction *run_end = nullptr, *lanes_end = nullptr;
    llvm::SplitBlockAndInsertIfThenElse(run.is_run, end, &run_end, &lanes_end);
    store_lanes(lanes_end, mask, value, lanes, align);
    auto* buffer = lane_buffer(lanes.element);
    llvm::IRBuilder<>(run_end).CreateStore(value, buffer);
    llvm::Value* at = run.first;
    const llvm::Align element_align(f_.getParent()->getDataLayout().getABITypeAlign(lanes.element));
    for (unsigned piece = width_ / 2; piece >= 1; piece /= 2) {
      llvm::IRBuilder<> p(run_end);
      llvm::Value* has = p.CreateICmpNE(p.CreateAnd(run.length, p.getInt64(piece)), p.getInt64(0));
      llvm::Instruction* store_at = llvm::SplitBlockAndInsertIfThen(has, run_end, false);
      llvm::IRBuilder<> s(store_at);
      llvm::Type* type =
          piece == 1 ? lanes.element
                     : static_cast<llvm::Type*>(llvm::FixedVectorType::get(lanes.element, piece));
      llvm::Value* from =
          s.CreateInBoundsGEP(buffer->getAllocatedType(), buffer, {s.getInt64(0), at});
      from = s.CreateBitCast(from, llvm::PointerType::get(type, 0));
      llvm::Value* to = lane_address(s, lanes, at);
      to = s.CreateBitCast(to,
                           llvm::PointerType::get(type, to->getType()->getPointerAddressSpace()));
      s.CreateAlignedStore(s.CreateAlignedLoad(type, from, element_align), to,
                           std::min(align, element_align));
      p.SetInsertPoint(run_end);
      at = p.CreateAdd(at, p.CreateSelect(has, p.getInt64(piece), p.getInt64(0)));
    }
  }

  // The elements of the lanes in `mask` loaded one by one before `end` (which ends up in the block
  // after the lanes); the other lanes read 0.
  llvm::Value* load_lanes(llvm::Instruction* end, llvm::Value* mask, const LaneAddress& lanes,
                          llvm::Align align) {
    auto* buffer = lane_buffer(lanes.element);
    llvm::IRBuilder<>(end).CreateStore(llvm::Constant::getNullValue(vector_type(lanes.element)),
                                       buffer);
    for_active_lanes(end, mask, [&](llvm::IRBuilder<>& l, llvm::Value* lane) {
      auto* element = l.CreateAlignedLoad(lanes.element, lane_address(l, lanes, lane), align);
      l.CreateStore(element,
                    l.CreateInBoundsGEP(buffer->getAllocatedType(), buffer, {l.getInt64(0), lane}));
    });
    return llvm::IRBuilder<>(end).CreateLoad(buffer->getAllocatedType(), buffer);
  }

  // `value`'s lanes in `mask` stored one element each, before `end`.
  void store_lanes(llvm::Instruction* end, llvm::Value* mask, llvm::Value* value,
                   const LaneAddress& lanes, llvm::Align align) {
    for_active_lanes(end, mask, [&](llvm::IRBuilder<>& l, llvm::Value* lane) {
      l.CreateAlignedStore(l.CreateExtractElement(value, lane), lane_address(l, lanes, lane),
                           align);
    });
  }

  // A checked store in the builder's shape (ir/bounds.hpp), outside any if-converted region:
  //   br %ok, %access, %out.of.bounds  ; access: the one store; both go on to one join
  // Its W-lane check fails when some of the lanes lie outside. The W work-items it stands for
  // would have stored the lanes before the end, then stopped at the report (a failing access ends
  // its work-item, jit/bounds/merge_bounds.hpp): the failure path stores those lanes. (A failing
  // load needs nothing: the work-item stops before using it.)
  struct StraddlePath {
    llvm::CallInst* check = nullptr;
    llvm::BasicBlock* outside = nullptr;
  };
  void note_straddle_path(llvm::CallInst* check) {
    for (auto* user : check->users()) {
      auto* br = llvm::dyn_cast<llvm::BranchInst>(user);
      if (!br || !br->isConditional() || br->getCondition() != check) continue;
      llvm::BasicBlock* access = br->getSuccessor(0);
      llvm::BasicBlock* outside = br->getSuccessor(1);
      llvm::BasicBlock* join = access->getSingleSuccessor();
      if (access == outside || access->getSinglePredecessor() != br->getParent() ||
          outside->getSinglePredecessor() != br->getParent() || !join ||
          outside->getSingleSuccessor() != join) {
        continue;
      }
      unsigned accesses = 0;
      for (auto& i : *access) {
        accesses += llvm::isa<llvm::CallInst>(i) || i.mayReadOrWriteMemory();
      }
      if (accesses == 1) straddle_paths_[access] = {check, outside};
    }
  }

  // On the failure path of a straddling store's check: the lanes inside (and active) stored one
  // element each. `block` is where the scalar store was.
  void store_lanes_inside(llvm::Instruction* store, llvm::BasicBlock* block) {
    auto path = straddle_paths_.find(block);
    if (path == straddle_paths_.end()) return;
    llvm::Instruction* at = &*path->second.outside->getFirstInsertionPt();
    llvm::IRBuilder<> b(at);
    llvm::Value* lanes = lanes_inside(b, path->second.check, 0);
    if (masks_.count(store)) lanes = b.CreateAnd(lanes, mask_of(b, store));
    auto* c = llvm::dyn_cast<llvm::CallInst>(store);  // vstore_half(v, i, p)
    llvm::Value* value = stored_vector(b, c ? c->getArgOperand(0) : store->getOperand(0), block);
    if (!value) return;
    if (!c) {
      auto* plain = llvm::cast<llvm::StoreInst>(store);
      store_lanes(at, lanes, value, lane_addresses_.lookup(plain->getPointerOperand()),
                  plain->getAlign());
      return;
    }
    store_lanes(at, lanes, float_to_half_bits(b, value),
                half_lanes(b, c->getArgOperand(2), first_of(c->getArgOperand(1))), llvm::Align(2));
  }

  // The stored value's vector at b, when the access block computed it: a cast there (a bool's
  // widening to its memory type) is made again. Null when it cannot be.
  llvm::Value* stored_vector(llvm::IRBuilder<>& b, llvm::Value* value, llvm::BasicBlock* block) {
    auto* defined = llvm::dyn_cast<llvm::Instruction>(value);
    if (!defined || defined->getParent() != block) return vector_of(b, value);
    auto* cast = llvm::dyn_cast<llvm::CastInst>(defined);
    auto* source = cast ? llvm::dyn_cast<llvm::Instruction>(cast->getOperand(0)) : nullptr;
    if (!cast || (source && source->getParent() == block)) return nullptr;
    return b.CreateCast(cast->getOpcode(), vector_of(b, cast->getOperand(0)),
                        vector_type(cast->getDestTy()));
  }

  // A uniform load or check under a mask. A check passes when no lane is active; anything else
  // runs only when a lane is (else it gives 0).
  void guard_uniform(llvm::Instruction* inst, llvm::Value* mask) {
    llvm::IRBuilder<> b(inst);
    llvm::Value* any = any_of(b, vector_of(b, mask));
    auto* call = llvm::dyn_cast<llvm::CallInst>(inst);
    if (call && call->getCalledFunction() &&
        call->getCalledFunction()->getName().startswith(marker_check)) {
      b.SetInsertPoint(inst->getNextNode());
      auto* passes = b.CreateOr(b.CreateNot(any), inst);
      inst->replaceUsesWithIf(passes, [&](llvm::Use& u) { return u.getUser() != passes; });
      return;
    }
    auto* then_end = llvm::SplitBlockAndInsertIfThen(any, inst, false);
    llvm::BasicBlock* from = then_end->getParent()->getSinglePredecessor();
    llvm::BasicBlock* after = inst->getParent();
    inst->moveBefore(then_end);
    if (inst->getType()->isVoidTy()) return;
    auto* merged = llvm::PHINode::Create(inst->getType(), 2, "", &after->front());
    inst->replaceAllUsesWith(merged);
    merged->addIncoming(inst, then_end->getParent());
    merged->addIncoming(llvm::Constant::getNullValue(inst->getType()), from);
  }

  // A bounds check of W lanes: a consecutive index passes when its first and last lane do (two
  // tests, so that a negative first lane cannot wrap into range), a uniform one as itself, a
  // varying one when each lane does.
  llvm::Value* all_lanes_inside(llvm::IRBuilder<>& b, llvm::CallInst* c, unsigned first_pair) {
    return and_over_pairs(
        b, c, first_pair, b.getTrue(), [&](llvm::Value* index, llvm::Value* extent) {
          if (is_varying(index)) {
            return all_of(
                b, b.CreateICmpULT(vector_of(b, index), b.CreateVectorSplat(width_, extent)));
          }
          if (!is_consecutive(index)) return b.CreateICmpULT(index, extent);
          llvm::Value* first = first_of(index);
          llvm::Value* last = b.CreateAdd(first, b.getInt64(width_ - 1));
          return b.CreateAnd(b.CreateICmpULT(first, extent), b.CreateICmpULT(last, extent));
        });
  }

  // The report of a failed W-lane check names the first lane that fails: the W lanes of a
  // consecutive index fail from lane (extent - first) on, a uniform index's all at once, a
  // varying index's where its lane does.
  // Under a mask, the first active lane that fails, reported only when a lane is active.
  void rewrite_report(llvm::IRBuilder<>& b, llvm::CallInst* c) {
    constexpr unsigned first_pair = 3;  // after the record, the site and the global index
    llvm::Value* lane = b.getInt64(width_ - 1);
    if (masks_.count(c)) {
      llvm::Value* mask = mask_of(b, c);
      b.SetInsertPoint(llvm::SplitBlockAndInsertIfThen(any_of(b, mask), c, false));
      llvm::Value* failing = b.CreateAnd(mask, b.CreateNot(lanes_inside(b, c, first_pair)));
      for (unsigned l = width_; l-- > 0;) {
        lane = b.CreateSelect(b.CreateExtractElement(failing, l), b.getInt64(l), lane);
      }
    }
    for (unsigned k = first_pair; !masks_.count(c) && k + 1 < c->arg_size(); k += 2) {
      llvm::Value* index = c->getArgOperand(k);
      llvm::Value* extent = c->getArgOperand(k + 1);
      llvm::Value* fails_from;
      if (is_consecutive(index)) {
        llvm::Value* first = first_of(index);
        fails_from = b.CreateSelect(b.CreateICmpULT(first, extent), b.CreateSub(extent, first),
                                    b.getInt64(0));
      } else if (is_varying(index)) {
        llvm::Value* outside =
            b.CreateICmpUGE(vector_of(b, index), b.CreateVectorSplat(width_, extent));
        fails_from = b.getInt64(width_);
        for (unsigned l = width_; l-- > 0;) {
          fails_from =
              b.CreateSelect(b.CreateExtractElement(outside, l), b.getInt64(l), fails_from);
        }
      } else {
        fails_from =
            b.CreateSelect(b.CreateICmpULT(index, extent), b.getInt64(width_), b.getInt64(0));
      }
      lane = b.CreateSelect(b.CreateICmpULT(fails_from, lane), fails_from, lane);
    }
    std::vector<llvm::Value*> args = {c->getArgOperand(0), c->getArgOperand(1),
                                      b.CreateAdd(first_of(c->getArgOperand(2)), lane)};
    for (unsigned k = first_pair; k < c->arg_size(); ++k) {
      llvm::Value* a = c->getArgOperand(k);
      const bool index = (k - first_pair) % 2 == 0;
      if (index && is_varying(a)) {
        args.push_back(b.CreateExtractElement(vector_of(b, a), lane));
      } else {
        args.push_back(index && is_consecutive(a) ? b.CreateAdd(first_of(a), lane) : a);
      }
    }
    b.CreateCall(c->getCalledFunction(), args);
  }

  void rewrite_store(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(inst);
        store && is_gather(store->getPointerOperand())) {
      return scatter(b, store);
    }
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(inst)) {
      auto* value = vector_of(b, store->getValueOperand());
      auto* address = addresses_.lookup(store->getPointerOperand());
      if (masks_.count(inst)) {
        masked_store(b, inst, value, address, lane_addresses_.lookup(store->getPointerOperand()),
                     store->getAlign());
        return;
      }
      b.CreateAlignedStore(value, address, store->getAlign());
      return;
    }
    // vstore_half(v, i, p): the rounding done here in integer vector code (PoCL's own
    // vstore_halfN writes other NaN bits), then one W x i16 store.
    auto* c = llvm::cast<llvm::CallInst>(inst);
    llvm::Value* bits = float_to_half_bits(b, vector_of(b, c->getArgOperand(0)));
    auto* ptr = c->getArgOperand(2);
    const unsigned space = ptr->getType()->getPointerAddressSpace();
    auto* first = b.CreateInBoundsGEP(ptr->getType()->getNonOpaquePointerElementType(), ptr,
                                      first_of(c->getArgOperand(1)));
    auto* address = b.CreateBitCast(first, llvm::PointerType::get(bits->getType(), space));
    if (masks_.count(inst)) {
      masked_store(b, inst, bits, address, half_lanes(b, ptr, first_of(c->getArgOperand(1))),
                   llvm::Align(2));
      return;
    }
    b.CreateAlignedStore(bits, address, llvm::Align(2));
  }

  llvm::Value* vector_value(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
      if (is_gather(load->getPointerOperand())) return gather(b, load);
      auto* address = addresses_.lookup(load->getPointerOperand());
      if (masks_.count(inst)) {
        const LaneAddress lanes = lane_addresses_.lookup(load->getPointerOperand());
        auto* gep = llvm::cast<llvm::GetElementPtrInst>(load->getPointerOperand());
        return masked_load(b, inst, address, lanes, load->getAlign(), gep->getOperand(1));
      }
      return b.CreateAlignedLoad(vector_type(load->getType()), address, load->getAlign());
    }
    if (auto* c = llvm::dyn_cast<llvm::CallInst>(inst)) return vector_call(b, c);
    if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(inst)) {
      auto* v = b.CreateBinOp(bin->getOpcode(), vector_of(b, bin->getOperand(0)),
                              vector_of(b, bin->getOperand(1)));
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(v)) i->copyIRFlags(bin);
      return v;
    }
    if (auto* un = llvm::dyn_cast<llvm::UnaryOperator>(inst)) {
      auto* v = b.CreateUnOp(un->getOpcode(), vector_of(b, un->getOperand(0)));
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(v)) i->copyIRFlags(un);
      return v;
    }
    if (auto* cast = llvm::dyn_cast<llvm::CastInst>(inst)) {
      return b.CreateCast(cast->getOpcode(), vector_of(b, cast->getOperand(0)),
                          vector_type(cast->getDestTy()));
    }
    if (auto* cmp = llvm::dyn_cast<llvm::CmpInst>(inst)) {
      auto* v = b.CreateCmp(cmp->getPredicate(), vector_of(b, cmp->getOperand(0)),
                            vector_of(b, cmp->getOperand(1)));
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(v)) i->copyIRFlags(cmp);
      return v;
    }
    if (auto* sel = llvm::dyn_cast<llvm::SelectInst>(inst)) {
      auto* cond = sel->getCondition();
      auto found = vectors_.find(cond);
      auto* v =
          b.CreateSelect(found != vectors_.end() ? found->second : cond,
                         vector_of(b, sel->getTrueValue()), vector_of(b, sel->getFalseValue()));
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(v)) i->copyIRFlags(sel);
      return v;
    }
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(inst)) {
      auto* v = b.CreatePHI(vector_type(phi->getType()), phi->getNumIncomingValues());
      phis_.emplace_back(phi, v);
      return v;
    }
    internal_error << "no vector form for " << inst->getOpcodeName();
    return nullptr;
  }

  llvm::Value* vector_call(llvm::IRBuilder<>& b, llvm::CallInst* c) {
    llvm::Function* scalar = c->getCalledFunction();
    const llvm::StringRef name = scalar->getName();
    if (name.startswith(vload_half_prefix)) {
      // vload_half(i, p): one W x i16 load from lane 0's element, widened here in integer
      // vector code: no builtin call, so half data may take 16 lanes at no risk from PoCL's
      // wide-vector builtins (jit/device/split_vector_calls.hpp), and the saxpy Float16 kernel
      // stays out of the kernel library.
      auto* ptr = c->getArgOperand(1);
      const unsigned space = ptr->getType()->getPointerAddressSpace();
      auto* first = b.CreateInBoundsGEP(ptr->getType()->getNonOpaquePointerElementType(), ptr,
                                        first_of(c->getArgOperand(0)));
      auto* i16s = vector_type(b.getInt16Ty());
      auto* address = b.CreateBitCast(first, llvm::PointerType::get(i16s, space));
      llvm::Value* raw =
          masks_.count(c)
              ? masked_load(b, c, address, half_lanes(b, ptr, first_of(c->getArgOperand(0))),
                            llvm::Align(2))
              : b.CreateAlignedLoad(i16s, address, llvm::Align(2));
      return half_bits_to_float(b, raw);
    }
    if (vector_intrinsic(*c)) {
      std::vector<llvm::Value*> args;
      for (auto& a : c->args()) args.push_back(vector_of(b, a.get()));
      auto* fn = llvm::Intrinsic::getDeclaration(f_.getParent(), scalar->getIntrinsicID(),
                                                 {vector_type(c->getType())});
      auto* v = b.CreateCall(fn, args);
      v->copyIRFlags(c);
      return v;
    }
    const std::string vname = vector_math_name(*c, width_);
    internal_assert(!vname.empty()) << "no vector form for " << name.str();
    if (called_per_lane(*c, math_)) {
      // The scalar builtin once per lane: its vector form would not give the same bits.
      llvm::Value* result = llvm::PoisonValue::get(vector_type(c->getType()));
      for (unsigned lane = 0; lane < width_; ++lane) {
        std::vector<llvm::Value*> lane_args;
        for (auto& a : c->args())
          lane_args.push_back(b.CreateExtractElement(vector_of(b, a.get()), lane));
        result = b.CreateInsertElement(result, call(b, scalar, lane_args), lane);
      }
      return result;
    }
    std::vector<llvm::Value*> args;
    std::vector<llvm::Type*> types;
    for (auto& a : c->args()) {
      args.push_back(vector_of(b, a.get()));
      types.push_back(args.back()->getType());
    }
    return call(b, declare(scalar, vname, vector_type(c->getType()), types), args);
  }

  llvm::Function& f_;
  const CoarsenPlan& plan_;
  const LaneMasks& masks_;
  unsigned width_;
  VectorMath math_;
  const FastChecks& fast_;
  bool index_fits_;
  std::span<const unsigned> param_extents_;
  llvm::DenseSet<llvm::Value*> index_values_;
  llvm::Value* g_ = nullptr;
  llvm::Value* base_ = nullptr;
  llvm::DenseMap<llvm::Value*, llvm::Value*> vectors_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> addresses_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> firsts_;
  llvm::DenseMap<llvm::Value*, LaneAddress> lane_addresses_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> sure_all_;
  llvm::DenseMap<llvm::Type*, llvm::AllocaInst*> lane_buffers_;
  std::vector<std::pair<llvm::PHINode*, llvm::PHINode*>> phis_;
  llvm::DenseMap<llvm::BasicBlock*, StraddlePath> straddle_paths_;
  std::vector<llvm::Instruction*> dead_;
};

}  // namespace

FastEntry vectorize_body(llvm::Function& body, const CoarsenPlan& plan, const LaneMasks& masks,
                         unsigned width, VectorMath math, const FastChecks& fast, bool index_fits,
                         std::span<const unsigned> param_extents) {
  Vectorizer v(body, plan, masks, width, math, fast, index_fits, param_extents);
  v.run();
  return std::move(v.entry_);
}

}  // namespace spvjit::detail
