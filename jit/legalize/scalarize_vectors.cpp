#include "jit/legalize/scalarize_vectors.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <unordered_map>
#include <vector>

#include "jit/legalize/drop_freeze.hpp"
#include "jit/legalize/type_rewrite.hpp"
#include "common/error_report.hpp"

namespace spvjit::detail {

namespace {

using Lanes = std::vector<llvm::Value*>;

bool odd(llvm::Type* t) {
  auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t);
  if (!v) return false;
  const unsigned n = v->getNumElements();
  return n != 2 && n != 3 && n != 4 && n != 8 && n != 16;
}

bool holds_odd(llvm::Type* t) { return holds_type(t, odd); }

unsigned lanes_in(llvm::Type* t) { return llvm::cast<llvm::FixedVectorType>(t)->getNumElements(); }

class Scalarizer {
 public:
  Scalarizer(llvm::Function& f, Where where) : f_(f), where_(where) {}

  void run() {
    TypeRewrite steps;
    steps.odd = odd;
    steps.refuse_signature = [this] { refuse_signature(); };
    steps.takes_phi = [](const llvm::PHINode& phi) { return odd(phi.getType()); };
    steps.make_phi = [this](llvm::PHINode& phi) {
      Lanes lanes;
      for (unsigned i = 0; i < lanes_in(phi.getType()); ++i) {
        lanes.push_back(llvm::PHINode::Create(phi.getType()->getScalarType(),
                                              phi.getNumIncomingValues(), "", &phi));
      }
      map_[&phi] = lanes;
    };
    steps.fill_phi = [this](llvm::PHINode& phi) {
      const Lanes& lanes = map_.at(&phi);
      for (unsigned k = 0; k < phi.getNumIncomingValues(); ++k) {
        llvm::BasicBlock* from = phi.getIncomingBlock(k);
        // Lanes of a value defined in `from` or above: extracted (if need be) at its end.
        llvm::IRBuilder<> b(from->getTerminator());
        const Lanes incoming = get(b, phi.getIncomingValue(k), phi);
        for (std::size_t i = 0; i < lanes.size(); ++i) {
          llvm::cast<llvm::PHINode>(lanes[i])->addIncoming(incoming[i], from);
        }
      }
    };
    steps.involved = [this](const llvm::Instruction& inst) { return involved(inst); };
    steps.rewrite = [this](llvm::Instruction& inst) { scalarize(inst); };
    if (!rewrite_function(f_, steps, dead_)) return;
    // Pointer casts to odd vectors that only the loads and stores used; anything else still
    // holding such vectors (an alloca, a GEP over an array of them) is refused.
    for (auto& bb : f_) {
      for (llvm::Instruction& inst : llvm::make_early_inc_range(bb)) {
        if (inst.use_empty() && llvm::isa<llvm::CastInst>(inst) && holds_odd(inst.getType())) {
          inst.eraseFromParent();
        }
      }
    }
    for (auto& bb : f_) {
      for (auto& inst : bb) {
        if (holds_odd(inst.getType())) refuse(inst, "keeps a vector of that lane count in memory");
      }
    }
  }

 private:
  static bool callee(const llvm::Value* v) { return llvm::isa<llvm::Function>(v); }

  bool involved(const llvm::Instruction& inst) const {
    if (odd(inst.getType())) return true;
    for (const llvm::Use& op : inst.operands()) {
      if (!callee(op) && odd(op->getType())) return true;
    }
    return false;
  }

  [[noreturn]] void refuse(const llvm::Instruction& inst, const std::string& why) const {
    user_error((where_)) << "function '" << f_.getName().str() << "' " << why << " ("
                         << printed_value(inst)
                         << "); spvjit computes vectors of lane counts SPIR-V has no type for "
                            "(other than 2, 3, 4, 8, 16) lane by lane only as values in "
                            "registers, loaded and stored";
    std::abort();  // not reached: the report throws at the end of its statement
  }

  [[noreturn]] void refuse_signature() const {
    user_error((where_)) << "function '" << f_.getName().str()
                         << "' takes or returns a vector of a lane count SPIR-V has no type for "
                            "(expected 2, 3, 4, 8 or 16 lanes); inline it or split the vector";
    std::abort();  // not reached: the report throws at the end of its statement
  }

  // The lanes of `v`: scalarized already, a constant's elements, or read from a legal vector.
  Lanes get(llvm::IRBuilder<>& b, llvm::Value* v, const llvm::Instruction& user) {
    const unsigned n = lanes_in(v->getType());
    Lanes out;
    if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) {
      for (unsigned i = 0; i < n; ++i) out.push_back(c->getAggregateElement(i));
      if (std::find(out.begin(), out.end(), nullptr) == out.end()) return out;
      refuse(user, "uses a vector constant spvjit cannot take apart");
    }
    if (!odd(v->getType())) {
      for (unsigned i = 0; i < n; ++i) out.push_back(b.CreateExtractElement(v, b.getInt64(i)));
      return out;
    }
    const auto it = map_.find(v);
    if (it == map_.end()) refuse(user, "uses a vector spvjit could not scalarize");
    return it->second;
  }

