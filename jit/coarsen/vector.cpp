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
#include "jit/coarsen/lane_values.hpp"
#include "jit/coarsen/mask_algebra.hpp"
#include "jit/coarsen/masked_memory.hpp"
#include "jit/coarsen/math.hpp"
#include "jit/coarsen/vector_checks.hpp"
#include "spvjit/error.hpp"

namespace spvjit::detail {

namespace {

// Rewrites the body's varying instructions (plan.order, each by its Role) into W-lane ones, in
// place, with the parts on shared LaneValues: masks (mask_algebra.hpp), memory under masks
// (masked_memory.hpp) and bounds checks (vector_checks.hpp).
class Vectorizer {
 public:
  Vectorizer(llvm::Function& f, const CoarsenPlan& plan, const LaneMasks& masks, unsigned w,
             VectorMath math, const FastChecks& fast, bool index_fits,
             std::span<const unsigned> param_extents)
      : v_(f, w, masks),
        algebra_(v_),
        memory_(v_, algebra_, param_extents),
        checks_(v_, algebra_, memory_, fast, index_fits),
        plan_(plan),
        math_(math) {
    llvm::IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
    base_ = b.CreateMul(v_.coarse_index, b.getInt64(v_.width), "coarse.base", /*HasNUW=*/true);
  }

  // What the dispatcher must test before a fast body (vector.hpp).
  FastEntry fast_entry() { return std::move(checks_.entry); }

  void run() {
    for (auto* inst : plan_.order) {
      rewrite(inst, plan_.roles.at(inst));
      dead_.push_back(inst);
    }
    // Uniform loads and checks under a mask: done when any lane is active.
    for (auto& [inst, lanes] : v_.masks) {
      if (!plan_.roles.count(inst)) guard_uniform(inst, lanes.mask);
    }
    for (auto [phi, vector_phi] : phis_) {
      for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
        llvm::BasicBlock* from = phi->getIncomingBlock(k);
        llvm::IRBuilder<> b(from->getTerminator());
        vector_phi->addIncoming(v_.vector_of(b, phi->getIncomingValue(k)), from);
      }
    }
    for (auto [phi, first_phi] : first_phis_) {
      for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
        first_phi->addIncoming(v_.first_of(phi->getIncomingValue(k)), phi->getIncomingBlock(k));
      }
    }
    for (auto* d : dead_) d->replaceAllUsesWith(llvm::PoisonValue::get(d->getType()));
    for (auto* d : dead_) d->eraseFromParent();
    answer_uniform_lane_tests();
    sink_lane_masks();
  }

