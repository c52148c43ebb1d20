#include "jit/coarsen/strips.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <cstdint>
#include <utility>

#include "ir/kernel_module.hpp"
#include "jit/coarsen/analysis.hpp"

namespace spvjit::detail {

namespace {

// Bound expressions the dispatcher computes again: a few arithmetic steps over arguments and
// constants (`n - 1`, `size(u, 0) - 2 * r`), not anything that reads memory or the work-item.
constexpr unsigned max_bound_steps = 8;

bool rematerializable(const llvm::Value* v, unsigned& steps) {
  if (llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::ConstantInt>(v)) return true;
  const auto* op = llvm::dyn_cast<llvm::BinaryOperator>(v);
  if (!op || ++steps > max_bound_steps) return false;
  switch (op->getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
    case llvm::Instruction::Mul:
    case llvm::Instruction::Shl:
      break;
    default:
      return false;
  }
  return rematerializable(op->getOperand(0), steps) && rematerializable(op->getOperand(1), steps);
}

bool rematerializable(const llvm::Value* v) {
  unsigned steps = 0;
  return v->getType()->isIntegerTy(64) && rematerializable(v, steps);
}

// The leaves of an `and` tree of i1 values: each must hold where the whole does.
void conjuncts(llvm::Value* v, llvm::SmallVectorImpl<llvm::Value*>& out) {
  if (auto* op = llvm::dyn_cast<llvm::BinaryOperator>(v);
      op && op->getOpcode() == llvm::Instruction::And && op->getType()->isIntegerTy(1)) {
    conjuncts(op->getOperand(0), out);
    conjuncts(op->getOperand(1), out);
    return;
  }
  out.push_back(v);
}

// Whether every path from `from` returns without an effect: the side of the guard that does
// nothing.
bool does_nothing_from(llvm::BasicBlock* from) {
  llvm::SmallVector<llvm::BasicBlock*, 4> work{from};
  llvm::SmallPtrSet<llvm::BasicBlock*, 8> seen{from};
  while (!work.empty()) {
    llvm::BasicBlock* block = work.pop_back_val();
    for (llvm::Instruction& inst : *block) {
      if (inst.mayWriteToMemory()) return false;
    }
    for (llvm::BasicBlock* next : llvm::successors(block)) {
      if (seen.insert(next).second) work.push_back(next);
    }
  }
  return true;
}

// Where a pointer points, for the rerun rule: a private variable, a constant, or an argument.
enum class Memory { Private, Constant, ReadOnlyArgument, Other };

Memory memory_of(const llvm::Value* pointer) {
  const llvm::Value* base = llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0);
  if (llvm::isa<llvm::AllocaInst>(base)) return Memory::Private;
  if (const auto* global = llvm::dyn_cast<llvm::GlobalVariable>(base);
      global && global->isConstant()) {
    return Memory::Constant;
  }
  if (const auto* arg = llvm::dyn_cast<llvm::Argument>(base);
      arg && arg->hasNoAliasAttr() && arg->onlyReadsMemory()) {
    return Memory::ReadOnlyArgument;
  }
  return Memory::Other;
}

}  // namespace

GuardRange find_guard_range(llvm::Function& kernel, const llvm::Value* extent0) {
  GuardRange range;
  // The guard's block: the entry, or the end of a chain of blocks from it, none of which has an
  // effect (an effect before the test would be every index's, those the strip skips included).
  llvm::BasicBlock* block = &kernel.getEntryBlock();
  for (;;) {
    for (llvm::Instruction& inst : *block) {
      if (inst.mayWriteToMemory()) return range;
    }
    llvm::BasicBlock* next = block->getSingleSuccessor();
    if (!next || !next->getSinglePredecessor()) break;
    block = next;
  }
  auto* branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
  if (!branch || !branch->isConditional() || !does_nothing_from(branch->getSuccessor(1))) {
    return range;
  }
  llvm::SmallVector<llvm::Value*, 8> leaves;
  conjuncts(branch->getCondition(), leaves);
  for (llvm::Value* leaf : leaves) {
    auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(leaf);
    if (!cmp || !cmp->isSigned()) continue;
    // As `get_global_id(0) <pred> bound`.
    llvm::CmpInst::Predicate pred = cmp->getPredicate();
    llvm::Value* bound = cmp->getOperand(1);
    if (!is_global_id0(cmp->getOperand(0))) {
      if (!is_global_id0(cmp->getOperand(1))) continue;
      pred = cmp->getSwappedPredicate();
      bound = cmp->getOperand(0);
    }
    if (!rematerializable(bound)) continue;
    switch (pred) {
      case llvm::CmpInst::ICMP_SGE:
      case llvm::CmpInst::ICMP_SGT:
        range.lows.push_back({bound, pred == llvm::CmpInst::ICMP_SGT});
        range.conjuncts.push_back(cmp);
        range.interior = true;
        break;
      case llvm::CmpInst::ICMP_SLT:
      case llvm::CmpInst::ICMP_SLE:
        range.highs.push_back({bound, pred == llvm::CmpInst::ICMP_SLE});
        range.conjuncts.push_back(cmp);
        if (bound != extent0) range.interior = true;
        break;
      default:
        break;
    }
  }
  return range;
}

