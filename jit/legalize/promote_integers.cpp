#include "jit/legalize/promote_integers.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Local.h>

#include <cstdlib>
#include <set>
#include <unordered_map>
#include <vector>

#include "jit/legalize/drop_freeze.hpp"
#include "jit/legalize/type_rewrite.hpp"
#include "common/error_report.hpp"

namespace spvjit::detail {

namespace {

bool odd(llvm::Type* t) {
  if (!t->isIntegerTy()) return false;
  const unsigned w = t->getIntegerBitWidth();
  return w != 1 && w != 8 && w != 16 && w != 32 && w != 64;
}

bool holds_odd(llvm::Type* t) { return holds_type(t, odd); }

class Promoter {
 public:
  Promoter(llvm::Function& f, Where where) : f_(f), where_(where) {}

  void run() {
    TypeRewrite steps;
    steps.odd = odd;
    steps.refuse_signature = [this] { refuse_signature(); };
    steps.takes_phi = [](const llvm::PHINode& phi) { return holds_odd(phi.getType()); };
    steps.make_phi = [this](llvm::PHINode& phi) {
      check_types(phi);
      map_[&phi] = llvm::PHINode::Create(wide(phi.getType()), phi.getNumIncomingValues(),
                                         phi.getName(), &phi);
    };
    steps.fill_phi = [this](llvm::PHINode& phi) {
      auto* wide_phi = llvm::cast<llvm::PHINode>(map_.at(&phi));
      for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i) {
        wide_phi->addIncoming(get(phi.getIncomingValue(i), phi), phi.getIncomingBlock(i));
      }
    };
    steps.involved = [](const llvm::Instruction& inst) { return mentions_type(inst, odd); };
    steps.rewrite = [this](llvm::Instruction& inst) {
      check_types(inst);
      promote(inst);
    };
    rewrite_function(f_, steps, dead_);
  }

 private:
  static bool callee(const llvm::Value* v) { return llvm::isa<llvm::Function>(v); }

  // Only scalars are widened: an odd integer inside a vector or aggregate, or wider than 64
  // bits, has no next width to go to here.
  void check_types(const llvm::Instruction& inst) const {
    auto check = [&](llvm::Type* t) {
      if (odd(t) && t->getIntegerBitWidth() > 64) {
        refuse(inst, "computes with an integer wider than 64 bits");
      }
      if (!odd(t) && holds_odd(t)) {
        const bool memory = t->isPointerTy() || llvm::isa<llvm::AllocaInst>(inst);
        refuse(inst, memory ? "keeps an integer of that width in memory"
                            : "holds integers of that width in a vector or aggregate");
      }
    };
    check(inst.getType());
    for (const llvm::Use& op : inst.operands()) {
      if (!callee(op)) check(op->getType());
    }
  }

  [[noreturn]] void refuse(const llvm::Instruction& inst, const std::string& why) const {
    user_error((where_)) << "function '" << f_.getName().str() << "' " << why << " ("
                         << printed_value(inst)
                         << "); spvjit widens integers other than i1, i8, i16, i32 and i64 only "
                            "as scalar values computed in registers, up to 64 bits";
    std::abort();  // not reached: the report throws at the end of its statement
  }

  [[noreturn]] void refuse_signature() const {
    user_error((where_)) << "function '" << f_.getName().str()
                         << "' takes or returns an integer of a width SPIR-V kernels cannot hold "
                            "(expected i1, i8, i16, i32 or i64); inline it or widen the parameter";
    std::abort();  // not reached: the report throws at the end of its statement
  }

  llvm::IntegerType* wide(llvm::Type* t) const {
    const unsigned w = t->getIntegerBitWidth();
    return llvm::IntegerType::get(t->getContext(), w <= 8 ? 8 : w <= 16 ? 16 : w <= 32 ? 32 : 64);
  }