  // Lane masks are computed where they are defined, but with the scalar tests of every_lane in
  // front, most are used only on the paths of partial masks. Each <W x i1> computation moves
  // (copied where several blocks use it) into the blocks that use it, users first, so that a
  // full vector never pays for the lane-by-lane comparisons. LLVM does not sink values used in
  // several blocks.
  void sink_lane_masks() {
    std::vector<llvm::Instruction*> masks;
    for (auto& bb : v_.f) {
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
  // Lane tests of a uniform value (a loop's unmasked run tests a counter every lane shares
  // alike): the value itself, or its negation.
  void answer_uniform_lane_tests() {
    std::vector<llvm::CallInst*> tests;
    for (auto& block : v_.f) {
      for (auto& i : block) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
        auto* callee = call ? call->getCalledFunction() : nullptr;
        if (callee &&
            (callee->getName() == every_lane_marker || callee->getName() == no_lane_marker)) {
          tests.push_back(call);
        }
      }
    }
    for (llvm::CallInst* call : tests) {
      llvm::Value* x = call->getArgOperand(0);
      if (call->getCalledFunction()->getName() == no_lane_marker) {
        x = llvm::BinaryOperator::CreateNot(x, "", call);
      }
      call->replaceAllUsesWith(x);
      call->eraseFromParent();
    }
  }

  llvm::Function* declare(llvm::Function* scalar, const std::string& name, llvm::Type* ret,
                          llvm::ArrayRef<llvm::Type*> params) {
    auto* type = llvm::FunctionType::get(ret, params, false);
    auto callee = v_.f.getParent()->getOrInsertFunction(name, type);
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

  // `inst`'s lanes are first, first + 1, ..., first + W - 1.
  void consecutive_from(llvm::IRBuilder<>& b, llvm::Instruction* inst, llvm::Value* first,
                        const char* name) {
    std::vector<llvm::Constant*> lanes;
    for (unsigned l = 0; l < v_.width; ++l) lanes.push_back(b.getInt64(l));
    v_.vectors[inst] =
        b.CreateAdd(b.CreateVectorSplat(v_.width, first), llvm::ConstantVector::get(lanes), name);
    v_.firsts[inst] = first;
  }

  void rewrite(llvm::Instruction* inst, Role role) {
    llvm::IRBuilder<> b(inst);
    switch (role) {
      case Role::Index:
        v_.index_values.insert(inst);
        return consecutive_from(b, inst, base_, "coarse.lanes");
      case Role::LocalIndex: {
        // The coarsened work-item's own local id l stands for local ids W*l .. W*l+W-1 of the
        // same group (its group's size is the kernel's over W in dimension 0).
        auto* coarse = inst->clone();
        coarse->insertBefore(inst);
        coarse->setName("coarse.local.id");
        auto* first = b.CreateMul(coarse, b.getInt64(v_.width), "coarse.local.base", true);
        return consecutive_from(b, inst, first, "coarse.local.lanes");
      }
      case Role::Offset: {
        // Index + uniform: the vector for arithmetic, and lane 0's value for addresses.
        if (auto* phi = llvm::dyn_cast<llvm::PHINode>(inst)) {
          // A counter stepping consecutive lanes: lane 0's counter runs beside the vector's.
          v_.vectors[inst] = vector_value(b, inst);
          auto* first =
              b.CreatePHI(phi->getType(), phi->getNumIncomingValues(), phi->getName() + ".first");
          first_phis_.emplace_back(phi, first);
          v_.firsts[inst] = first;
          return;
        }
        auto* op = llvm::cast<llvm::BinaryOperator>(inst);
        v_.vectors[inst] = vector_value(b, inst);
        v_.firsts[inst] = b.CreateBinOp(op->getOpcode(), v_.first_of(op->getOperand(0)),
                                        v_.first_of(op->getOperand(1)));
        return;
      }
      case Role::InBounds:
        inst->replaceAllUsesWith(b.getTrue());
        return;
      case Role::Address: {
        auto* gep = llvm::cast<llvm::GetElementPtrInst>(inst);
        llvm::Type* element = gep->getResultElementType();
        auto* first =
            b.CreateInBoundsGEP(element, gep->getPointerOperand(), v_.first_of(gep->getOperand(1)));
        const unsigned space = gep->getType()->getPointerAddressSpace();
        addresses_[inst] =
            b.CreateBitCast(first, llvm::PointerType::get(v_.vector_type(element), space));
        memory_.lane_addresses[inst] = {gep->getPointerOperand(), v_.first_of(gep->getOperand(1)),
                                        element};
        return;
      }
      case Role::Gather: {
        auto* gep = llvm::cast<llvm::GetElementPtrInst>(inst);
        memory_.lane_addresses[inst] = {gep->getPointerOperand(), nullptr,
                                        gep->getResultElementType(),
                                        v_.vector_of(b, gep->getOperand(1))};
        return;
      }
      case Role::Store: {
        llvm::BasicBlock* block = inst->getParent();
        rewrite_store(b, inst);
        return checks_.store_lanes_inside(inst, block);
      }
      case Role::Check:
        return checks_.rewrite_check(b, llvm::cast<llvm::CallInst>(inst));
      case Role::Report:
        return checks_.rewrite_report(b, llvm::cast<llvm::CallInst>(inst));
      case Role::LaneTest: {
        llvm::Value* condition = llvm::cast<llvm::CallInst>(inst)->getArgOperand(0);
        const bool every =
            llvm::cast<llvm::CallInst>(inst)->getCalledFunction()->getName() == every_lane_marker;
        inst->replaceAllUsesWith(every ? algebra_.every_lane_of(b, condition)
                                       : algebra_.no_lane_of(b, condition));
        return;
      }
      case Role::Vector:
        v_.vectors[inst] = vector_value(b, inst);
        algebra_.note_sure_all(b, inst);
        return;
    }
  }

  // A uniform load or check under a mask. A check passes when no lane is active; anything else
  // runs only when a lane is (else it gives 0).
  void guard_uniform(llvm::Instruction* inst, llvm::Value* mask) {
    llvm::IRBuilder<> b(inst);
    llvm::Value* any = algebra_.any_of(b, v_.vector_of(b, mask));
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

  void rewrite_store(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(inst);
        store && memory_.is_gather(store->getPointerOperand())) {
      return memory_.scatter(b, store);
    }
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(inst)) {
      auto* value = v_.vector_of(b, store->getValueOperand());
      auto* address = addresses_.lookup(store->getPointerOperand());
      if (v_.masks.count(inst)) {
        memory_.masked_store(b, inst, value, address,
                             memory_.lane_addresses.lookup(store->getPointerOperand()),
                             store->getAlign());
        return;
      }
      b.CreateAlignedStore(value, address, store->getAlign());
      return;
    }
    // vstore_half(v, i, p): the rounding done here in integer vector code (PoCL's own
    // vstore_halfN writes other NaN bits), then one W x i16 store.
    auto* c = llvm::cast<llvm::CallInst>(inst);
    llvm::Value* bits = float_to_half_bits(b, v_.vector_of(b, c->getArgOperand(0)));
    auto* ptr = c->getArgOperand(2);
    const unsigned space = ptr->getType()->getPointerAddressSpace();
    auto* first = b.CreateInBoundsGEP(ptr->getType()->getNonOpaquePointerElementType(), ptr,
                                      v_.first_of(c->getArgOperand(1)));
    auto* address = b.CreateBitCast(first, llvm::PointerType::get(bits->getType(), space));
    if (v_.masks.count(inst)) {
      memory_.masked_store(b, inst, bits, address,
                           memory_.half_lanes(b, ptr, v_.first_of(c->getArgOperand(1))),
                           llvm::Align(2));
      return;
    }
    b.CreateAlignedStore(bits, address, llvm::Align(2));
  }

  llvm::Value* vector_value(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
      if (memory_.is_gather(load->getPointerOperand())) return memory_.gather(b, load);
      auto* address = addresses_.lookup(load->getPointerOperand());
      if (v_.masks.count(inst)) {
        const LaneAddress lanes = memory_.lane_addresses.lookup(load->getPointerOperand());
        auto* gep = llvm::cast<llvm::GetElementPtrInst>(load->getPointerOperand());
        return memory_.masked_load(b, inst, address, lanes, load->getAlign(), gep->getOperand(1));
      }
      return b.CreateAlignedLoad(v_.vector_type(load->getType()), address, load->getAlign());
    }
    if (auto* c = llvm::dyn_cast<llvm::CallInst>(inst)) return vector_call(b, c);
    if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(inst)) {
      auto* v = b.CreateBinOp(bin->getOpcode(), v_.vector_of(b, bin->getOperand(0)),
                              v_.vector_of(b, bin->getOperand(1)));
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(v)) i->copyIRFlags(bin);
      return v;
    }
    if (auto* un = llvm::dyn_cast<llvm::UnaryOperator>(inst)) {
      auto* v = b.CreateUnOp(un->getOpcode(), v_.vector_of(b, un->getOperand(0)));
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(v)) i->copyIRFlags(un);
      return v;
    }
    if (auto* cast = llvm::dyn_cast<llvm::CastInst>(inst)) {
      return b.CreateCast(cast->getOpcode(), v_.vector_of(b, cast->getOperand(0)),
                          v_.vector_type(cast->getDestTy()));
    }
    if (auto* cmp = llvm::dyn_cast<llvm::CmpInst>(inst)) {
      auto* v = b.CreateCmp(cmp->getPredicate(), v_.vector_of(b, cmp->getOperand(0)),
                            v_.vector_of(b, cmp->getOperand(1)));
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(v)) i->copyIRFlags(cmp);
      return v;
    }
    if (auto* sel = llvm::dyn_cast<llvm::SelectInst>(inst)) {
      // A uniform condition broadcast too: SPIR-V before 1.4 selects vectors only by vectors
      // (a grid-stride loop's test picks its comparison by the run-time step's sign).
      auto* v =
          b.CreateSelect(v_.vector_of(b, sel->getCondition()), v_.vector_of(b, sel->getTrueValue()),
                         v_.vector_of(b, sel->getFalseValue()));
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(v)) i->copyIRFlags(sel);
      return v;
    }
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(inst)) {
      auto* v = b.CreatePHI(v_.vector_type(phi->getType()), phi->getNumIncomingValues());
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
                                        v_.first_of(c->getArgOperand(0)));
      auto* i16s = v_.vector_type(b.getInt16Ty());
      auto* address = b.CreateBitCast(first, llvm::PointerType::get(i16s, space));
      llvm::Value* raw =
          v_.masks.count(c)
              ? memory_.masked_load(b, c, address,
                                    memory_.half_lanes(b, ptr, v_.first_of(c->getArgOperand(0))),
                                    llvm::Align(2))
              : b.CreateAlignedLoad(i16s, address, llvm::Align(2));
      return half_bits_to_float(b, raw);
    }
    if (vector_intrinsic(*c)) {
      std::vector<llvm::Value*> args;
      for (auto& a : c->args()) args.push_back(v_.vector_of(b, a.get()));
      auto* fn = llvm::Intrinsic::getDeclaration(v_.f.getParent(), scalar->getIntrinsicID(),
                                                 {v_.vector_type(c->getType())});
      auto* v = b.CreateCall(fn, args);
      v->copyIRFlags(c);
      return v;
    }
    const std::string vname = vector_math_name(*c, v_.width);
    internal_assert(!vname.empty()) << "no vector form for " << name.str();
    if (called_per_lane(*c, math_)) {
      // The scalar builtin once per lane: its vector form would not give the same bits.
      llvm::Value* result = llvm::PoisonValue::get(v_.vector_type(c->getType()));
      for (unsigned lane = 0; lane < v_.width; ++lane) {
        std::vector<llvm::Value*> lane_args;
        for (auto& a : c->args())
          lane_args.push_back(b.CreateExtractElement(v_.vector_of(b, a.get()), lane));
        result = b.CreateInsertElement(result, call(b, scalar, lane_args), lane);
      }
      return result;
    }
    std::vector<llvm::Value*> args;
    std::vector<llvm::Type*> types;
    for (auto& a : c->args()) {
      args.push_back(v_.vector_of(b, a.get()));
      types.push_back(args.back()->getType());
    }
    return call(b, declare(scalar, vname, v_.vector_type(c->getType()), types), args);
  }

  LaneValues v_;
  MaskAlgebra algebra_;
  MaskedMemory memory_;
  VectorChecks checks_;
  const CoarsenPlan& plan_;
  VectorMath math_;
  llvm::Value* base_ = nullptr;
  llvm::DenseMap<llvm::Value*, llvm::Value*> addresses_;
  std::vector<std::pair<llvm::PHINode*, llvm::PHINode*>> phis_;
  std::vector<std::pair<llvm::PHINode*, llvm::PHINode*>> first_phis_;  ///< consecutive counters
  std::vector<llvm::Instruction*> dead_;
};

}  // namespace

FastEntry vectorize_body(llvm::Function& body, const CoarsenPlan& plan, const LaneMasks& masks,
                         unsigned width, VectorMath math, const FastChecks& fast, bool index_fits,
                         std::span<const unsigned> param_extents) {
  Vectorizer v(body, plan, masks, width, math, fast, index_fits, param_extents);
  v.run();
  return v.fast_entry();
}

}  // namespace spvjit::detail
