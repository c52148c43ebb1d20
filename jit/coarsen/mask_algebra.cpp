#include "jit/coarsen/mask_algebra.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <utility>

namespace spvjit::detail {

llvm::Value* MaskAlgebra::or_else(llvm::IRBuilder<>& b, llvm::Value* first,
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

llvm::Value* MaskAlgebra::mask_of(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
  return v_.vector_of(b, v_.masks.at(inst).mask);
}

llvm::Value* MaskAlgebra::reduce_lanes(llvm::IRBuilder<>& b, llvm::Value* lanes, bool all) {
  return fold_lanes(b, lanes, [&](llvm::Value* x, llvm::Value* y) {
    return all ? b.CreateAnd(x, y) : b.CreateOr(x, y);
  });
}

llvm::Value* MaskAlgebra::all_of(llvm::IRBuilder<>& b, llvm::Value* lanes) {
  return reduce_lanes(b, lanes, true);
}

llvm::Value* MaskAlgebra::any_of(llvm::IRBuilder<>& b, llvm::Value* lanes) {
  return reduce_lanes(b, lanes, false);
}

llvm::Value* MaskAlgebra::every_lane(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
  return every_lane_of(b, v_.masks.at(inst).mask);
}

llvm::Value* MaskAlgebra::every_lane_of(llvm::IRBuilder<>& b, llvm::Value* mask) {
  llvm::Value* vector = v_.vector_of(b, mask);
  if (llvm::Value* sure = sure_all(mask)) {
    return or_else(b, sure, [&](llvm::IRBuilder<>& t) { return all_of(t, vector); });
  }
  return all_of(b, vector);
}

llvm::Value* MaskAlgebra::no_lane_of(llvm::IRBuilder<>& b, llvm::Value* mask) {
  llvm::Value* vector = v_.vector_of(b, mask);
  if (llvm::Value* sure = sure_none(mask)) {
    return or_else(b, sure, [&](llvm::IRBuilder<>& t) { return t.CreateNot(any_of(t, vector)); });
  }
  return b.CreateNot(any_of(b, vector));
}

llvm::Value* MaskAlgebra::sure_all(llvm::Value* v) const {
  if (!v_.vectors.count(v)) return v->getType()->isIntegerTy(1) ? v : nullptr;  // uniform
  auto it = sure_all_.find(v);
  return it != sure_all_.end() ? it->second : nullptr;
}

llvm::Value* MaskAlgebra::sure_none(llvm::Value* v) const {
  if (!v_.vectors.count(v)) {
    if (!v->getType()->isIntegerTy(1)) return nullptr;
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v)) {
      return llvm::ConstantInt::getBool(v->getContext(), c->isZero());
    }
    return nullptr;  // uniform but not a constant: no instruction to put its negation after
  }
  auto it = sure_none_.find(v);
  return it != sure_none_.end() ? it->second : nullptr;
}

