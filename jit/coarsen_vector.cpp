#include "jit/coarsen_vector.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <cstring>

#include <llvm/ADT/DenseSet.h>

#include "jit/coarsen_math.hpp"
#include "spvjit/error.hpp"

namespace spvjit::detail {

namespace {

class Vectorizer {
 public:
  Vectorizer(llvm::Function& f, const CoarsenPlan& plan, llvm::ValueToValueMapTy& map, unsigned w,
             FastEndArgs covered, bool index_fits)
      : f_(f), plan_(plan), map_(map), width_(w), covered_(covered), index_fits_(index_fits) {
    llvm::IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
    g_ = f.getArg(f.arg_size() - 1);
    base_ = b.CreateMul(g_, b.getInt64(width_), "coarse.base", /*HasNUW=*/true);
  }

  void run() {
    for (auto* original : plan_.order) {
      auto* inst = llvm::cast<llvm::Instruction>(map_[original]);
      rewrite(inst, plan_.roles.at(original));
      dead_.push_back(inst);
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
        auto* add = llvm::cast<llvm::BinaryOperator>(inst);
        vectors_[inst] = vector_value(b, inst);
        firsts_[inst] = b.CreateAdd(first_of(add->getOperand(0)), first_of(add->getOperand(1)));
        return;
      }
      case Role::InBounds: inst->replaceAllUsesWith(b.getTrue()); return;
      case Role::Address: {
        auto* gep = llvm::cast<llvm::GetElementPtrInst>(inst);
        llvm::Type* element = gep->getResultElementType();
        auto* first = b.CreateInBoundsGEP(element, gep->getPointerOperand(), first_of(gep->getOperand(1)));
        const unsigned space = gep->getType()->getPointerAddressSpace();
        addresses_[inst] = b.CreateBitCast(first, llvm::PointerType::get(vector_type(element), space));
        return;
      }
      case Role::Store: return rewrite_store(b, inst);
      case Role::Check: inst->replaceAllUsesWith(all_lanes_inside(b, llvm::cast<llvm::CallInst>(inst), 0)); return;
      case Role::Report: return rewrite_report(b, llvm::cast<llvm::CallInst>(inst));
      case Role::Vector: vectors_[inst] = vector_value(b, inst); return;
    }
  }

  bool is_consecutive(llvm::Value* v) const { return firsts_.count(v) != 0; }

  // A check of get_global_id(0) itself against a hidden extent that fast_end covers.
  bool covered_by_fast_end(llvm::Value* index, llvm::Value* extent) const {
    auto* arg = llvm::dyn_cast<llvm::Argument>(extent);
    return index_values_.count(index) && arg && arg->getParent() == &f_ &&
           arg->getArgNo() >= covered_.first && arg->getArgNo() < covered_.end;
  }

 public:
  bool checks_index_ = false;

 private:

  // A bounds check of W lanes: a consecutive index passes when its first and last lane do (two
  // tests, so that a negative first lane cannot wrap into range), a uniform one as itself.
  llvm::Value* all_lanes_inside(llvm::IRBuilder<>& b, llvm::CallInst* c, unsigned first_pair) {
    llvm::Value* all = b.getTrue();
    for (unsigned k = first_pair; k + 1 < c->arg_size(); k += 2) {
      llvm::Value* index = c->getArgOperand(k);
      llvm::Value* extent = c->getArgOperand(k + 1);
      if (covered_by_fast_end(index, extent)) {
        checks_index_ = true;
        if (index_fits_) continue;  // the dispatcher tested it once for the launch
      }
      if (is_consecutive(index)) {
        llvm::Value* first = first_of(index);
        llvm::Value* last = b.CreateAdd(first, b.getInt64(width_ - 1));
        all = b.CreateAnd(all, b.CreateAnd(b.CreateICmpULT(first, extent), b.CreateICmpULT(last, extent)));
      } else {
        all = b.CreateAnd(all, b.CreateICmpULT(index, extent));
      }
    }
    return all;
  }

