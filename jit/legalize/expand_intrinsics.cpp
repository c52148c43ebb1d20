#include "jit/legalize/expand_intrinsics.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace spvjit::detail {

namespace {

using llvm::Intrinsic::ID;

// The lanes of `v`, one scalar each.
std::vector<llvm::Value*> lanes_of(llvm::IRBuilder<>& b, llvm::Value* v) {
  const unsigned n = llvm::cast<llvm::FixedVectorType>(v->getType())->getNumElements();
  std::vector<llvm::Value*> out;
  for (unsigned i = 0; i < n; ++i) out.push_back(b.CreateExtractElement(v, b.getInt64(i)));
  return out;
}

// An in-order fold of the lanes: for the floating-point sums this is the sequential order the
// intrinsic defines without `reassoc`, and a valid one with it.
llvm::Value* reduce(llvm::IRBuilder<>& b, llvm::CallInst& call, ID id) {
  const bool ordered =
      id == llvm::Intrinsic::vector_reduce_fadd || id == llvm::Intrinsic::vector_reduce_fmul;
  const auto lanes = lanes_of(b, call.getArgOperand(ordered ? 1 : 0));
  llvm::Value* acc = ordered ? call.getArgOperand(0) : lanes[0];
  if (llvm::isa<llvm::FPMathOperator>(call)) b.setFastMathFlags(call.getFastMathFlags());
  for (std::size_t i = ordered ? 0 : 1; i < lanes.size(); ++i) {
    llvm::Value* x = lanes[i];
    switch (id) {
      case llvm::Intrinsic::vector_reduce_add:
        acc = b.CreateAdd(acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_mul:
        acc = b.CreateMul(acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_and:
        acc = b.CreateAnd(acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_or:
        acc = b.CreateOr(acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_xor:
        acc = b.CreateXor(acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_smax:
        acc = b.CreateSelect(b.CreateICmpSGT(acc, x), acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_smin:
        acc = b.CreateSelect(b.CreateICmpSLT(acc, x), acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_umax:
        acc = b.CreateSelect(b.CreateICmpUGT(acc, x), acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_umin:
        acc = b.CreateSelect(b.CreateICmpULT(acc, x), acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_fadd:
        acc = b.CreateFAdd(acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_fmul:
        acc = b.CreateFMul(acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_fmax:
        acc = b.CreateMaxNum(acc, x);
        break;
      case llvm::Intrinsic::vector_reduce_fmin:
        acc = b.CreateMinNum(acc, x);
        break;
      default:
        return nullptr;
    }
  }
  return acc;
}

// The sign bit set where signed a+b (add) or a-b (!add) overflows, as `r`'s sign.
llvm::Value* signed_overflow(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* x, llvm::Value* r,
                             bool add) {
  // add: a and x agree in sign and r does not; sub: a and x differ and r differs from a.
  llvm::Value* bits = add ? b.CreateAnd(b.CreateXor(r, a), b.CreateXor(r, x))
                          : b.CreateAnd(b.CreateXor(a, x), b.CreateXor(a, r));
  return b.CreateICmpSLT(bits, llvm::Constant::getNullValue(bits->getType()));
}

llvm::Value* saturating(llvm::IRBuilder<>& b, llvm::CallInst& call, ID id) {
  llvm::Value* a = call.getArgOperand(0);
  llvm::Value* x = call.getArgOperand(1);
  llvm::Type* t = a->getType();
  const unsigned bits = t->getScalarSizeInBits();
  switch (id) {
    case llvm::Intrinsic::uadd_sat: {
      llvm::Value* s = b.CreateAdd(a, x);
      return b.CreateSelect(b.CreateICmpULT(s, a), llvm::Constant::getAllOnesValue(t), s);
    }
    case llvm::Intrinsic::usub_sat:
      return b.CreateSelect(b.CreateICmpUGT(a, x), b.CreateSub(a, x),
                            llvm::Constant::getNullValue(t));
    case llvm::Intrinsic::sadd_sat:
    case llvm::Intrinsic::ssub_sat: {
      const bool add = id == llvm::Intrinsic::sadd_sat;
      llvm::Value* r = add ? b.CreateAdd(a, x) : b.CreateSub(a, x);
      // Overflow goes past the end a's sign points to.
      llvm::Value* limit =
          b.CreateSelect(b.CreateICmpSLT(a, llvm::Constant::getNullValue(t)),
                         llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(bits)),
                         llvm::ConstantInt::get(t, llvm::APInt::getSignedMaxValue(bits)));
      return b.CreateSelect(signed_overflow(b, a, x, r, add), limit, r);
    }
    default:
      return nullptr;
  }
}

// {result, overflowed}: the two values the call's extractvalue users read.
std::pair<llvm::Value*, llvm::Value*> with_overflow(llvm::IRBuilder<>& b, llvm::CallInst& call,
                                                    ID id) {
  llvm::Value* a = call.getArgOperand(0);
  llvm::Value* x = call.getArgOperand(1);
  switch (id) {
    case llvm::Intrinsic::uadd_with_overflow: {
      llvm::Value* s = b.CreateAdd(a, x);
      return {s, b.CreateICmpULT(s, a)};
    }
    case llvm::Intrinsic::usub_with_overflow:
      return {b.CreateSub(a, x), b.CreateICmpULT(a, x)};
    case llvm::Intrinsic::sadd_with_overflow: {
      llvm::Value* s = b.CreateAdd(a, x);
      return {s, signed_overflow(b, a, x, s, true)};
    }
    case llvm::Intrinsic::ssub_with_overflow: {
      llvm::Value* d = b.CreateSub(a, x);
      return {d, signed_overflow(b, a, x, d, false)};
    }
    default:
      return {nullptr, nullptr};
  }
}

bool translatable_width(llvm::Type* t) {
  const unsigned w = t->getScalarSizeInBits();
  return w == 8 || w == 16 || w == 32 || w == 64;
}

// fshl(a, x, s) = (a << s%w) | (x >> (w - s%w)); fshr(a, x, s) = (a << (w - s%w)) | (x >> s%w);
// a shift by 0 leaves a (fshl) or x (fshr) whole, and shifting by w would be poison.
llvm::Value* funnel_shift(llvm::IRBuilder<>& b, llvm::CallInst& call, bool left) {
  llvm::Value* a = call.getArgOperand(0);
  llvm::Value* x = call.getArgOperand(1);
  llvm::Type* t = a->getType();
  llvm::Value* width = llvm::ConstantInt::get(t, t->getScalarSizeInBits());
  llvm::Value* s = b.CreateURem(call.getArgOperand(2), width);
  llvm::Value* rest = b.CreateSub(width, s);
  llvm::Value* joined = left ? b.CreateOr(b.CreateShl(a, s), b.CreateLShr(x, rest))
                             : b.CreateOr(b.CreateShl(a, rest), b.CreateLShr(x, s));
  return b.CreateSelect(b.CreateICmpEQ(s, llvm::Constant::getNullValue(t)), left ? a : x, joined);
}

// Replaces the call by plain IR; false for a call the translator takes as it is.
bool expand(llvm::CallInst& call) {
  const llvm::Function* callee = call.getCalledFunction();
  if (!callee || !callee->isIntrinsic()) return false;
  const ID id = callee->getIntrinsicID();
  llvm::IRBuilder<> b(&call);
  llvm::Value* replacement = nullptr;
  switch (id) {
    case llvm::Intrinsic::vector_reduce_add:
    case llvm::Intrinsic::vector_reduce_mul:
    case llvm::Intrinsic::vector_reduce_and:
    case llvm::Intrinsic::vector_reduce_or:
    case llvm::Intrinsic::vector_reduce_xor:
    case llvm::Intrinsic::vector_reduce_smax:
    case llvm::Intrinsic::vector_reduce_smin:
    case llvm::Intrinsic::vector_reduce_umax:
    case llvm::Intrinsic::vector_reduce_umin:
    case llvm::Intrinsic::vector_reduce_fadd:
    case llvm::Intrinsic::vector_reduce_fmul:
    case llvm::Intrinsic::vector_reduce_fmax:
    case llvm::Intrinsic::vector_reduce_fmin:
      if (!llvm::isa<llvm::FixedVectorType>(call.getArgOperand(call.arg_size() - 1)->getType())) {
        return false;
      }
      replacement = reduce(b, call, id);
      break;
    case llvm::Intrinsic::uadd_sat:
    case llvm::Intrinsic::usub_sat:
    case llvm::Intrinsic::sadd_sat:
    case llvm::Intrinsic::ssub_sat:
      replacement = saturating(b, call, id);
      break;
    case llvm::Intrinsic::fshl:
    case llvm::Intrinsic::fshr:
      if (translatable_width(call.getType())) return false;
      replacement = funnel_shift(b, call, id == llvm::Intrinsic::fshl);
      break;
    case llvm::Intrinsic::uadd_with_overflow:
    case llvm::Intrinsic::usub_with_overflow:
    case llvm::Intrinsic::sadd_with_overflow:
    case llvm::Intrinsic::ssub_with_overflow: {
      const auto [result, overflowed] = with_overflow(b, call, id);
      // Readers take the fields apart; anything else gets the pair built.
      for (llvm::User* user : llvm::SmallVector<llvm::User*, 4>(call.users())) {
        auto* field = llvm::dyn_cast<llvm::ExtractValueInst>(user);
        if (field && field->getNumIndices() == 1) {
          field->replaceAllUsesWith(field->getIndices()[0] == 0 ? result : overflowed);
          field->eraseFromParent();
        }
      }
      if (!call.use_empty()) {
        llvm::Value* pair = llvm::UndefValue::get(call.getType());
        pair = b.CreateInsertValue(pair, result, {0});
        replacement = b.CreateInsertValue(pair, overflowed, {1});
      }
      call.replaceAllUsesWith(replacement ? replacement : llvm::PoisonValue::get(call.getType()));
      call.eraseFromParent();
      return true;
    }
    default:
      return false;
  }
  if (!replacement) return false;
  call.replaceAllUsesWith(replacement);
  call.eraseFromParent();
  return true;
}

}  // namespace

unsigned expand_untranslatable_intrinsics(llvm::Module& m) {
  std::vector<llvm::CallInst*> calls;
  for (auto& f : m) {
    if (!f.isIntrinsic()) continue;
    for (llvm::User* user : f.users()) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(user)) calls.push_back(call);
    }
  }
  unsigned expanded = 0;
  for (auto* call : calls) expanded += expand(*call);
  return expanded;
}

}  // namespace spvjit::detail