llvm::Function* interior_copy(llvm::Function& kernel, const GuardRange& guard,
                              llvm::ValueToValueMapTy& map) {
  llvm::Function* copy = llvm::CloneFunction(&kernel, map);
  copy->setName(kernel.getName() + ".interior");
  for (llvm::Instruction* conjunct : guard.conjuncts) {
    auto* in_copy = llvm::cast<llvm::Instruction>(map[conjunct]);
    in_copy->replaceAllUsesWith(llvm::ConstantInt::getTrue(kernel.getContext()));
    in_copy->eraseFromParent();
  }
  return copy;
}

std::string lanes_rerun_problem(llvm::Function& kernel) {
  for (llvm::BasicBlock& block : kernel) {
    for (llvm::Instruction& inst : block) {
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
        if (memory_of(load->getPointerOperand()) == Memory::Other) {
          return "loads memory that is not a noalias read-only argument (a ConstArray), private "
                 "or constant, which its stores might change";
        }
      } else if (llvm::isa<llvm::AtomicRMWInst>(inst) || llvm::isa<llvm::AtomicCmpXchgInst>(inst) ||
                 llvm::isa<llvm::FenceInst>(inst)) {
        return "has atomics or fences";
      } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
        const llvm::Function* callee = call->getCalledFunction();
        if (!callee) return "makes an indirect call";
        if (call->doesNotAccessMemory() || callee->getName().startswith(marker_report)) continue;
        if (call->onlyAccessesArgMemory()) {
          bool private_only = true;
          for (const llvm::Use& arg : call->args()) {
            if (arg->getType()->isPointerTy() && memory_of(arg) != Memory::Private) {
              private_only = false;
            }
          }
          if (private_only) continue;
        }
        return "calls " + callee->getName().str() + ", which may read or write global memory";
      }
    }
  }
  return {};
}

namespace {

llvm::Value* rematerialize(llvm::IRBuilderBase& b, llvm::Value* v) {
  if (llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::Constant>(v)) return v;
  auto* op = llvm::cast<llvm::BinaryOperator>(v);
  llvm::Value* lhs = rematerialize(b, op->getOperand(0));
  llvm::Value* rhs = rematerialize(b, op->getOperand(1));
  auto* copy = b.CreateBinOp(op->getOpcode(), lhs, rhs, op->getName());
  if (auto* inst = llvm::dyn_cast<llvm::Instruction>(copy)) inst->copyIRFlags(op);
  return copy;
}

}  // namespace

llvm::Value* emit_bound(llvm::IRBuilderBase& b, const GuardBound& bound, bool upper) {
  llvm::Value* v = rematerialize(b, bound.value);
  if (!bound.plus_one) return v;
  llvm::Value* next = b.CreateAdd(v, b.getInt64(1));
  if (!upper) return next;  // a lower bound that wraps lets every index in: the body tests it
  llvm::Value* largest = b.getInt64(INT64_MAX);
  return b.CreateSelect(b.CreateICmpEQ(v, largest), largest, next);
}

bool index_first_lane(llvm::Function& body, unsigned width) {
  llvm::Argument* index = body.getArg(body.arg_size() - 1);
  if (!index->hasOneUse()) return false;
  auto* base = llvm::dyn_cast<llvm::BinaryOperator>(*index->user_begin());
  auto* times = base ? llvm::dyn_cast<llvm::ConstantInt>(base->getOperand(1)) : nullptr;
  if (!base || base->getOpcode() != llvm::Instruction::Mul || base->getOperand(0) != index ||
      !times || times->getZExtValue() != width) {
    return false;
  }
  base->replaceAllUsesWith(index);
  base->eraseFromParent();
  index->setName("first.lane");
  return true;
}

std::pair<llvm::Value*, llvm::Value*> accepted_part(llvm::IRBuilderBase& b, llvm::Value* first,
                                                    llvm::Value* stop,
                                                    const std::vector<llvm::Value*>& lows,
                                                    const std::vector<llvm::Value*>& highs) {
  // Signed: a bound may be negative (n - 1 of an empty grid); first and stop are indices.
  llvm::Value* from = first;
  for (llvm::Value* low : lows) from = b.CreateSelect(b.CreateICmpSGT(low, from), low, from);
  llvm::Value* to = stop;
  for (llvm::Value* high : highs) to = b.CreateSelect(b.CreateICmpSLT(high, to), high, to);
  return {from, to};
}