  // The promoted value standing for `v` (upper bits unspecified).
  llvm::Value* get(llvm::Value* v, const llvm::Instruction& user) {
    if (!odd(v->getType())) return v;
    llvm::IntegerType* w = wide(v->getType());
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v)) {
      return llvm::ConstantInt::get(w, c->getValue().zext(w->getBitWidth()));
    }
    if (llvm::isa<llvm::PoisonValue>(v)) return llvm::PoisonValue::get(w);
    if (llvm::isa<llvm::UndefValue>(v)) return llvm::UndefValue::get(w);
    const auto it = map_.find(v);
    if (it == map_.end()) refuse(user, "uses an odd-width value spvjit cannot widen");
    return it->second;
  }

  llvm::Value* zext(llvm::IRBuilder<>& b, llvm::Value* v, const llvm::Instruction& user) {
    llvm::Value* w = get(v, user);
    if (!odd(v->getType())) return w;
    const unsigned bits = w->getType()->getIntegerBitWidth();
    return b.CreateAnd(
        w, llvm::ConstantInt::get(
               w->getType(), llvm::APInt::getLowBitsSet(bits, v->getType()->getIntegerBitWidth())));
  }

  llvm::Value* sext(llvm::IRBuilder<>& b, llvm::Value* v, const llvm::Instruction& user) {
    llvm::Value* w = get(v, user);
    if (!odd(v->getType())) return w;
    const unsigned shift = w->getType()->getIntegerBitWidth() - v->getType()->getIntegerBitWidth();
    return b.CreateAShr(b.CreateShl(w, shift), shift);
  }

  // The result of `inst`: promoted when its type is odd, else it takes `inst`'s place now.
  void replace(llvm::Instruction& inst, llvm::Value* v) {
    if (odd(inst.getType())) {
      map_[&inst] = v;
    } else {
      inst.replaceAllUsesWith(v);
    }
    dead_.push_back(&inst);
  }

  void promote(llvm::Instruction& inst) {
    llvm::IRBuilder<> b(&inst);
    const std::string name = inst.getName().str();
    auto op = [&](unsigned i) { return inst.getOperand(i); };
    auto target = [&] { return odd(inst.getType()) ? wide(inst.getType()) : inst.getType(); };
    if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(&inst)) {
      // nuw/nsw/exact describe the narrow operation: the wide one is built without them.
      llvm::Value *l = nullptr, *r = nullptr;
      switch (bin->getOpcode()) {
        case llvm::Instruction::Add:
        case llvm::Instruction::Sub:
        case llvm::Instruction::Mul:
        case llvm::Instruction::And:
        case llvm::Instruction::Or:
        case llvm::Instruction::Xor:
          l = get(op(0), inst), r = get(op(1), inst);
          break;
        case llvm::Instruction::Shl:
          l = get(op(0), inst), r = zext(b, op(1), inst);
          break;
        case llvm::Instruction::LShr:
          l = zext(b, op(0), inst), r = zext(b, op(1), inst);
          break;
        case llvm::Instruction::AShr:
          l = sext(b, op(0), inst), r = zext(b, op(1), inst);
          break;
        case llvm::Instruction::UDiv:
        case llvm::Instruction::URem:
          l = zext(b, op(0), inst), r = zext(b, op(1), inst);
          break;
        case llvm::Instruction::SDiv:
        case llvm::Instruction::SRem:
          l = sext(b, op(0), inst), r = sext(b, op(1), inst);
          break;
        default:
          refuse(inst, "uses an operation spvjit does not widen");
      }
      return replace(inst, b.CreateBinOp(bin->getOpcode(), l, r, name));
    }
    if (auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(&inst)) {
      const bool is_signed = cmp->isSigned();
      llvm::Value* l = is_signed ? sext(b, op(0), inst) : zext(b, op(0), inst);
      llvm::Value* r = is_signed ? sext(b, op(1), inst) : zext(b, op(1), inst);
      return replace(inst, b.CreateICmp(cmp->getPredicate(), l, r, name));
    }
    switch (inst.getOpcode()) {
      case llvm::Instruction::Trunc:
        return replace(inst, b.CreateZExtOrTrunc(get(op(0), inst), target(), name));
      case llvm::Instruction::ZExt:
        return replace(inst, b.CreateZExtOrTrunc(zext(b, op(0), inst), target(), name));
      case llvm::Instruction::SExt:
        return replace(inst, b.CreateSExtOrTrunc(sext(b, op(0), inst), target(), name));
      case llvm::Instruction::UIToFP:
        return replace(inst, b.CreateUIToFP(zext(b, op(0), inst), target(), name));
      case llvm::Instruction::SIToFP:
        return replace(inst, b.CreateSIToFP(sext(b, op(0), inst), target(), name));
      case llvm::Instruction::FPToUI:
        return replace(inst, b.CreateFPToUI(op(0), target(), name));
      case llvm::Instruction::FPToSI:
        return replace(inst, b.CreateFPToSI(op(0), target(), name));
      case llvm::Instruction::PtrToInt:
        return replace(
            inst, b.CreateZExtOrTrunc(b.CreatePtrToInt(op(0), b.getInt64Ty()), target(), name));
      case llvm::Instruction::IntToPtr:
        return replace(inst, b.CreateIntToPtr(b.CreateZExt(zext(b, op(0), inst), b.getInt64Ty()),
                                              inst.getType(), name));
      case llvm::Instruction::Select:
        return replace(inst, b.CreateSelect(op(0), get(op(1), inst), get(op(2), inst), name));
      case llvm::Instruction::Freeze:  // any value refines freeze: the operand will do
        return replace(inst, get(op(0), inst));
      case llvm::Instruction::ExtractElement:
        return replace(inst, b.CreateExtractElement(op(0), zext(b, op(1), inst), name));
      case llvm::Instruction::InsertElement:
        return replace(inst, b.CreateInsertElement(op(0), op(1), zext(b, op(2), inst), name));
      case llvm::Instruction::Switch: {
        auto& sw = llvm::cast<llvm::SwitchInst>(inst);
        llvm::IntegerType* w = wide(sw.getCondition()->getType());
        sw.setCondition(zext(b, sw.getCondition(), inst));
        for (auto c : sw.cases()) {
          c.setValue(llvm::ConstantInt::get(sw.getContext(),
                                            c.getCaseValue()->getValue().zext(w->getBitWidth())));
        }
        return;
      }
      case llvm::Instruction::GetElementPtr:
        // Indices are signed.
        for (unsigned i = 1; i < inst.getNumOperands(); ++i) {
          if (odd(op(i)->getType())) inst.setOperand(i, sext(b, op(i), inst));
        }
        return;
      case llvm::Instruction::Call:
        return promote_call(llvm::cast<llvm::CallInst>(inst), b);
      case llvm::Instruction::Load:
      case llvm::Instruction::Store:
      case llvm::Instruction::AtomicRMW:
      case llvm::Instruction::AtomicCmpXchg:
        refuse(inst, "keeps an integer of that width in memory");
      default:
        refuse(inst, "uses an operation spvjit does not widen");
    }
  }

  void promote_call(llvm::CallInst& call, llvm::IRBuilder<>& b) {
    const llvm::Function* callee = call.getCalledFunction();
    const llvm::Intrinsic::ID id =
        callee ? callee->getIntrinsicID() : llvm::Intrinsic::not_intrinsic;
    const std::string name = call.getName().str();
    auto arg = [&](unsigned i) { return call.getArgOperand(i); };
    if (!odd(call.getType())) refuse(call, "passes an integer of that width to a call");
    const unsigned narrow = call.getType()->getIntegerBitWidth();
    llvm::IntegerType* w = wide(call.getType());
    switch (id) {
      case llvm::Intrinsic::ctpop:
        return replace(call, b.CreateUnaryIntrinsic(id, zext(b, arg(0), call), nullptr, name));
      case llvm::Intrinsic::ctlz: {
        // The wide value's extra high bits are zeros, counted too.
        llvm::Value* count = b.CreateBinaryIntrinsic(id, zext(b, arg(0), call), arg(1));
        return replace(
            call, b.CreateSub(count, llvm::ConstantInt::get(w, w->getBitWidth() - narrow), name));
      }
      case llvm::Intrinsic::cttz: {
        // A bit just above the narrow value: zero counts `narrow` trailing zeros.
        llvm::Value* guarded = b.CreateOr(
            zext(b, arg(0), call),
            llvm::ConstantInt::get(w, llvm::APInt::getOneBitSet(w->getBitWidth(), narrow)));
        return replace(call, b.CreateBinaryIntrinsic(id, guarded, b.getTrue(), nullptr, name));
      }
      case llvm::Intrinsic::abs:
        // abs of the narrow minimum is the minimum again: so with the poison flag off here.
        return replace(
            call, b.CreateBinaryIntrinsic(id, sext(b, arg(0), call), b.getFalse(), nullptr, name));
      case llvm::Intrinsic::smax:
      case llvm::Intrinsic::smin:
        return replace(call, b.CreateBinaryIntrinsic(id, sext(b, arg(0), call),
                                                     sext(b, arg(1), call), nullptr, name));
      case llvm::Intrinsic::umax:
      case llvm::Intrinsic::umin:
        return replace(call, b.CreateBinaryIntrinsic(id, zext(b, arg(0), call),
                                                     zext(b, arg(1), call), nullptr, name));
      default:
        refuse(call, "passes an integer of that width to a call");
    }
  }

  llvm::Function& f_;
  Where where_;
  std::unordered_map<llvm::Value*, llvm::Value*> map_;
  std::vector<llvm::Instruction*> dead_;
};

}  // namespace

void promote_odd_integers(llvm::Module& m, Where where) {
  for (const auto& g : m.globals()) {
    user_assert(!holds_odd(g.getValueType()), (where))
        << "global '" << g.getName().str()
        << "' holds integers of a width SPIR-V kernels cannot hold (expected i1, i8, i16, i32 or "
           "i64)";
  }
  for (auto& f : m) {
    if (!f.isDeclaration()) Promoter(f, where).run();
  }
}

}  // namespace spvjit::detail