  // `lanes` as the result of `inst`: kept as lanes for an odd vector, else built into the
  // legal vector and put in its place.
  void replace(llvm::IRBuilder<>& b, llvm::Instruction& inst, const Lanes& lanes) {
    if (odd(inst.getType())) {
      map_[&inst] = lanes;
    } else {
      llvm::Value* v = llvm::PoisonValue::get(inst.getType());
      for (std::size_t i = 0; i < lanes.size(); ++i)
        v = b.CreateInsertElement(v, lanes[i], b.getInt64(i));
      inst.replaceAllUsesWith(v);
    }
    dead_.push_back(&inst);
  }

  void replace_scalar(llvm::Instruction& inst, llvm::Value* v) {
    inst.replaceAllUsesWith(v);
    dead_.push_back(&inst);
  }

  // The element pointer of lane `i` of the vector `vector_ptr` points at, and its alignment.
  llvm::Value* lane_pointer(llvm::IRBuilder<>& b, llvm::Value* vector_ptr, llvm::Type* element,
                            unsigned i) {
    llvm::Value* base = vector_ptr;
    while (auto* cast = llvm::dyn_cast<llvm::BitCastOperator>(base)) base = cast->getOperand(0);
    auto* element_ptr =
        llvm::PointerType::get(element, vector_ptr->getType()->getPointerAddressSpace());
    base = b.CreateBitCast(base, element_ptr);
    return b.CreateConstInBoundsGEP1_64(element, base, i);
  }