void emit_strip(llvm::IRBuilderBase& b, llvm::Value* from, llvm::Value* to,
                llvm::Function* vector_body, llvm::Function* scalar_body, unsigned width,
                CallBody call) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Function* kernel = b.GetInsertBlock()->getParent();
  llvm::Value* w = b.getInt64(width);
  auto* head = llvm::BasicBlock::Create(ctx, "strip.head", kernel);
  auto* test = llvm::BasicBlock::Create(ctx, "strip.test", kernel);
  auto* vectors = llvm::BasicBlock::Create(ctx, "strip.vectors", kernel);
  auto* last = llvm::BasicBlock::Create(ctx, "strip.last", kernel);
  auto* overlap = llvm::BasicBlock::Create(ctx, "strip.overlap", kernel);
  auto* narrow = llvm::BasicBlock::Create(ctx, "strip.narrow", kernel);
  auto* after = llvm::BasicBlock::Create(ctx, "strip.done", kernel);
  // to - from cannot overflow: both lie in [min(bounds), stop].
  b.CreateCondBr(b.CreateICmpSGE(b.CreateSub(to, from), w), head, narrow);

  // The first vector where the part starts; the others where the unstripped kernel's start (at
  // multiples of W: the middle index's loads and the store at whole vectors of the buffer, not
  // split across cache lines), the first of them overlapping it unless the part starts there.
  b.SetInsertPoint(head);
  call(b, vector_body, from);
  llvm::Value* aligned =
      b.CreateAnd(b.CreateAdd(from, w, "", true, true), b.getInt64(-std::int64_t{width}));
  b.CreateBr(test);
  b.SetInsertPoint(test);
  auto* x = b.CreatePHI(b.getInt64Ty(), 2, "strip.x");
  x->addIncoming(aligned, head);
  b.CreateCondBr(b.CreateICmpSLE(b.CreateAdd(x, w, "", true, true), to), vectors, last);
  b.SetInsertPoint(vectors);
  // The index through a volatile private slot: an induction variable LLVM's loop strength
  // reduction (in PoCL's compile) cannot see. Seen, it makes one pointer per access stream and
  // keeps them on the stack when they outnumber the registers (27 for a 27-point stencil:
  // measured 1.5x slower than a work-item per vector); PoCL's own work-item loop keeps its index
  // in memory too.
  llvm::IRBuilderBase::InsertPoint at = b.saveIP();
  b.SetInsertPoint(&kernel->getEntryBlock(), kernel->getEntryBlock().getFirstInsertionPt());
  llvm::AllocaInst* slot = b.CreateAlloca(b.getInt64Ty(), nullptr, "strip.slot");
  b.restoreIP(at);
  b.CreateStore(x, slot, /*isVolatile=*/true);
  llvm::Value* opaque = b.CreateLoad(b.getInt64Ty(), slot, /*isVolatile=*/true, "strip.at");
  call(b, vector_body, opaque);
  x->addIncoming(b.CreateAdd(opaque, w, "", /*HasNUW=*/true, /*HasNSW=*/true), vectors);
  b.CreateBr(test);

  // The rest, fewer than W: one vector ending at `to`, its first lanes run again.
  b.SetInsertPoint(last);
  b.CreateCondBr(b.CreateICmpSLT(x, to), overlap, after);
  b.SetInsertPoint(overlap);
  call(b, vector_body, b.CreateSub(to, w));
  b.CreateBr(after);

  b.SetInsertPoint(narrow);
  emit_index_loop(b, from, to, scalar_body, call, after);
  b.SetInsertPoint(after);
}

void emit_index_loop(llvm::IRBuilderBase& b, llvm::Value* from, llvm::Value* to,
                     llvm::Function* scalar_body, CallBody call, llvm::BasicBlock* after) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Function* kernel = b.GetInsertBlock()->getParent();
  llvm::BasicBlock* before = b.GetInsertBlock();
  auto* loop = llvm::BasicBlock::Create(ctx, "indices", kernel);
  auto* body = llvm::BasicBlock::Create(ctx, "indices.body", kernel);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  auto* i = b.CreatePHI(b.getInt64Ty(), 2, "i");
  i->addIncoming(from, before);
  b.CreateCondBr(b.CreateICmpSLT(i, to), body, after);
  b.SetInsertPoint(body);
  call(b, scalar_body, i);
  i->addIncoming(b.CreateAdd(i, b.getInt64(1), "", true, true), body);
  b.CreateBr(loop);
}

}  // namespace spvjit::detail