  // The report of a failed W-lane check names the first lane that fails: the W lanes of a
  // consecutive index fail from lane (extent - first) on, a uniform index's all at once.
  void rewrite_report(llvm::IRBuilder<>& b, llvm::CallInst* c) {
    constexpr unsigned first_pair = 3;  // after the record, the site and the global index
    llvm::Value* lane = b.getInt64(width_ - 1);
    for (unsigned k = first_pair; k + 1 < c->arg_size(); k += 2) {
      llvm::Value* index = c->getArgOperand(k);
      llvm::Value* extent = c->getArgOperand(k + 1);
      llvm::Value* fails_from;
      if (is_consecutive(index)) {
        llvm::Value* first = first_of(index);
        fails_from = b.CreateSelect(b.CreateICmpULT(first, extent), b.CreateSub(extent, first), b.getInt64(0));
      } else {
        fails_from = b.CreateSelect(b.CreateICmpULT(index, extent), b.getInt64(width_), b.getInt64(0));
      }
      lane = b.CreateSelect(b.CreateICmpULT(fails_from, lane), fails_from, lane);
    }
    std::vector<llvm::Value*> args = {c->getArgOperand(0), c->getArgOperand(1),
                                      b.CreateAdd(first_of(c->getArgOperand(2)), lane)};
    for (unsigned k = first_pair; k < c->arg_size(); ++k) {
      llvm::Value* a = c->getArgOperand(k);
      const bool index = (k - first_pair) % 2 == 0;
      args.push_back(index && is_consecutive(a) ? b.CreateAdd(first_of(a), lane) : a);
    }
    b.CreateCall(c->getCalledFunction(), args);
  }

  void rewrite_store(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(inst)) {
      b.CreateAlignedStore(vector_of(b, store->getValueOperand()),
                           addresses_.lookup(store->getPointerOperand()), store->getAlign());
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
    b.CreateAlignedStore(bits, b.CreateBitCast(first, llvm::PointerType::get(bits->getType(), space)),
                         llvm::Align(2));
  }

  llvm::Value* vector_value(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
      return b.CreateAlignedLoad(vector_type(load->getType()), addresses_.lookup(load->getPointerOperand()),
                                 load->getAlign());
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
      auto* v = b.CreateSelect(found != vectors_.end() ? found->second : cond,
                               vector_of(b, sel->getTrueValue()), vector_of(b, sel->getFalseValue()));
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(v)) i->copyIRFlags(sel);
      return v;
    }
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(inst)) {
      auto* v = b.CreatePHI(vector_type(phi->getType()), phi->getNumIncomingValues());
      phis_.emplace_back(phi, v);
      return v;
    }
    throw InternalError(std::string("coarsen: no vector form for ") + inst->getOpcodeName());
  }

  llvm::Value* vector_call(llvm::IRBuilder<>& b, llvm::CallInst* c) {
    llvm::Function* scalar = c->getCalledFunction();
    const llvm::StringRef name = scalar->getName();
    if (name.startswith(vload_half_prefix)) {
      // vload_half(i, p): one W x i16 load from lane 0's element, widened here in integer
      // vector code: no builtin call, so half data may take 16 lanes at no risk from PoCL's
      // wide-vector builtins (jit/split_vector_calls.hpp), and the saxpy Float16 kernel stays
      // out of the kernel library.
      auto* ptr = c->getArgOperand(1);
      const unsigned space = ptr->getType()->getPointerAddressSpace();
      auto* first = b.CreateInBoundsGEP(ptr->getType()->getNonOpaquePointerElementType(), ptr,
                                        first_of(c->getArgOperand(0)));
      auto* i16s = vector_type(b.getInt16Ty());
      auto* raw = b.CreateAlignedLoad(i16s, b.CreateBitCast(first, llvm::PointerType::get(i16s, space)),
                                      llvm::Align(2));
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
    if (vname.empty()) throw InternalError("coarsen: no vector form for " + name.str());
    if (!vector_form_exact(*c)) {
      // The scalar builtin once per lane: its vector form would not give the same bits.
      llvm::Value* result = llvm::PoisonValue::get(vector_type(c->getType()));
      for (unsigned lane = 0; lane < width_; ++lane) {
        std::vector<llvm::Value*> lane_args;
        for (auto& a : c->args()) lane_args.push_back(b.CreateExtractElement(vector_of(b, a.get()), lane));
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
  llvm::ValueToValueMapTy& map_;
  unsigned width_;
  FastEndArgs covered_;
  bool index_fits_;
  llvm::DenseSet<llvm::Value*> index_values_;
  llvm::Value* g_ = nullptr;
  llvm::Value* base_ = nullptr;
  llvm::DenseMap<llvm::Value*, llvm::Value*> vectors_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> addresses_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> firsts_;
  std::vector<std::pair<llvm::PHINode*, llvm::PHINode*>> phis_;
  std::vector<llvm::Instruction*> dead_;
};

}  // namespace

bool vectorize_body(llvm::Function& body, const CoarsenPlan& plan, llvm::ValueToValueMapTy& map,
                    unsigned width, FastEndArgs covered, bool index_fits) {
  Vectorizer v(body, plan, map, width, covered, index_fits);
  v.run();
  return v.checks_index_;
}

}  // namespace spvjit::detail