void MaskAlgebra::note_sure_all(llvm::IRBuilder<>& b, llvm::Instruction* inst) {
  if (auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(inst)) {
    llvm::Value* x = cmp->getOperand(0);
    llvm::Value* bound = cmp->getOperand(1);
    auto predicate = cmp->getPredicate();
    if (!v_.is_consecutive(x)) {
      std::swap(x, bound);
      predicate = llvm::CmpInst::getSwappedPredicate(predicate);
    }
    if (!v_.is_consecutive(x) || v_.vectors.count(bound) || !cmp->isRelational()) return;
    llvm::Value* first = v_.first_of(x);
    llvm::Value* last = b.CreateAdd(first, llvm::ConstantInt::get(first->getType(), v_.width - 1));
    llvm::Value* no_wrap =
        cmp->isSigned() ? b.CreateICmpSLE(first, last) : b.CreateICmpULE(first, last);
    sure_all_[inst] = b.CreateAnd(no_wrap, b.CreateAnd(b.CreateICmp(predicate, first, bound),
                                                       b.CreateICmp(predicate, last, bound)));
    // No lane: every lane satisfies the inverse comparison.
    const auto inverse = llvm::CmpInst::getInversePredicate(predicate);
    sure_none_[inst] = b.CreateAnd(no_wrap, b.CreateAnd(b.CreateICmp(inverse, first, bound),
                                                        b.CreateICmp(inverse, last, bound)));
    return;
  }
  if (auto* sel = llvm::dyn_cast<llvm::SelectInst>(inst)) {
    // A uniform choice between two tests known to pass (or fail) for every lane.
    llvm::Value* which = sel->getCondition();
    if (v_.vectors.count(which) || !sel->getType()->isIntegerTy(1)) return;
    if (llvm::Value* yes = sure_all(sel->getTrueValue()), *no = sure_all(sel->getFalseValue());
        yes && no) {
      sure_all_[inst] = b.CreateSelect(which, yes, no);
    }
    if (llvm::Value* yes = sure_none(sel->getTrueValue()), *no = sure_none(sel->getFalseValue());
        yes && no) {
      sure_none_[inst] = b.CreateSelect(which, yes, no);
    }
    return;
  }
  auto* op = llvm::dyn_cast<llvm::BinaryOperator>(inst);
  if (!op || !op->getType()->isIntegerTy(1)) return;
  llvm::Value* left = sure_all(op->getOperand(0));
  llvm::Value* right = sure_all(op->getOperand(1));
  llvm::Value* left_none = sure_none(op->getOperand(0));
  llvm::Value* right_none = sure_none(op->getOperand(1));
  // A lane is in `x & y` only where it is in both, in `x | y` where it is in either.
  auto both = [&](llvm::Value* l, llvm::Value* r) -> llvm::Value* {
    return l && r ? b.CreateAnd(l, r) : nullptr;
  };
  auto either = [&](llvm::Value* l, llvm::Value* r) -> llvm::Value* {
    return l && r ? b.CreateOr(l, r) : (l ? l : r);
  };
  if (op->getOpcode() == llvm::Instruction::And) {
    if (auto* s = both(left, right)) sure_all_[inst] = s;
    if (auto* s = either(left_none, right_none)) sure_none_[inst] = s;
  } else if (op->getOpcode() == llvm::Instruction::Or) {
    if (auto* s = either(left, right)) sure_all_[inst] = s;
    if (auto* s = both(left_none, right_none)) sure_none_[inst] = s;
  } else if (op->getOpcode() == llvm::Instruction::Xor) {
    // `not x`: every lane where x has none, none where x has every lane.
    auto* ones = llvm::dyn_cast<llvm::Constant>(op->getOperand(1));
    if (!ones || !ones->isAllOnesValue()) return;
    if (left_none) sure_all_[inst] = left_none;
    if (left) sure_none_[inst] = left;
  }
}

void MaskAlgebra::for_active_lanes(
    llvm::Instruction* end, llvm::Value* mask,
    llvm::function_ref<void(llvm::IRBuilder<>&, llvm::Value*)> body) {
  auto& ctx = v_.f.getContext();
  llvm::BasicBlock* before = end->getParent();
  llvm::BasicBlock* after = before->splitBasicBlock(end, "lanes.done");
  auto* header = llvm::BasicBlock::Create(ctx, "lanes", &v_.f, after);
  auto* active = llvm::BasicBlock::Create(ctx, "lane.active", &v_.f, after);
  auto* next = llvm::BasicBlock::Create(ctx, "lanes.next", &v_.f, after);
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
  b.CreateCondBr(b.CreateICmpULT(following, b.getInt64(v_.width)), header, after);
}

LaneRun MaskAlgebra::lane_run(llvm::IRBuilder<>& b, llvm::Value* mask) {
  auto* i32 = b.getInt32Ty();
  std::vector<llvm::Constant*> numbers, ends;
  for (unsigned l = 0; l < v_.width; ++l) {
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
      b, b.CreateSelect(mask, lane, b.CreateVectorSplat(v_.width, b.getInt32(v_.width))), min);
  llvm::Value* end = fold_lanes(
      b, b.CreateSelect(mask, after_lane, llvm::Constant::getNullValue(lane->getType())), max);
  llvm::Value* count =
      fold_lanes(b, b.CreateZExt(mask, lane->getType()),
                 [&](llvm::Value* x, llvm::Value* y) { return b.CreateAdd(x, y); });
  llvm::Value* is_run = b.CreateAnd(b.CreateICmpEQ(b.CreateSub(end, first), count),
                                    b.CreateICmpULT(count, b.getInt32(v_.width)));
  return {b.CreateZExt(first, b.getInt64Ty()), b.CreateZExt(count, b.getInt64Ty()), is_run};
}

}  // namespace spvjit::detail