  void scalarize(llvm::Instruction& inst) {
    llvm::IRBuilder<> b(&inst);
    auto lanes = [&](unsigned i) { return get(b, inst.getOperand(i), inst); };
    const unsigned n = odd(inst.getType()) ? lanes_in(inst.getType()) : 0;
    auto copy_flags = [&](llvm::Value* v) {
      if (auto* made = llvm::dyn_cast<llvm::Instruction>(v)) made->copyIRFlags(&inst);
      return v;
    };
    if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(&inst)) {
      const Lanes l = lanes(0), r = lanes(1);
      Lanes out;
      for (unsigned i = 0; i < n; ++i)
        out.push_back(copy_flags(b.CreateBinOp(bin->getOpcode(), l[i], r[i])));
      return replace(b, inst, out);
    }
    if (auto* un = llvm::dyn_cast<llvm::UnaryOperator>(&inst)) {
      const Lanes l = lanes(0);
      Lanes out;
      for (unsigned i = 0; i < n; ++i)
        out.push_back(copy_flags(b.CreateUnOp(un->getOpcode(), l[i])));
      return replace(b, inst, out);
    }
    if (auto* cmp = llvm::dyn_cast<llvm::CmpInst>(&inst)) {
      const Lanes l = lanes(0), r = lanes(1);
      Lanes out;
      for (unsigned i = 0; i < n; ++i)
        out.push_back(copy_flags(b.CreateCmp(cmp->getPredicate(), l[i], r[i])));
      return replace(b, inst, out);
    }
    if (auto* cast = llvm::dyn_cast<llvm::CastInst>(&inst)) {
      llvm::Type* from = cast->getSrcTy();
      if (!from->isVectorTy() || !cast->getDestTy()->isVectorTy() ||
          lanes_in(from) != lanes_in(cast->getDestTy())) {
        refuse(inst, "casts between vectors of different lane counts");
      }
      const Lanes l = lanes(0);
      Lanes out;
      for (unsigned i = 0; i < n; ++i) {
        out.push_back(
            copy_flags(b.CreateCast(cast->getOpcode(), l[i], cast->getDestTy()->getScalarType())));
      }
      return replace(b, inst, out);
    }
    switch (inst.getOpcode()) {
      case llvm::Instruction::Select: {
        llvm::Value* cond = inst.getOperand(0);
        const Lanes c = cond->getType()->isVectorTy() ? lanes(0) : Lanes(n, cond);
        const Lanes t = lanes(1), e = lanes(2);
        Lanes out;
        for (unsigned i = 0; i < n; ++i)
          out.push_back(copy_flags(b.CreateSelect(c[i], t[i], e[i])));
        return replace(b, inst, out);
      }
      case llvm::Instruction::ExtractElement: {
        const Lanes v = lanes(0);
        llvm::Value* index = inst.getOperand(1);
        if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(index)) {
          const std::uint64_t i = c->getZExtValue();
          return replace_scalar(inst, i < v.size() ? v[i] : llvm::PoisonValue::get(inst.getType()));
        }
        llvm::Value* picked = v[0];
        for (std::size_t i = 1; i < v.size(); ++i) {
          picked = b.CreateSelect(
              b.CreateICmpEQ(index, llvm::ConstantInt::get(index->getType(), i)), v[i], picked);
        }
        return replace_scalar(inst, picked);
      }
      case llvm::Instruction::InsertElement: {
        Lanes v = lanes(0);
        llvm::Value* x = inst.getOperand(1);
        llvm::Value* index = inst.getOperand(2);
        if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(index)) {
          if (c->getZExtValue() < v.size()) v[c->getZExtValue()] = x;
          return replace(b, inst, v);
        }
        for (std::size_t i = 0; i < v.size(); ++i) {
          v[i] = b.CreateSelect(b.CreateICmpEQ(index, llvm::ConstantInt::get(index->getType(), i)),
                                x, v[i]);
        }
        return replace(b, inst, v);
      }
      case llvm::Instruction::ShuffleVector: {
        auto& shuffle = llvm::cast<llvm::ShuffleVectorInst>(inst);
        Lanes both = lanes(0);
        const Lanes second = lanes(1);
        both.insert(both.end(), second.begin(), second.end());
        Lanes out;
        llvm::Type* element = inst.getType()->getScalarType();
        for (int m : shuffle.getShuffleMask()) {
          out.push_back(m < 0 ? static_cast<llvm::Value*>(llvm::UndefValue::get(element))
                              : both[static_cast<std::size_t>(m)]);
        }
        return replace(b, inst, out);
      }
      case llvm::Instruction::Load: {
        auto& load = llvm::cast<llvm::LoadInst>(inst);
        if (!load.isSimple())
          refuse(inst, "loads a vector of that lane count atomically or volatile");
        llvm::Type* element = load.getType()->getScalarType();
        const std::uint64_t size = f_.getParent()->getDataLayout().getTypeStoreSize(element);
        Lanes out;
        for (unsigned i = 0; i < n; ++i) {
          out.push_back(b.CreateAlignedLoad(element,
                                            lane_pointer(b, load.getPointerOperand(), element, i),
                                            llvm::commonAlignment(load.getAlign(), i * size)));
        }
        return replace(b, inst, out);
      }
      case llvm::Instruction::Store: {
        auto& store = llvm::cast<llvm::StoreInst>(inst);
        if (!store.isSimple())
          refuse(inst, "stores a vector of that lane count atomically or volatile");
        const Lanes v = lanes(0);
        llvm::Type* element = store.getValueOperand()->getType()->getScalarType();
        const std::uint64_t size = f_.getParent()->getDataLayout().getTypeStoreSize(element);
        for (unsigned i = 0; i < v.size(); ++i) {
          b.CreateAlignedStore(v[i], lane_pointer(b, store.getPointerOperand(), element, i),
                               llvm::commonAlignment(store.getAlign(), i * size));
        }
        dead_.push_back(&inst);
        return;
      }
      case llvm::Instruction::Call:
        return scalarize_call(llvm::cast<llvm::CallInst>(inst), b);
      default:
        refuse(inst, "uses a vector of that lane count in an operation spvjit does not scalarize");
    }
  }

  // An intrinsic overloaded on the vector type alone (llvm.fabs.v5f32, llvm.smax.v6i32): one
  // call of its scalar form per lane; scalar arguments (ctlz's flag) passed to each.
  void scalarize_call(llvm::CallInst& call, llvm::IRBuilder<>& b) {
    llvm::Function* fn = call.getCalledFunction();
    llvm::Type* type = call.getType();
    const bool simple = fn && fn->isIntrinsic() && odd(type) &&
                        fn->getName() == llvm::Intrinsic::getName(fn->getIntrinsicID(), {type},
                                                                  fn->getParent(), nullptr);
    if (!simple) refuse(call, "passes a vector of that lane count to a call");
    for (const llvm::Use& a : call.args()) {
      if (a->getType()->isVectorTy() && a->getType() != type) {
        refuse(call, "passes a vector of that lane count to a call");
      }
    }
    llvm::Function* scalar = llvm::Intrinsic::getDeclaration(fn->getParent(), fn->getIntrinsicID(),
                                                             {type->getScalarType()});
    std::vector<Lanes> args;
    for (const llvm::Use& a : call.args()) {
      args.push_back(a->getType() == type ? get(b, a, call) : Lanes(lanes_in(type), a));
    }
    Lanes out;
    for (unsigned i = 0; i < lanes_in(type); ++i) {
      std::vector<llvm::Value*> lane_args;
      for (const Lanes& a : args) lane_args.push_back(a[i]);
      llvm::CallInst* lane = b.CreateCall(scalar, lane_args);
      if (llvm::isa<llvm::FPMathOperator>(lane)) lane->setFastMathFlags(call.getFastMathFlags());
      out.push_back(lane);
    }
    replace(b, call, out);
  }

  llvm::Function& f_;
  Where where_;
  std::unordered_map<llvm::Value*, Lanes> map_;
  std::vector<llvm::Instruction*> dead_;
};

}  // namespace

void scalarize_odd_vectors(llvm::Module& m, Where where) {
  for (const auto& g : m.globals()) {
    user_assert(!holds_odd(g.getValueType()), (where))
        << "global '" << g.getName().str()
        << "' holds a vector of a lane count SPIR-V has no type for (expected 2, 3, 4, 8 or 16 "
           "lanes)";
  }
  for (auto& f : m) {
    if (!f.isDeclaration()) Scalarizer(f, where).run();
  }
}

}  // namespace spvjit::detail
