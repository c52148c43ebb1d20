#include "jit/bounds/merge_bounds.hpp"

#include <llvm/ADT/DepthFirstIterator.h>
#include <llvm/ADT/MapVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>

#include <map>
#include <vector>

#include "ir/analysis/synchronizing.hpp"
#include "ir/cse.hpp"
#include "ir/kernel_module.hpp"

namespace spvjit::detail {

namespace {

const llvm::Function* callee_of(const llvm::Instruction& inst) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
  return call ? call->getCalledFunction() : nullptr;
}

bool is_marker(const llvm::Instruction& inst, const char* prefix) {
  const llvm::Function* f = callee_of(inst);
  return f && f->getName().startswith(prefix);
}

// The block a failing check branches to (ir/bounds.cpp, guarded_access): its report, then a
// branch back to the access's join. Null when `block` is not one.
llvm::CallInst* report_of(llvm::BasicBlock& block) {
  auto* br = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
  if (!br || br->isConditional()) return nullptr;
  auto* last = br->getPrevNode();
  if (!last || !is_marker(*last, marker_report)) return nullptr;
  return llvm::cast<llvm::CallInst>(last);
}

// The return of a function left at a failing access: what a failed read gave, zero.
void return_early(llvm::IRBuilder<>& b, llvm::Type* result) {
  if (result->isVoidTy()) {
    b.CreateRetVoid();
  } else {
    b.CreateRet(llvm::Constant::getNullValue(result));
  }
}

}  // namespace

void fold_and_merge_blocks(llvm::Function& f) {
  for (auto& block : f) llvm::ConstantFoldTerminator(&block);
  llvm::removeUnreachableBlocks(f);
  for (auto it = f.begin(); it != f.end();) {
    llvm::BasicBlock* block = &*it++;
    // Merging `block` into its predecessor leaves the iterator on the block after it.
    llvm::MergeBlockIntoPredecessor(block);
  }
}

namespace {

// Report paths end the function: the value a failed read gave is never used, and every path
// that goes on has passed the check.
void end_function_at_reports(llvm::Function& f) {
  std::vector<llvm::BasicBlock*> failing;
  for (auto& block : f) {
    if (report_of(block)) failing.push_back(&block);
  }
  llvm::Type* result = f.getReturnType();
  for (auto* block : failing) {
    auto* br = block->getTerminator();
    llvm::BasicBlock* join = br->getSuccessor(0);
    join->removePredecessor(block);
    br->eraseFromParent();
    llvm::IRBuilder<> b(block);
    return_early(b, result);
  }
}

// All report paths of one report arity in one block, their operands through phis.
void share_report_paths(llvm::Function& f) {
  // Iterated in the order the markers are first met, not in their addresses' order: the shared
  // blocks, their names and their places are the same from run to run.
  llvm::MapVector<llvm::Function*, std::vector<llvm::BasicBlock*>> by_marker;
  for (auto& block : f) {
    auto* ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator());
    auto* last = ret ? ret->getPrevNode() : nullptr;
    if (!last || !is_marker(*last, marker_report)) continue;
    by_marker[llvm::cast<llvm::CallInst>(last)->getCalledFunction()].push_back(&block);
  }
  for (auto& [marker, blocks] : by_marker) {
    if (blocks.size() < 2) continue;
    auto* shared = llvm::BasicBlock::Create(f.getContext(), "bounds.failed", &f);
    llvm::IRBuilder<> b(shared);
    const unsigned args = marker->arg_size();
    std::vector<llvm::PHINode*> phis;
    for (unsigned a = 0; a < args; ++a) {
      phis.push_back(
          b.CreatePHI(marker->getArg(a)->getType(), static_cast<unsigned>(blocks.size())));
    }
    std::vector<llvm::Value*> phi_values(phis.begin(), phis.end());
    auto* call = b.CreateCall(marker, phi_values);
    call->setCallingConv(marker->getCallingConv());
    llvm::Type* result = f.getReturnType();
    return_early(b, result);
    for (auto* block : blocks) {
      auto* ret = block->getTerminator();
      auto* report = llvm::cast<llvm::CallInst>(ret->getPrevNode());
      for (unsigned a = 0; a < args; ++a) phis[a]->addIncoming(report->getArgOperand(a), block);
      ret->eraseFromParent();
      report->eraseFromParent();
      llvm::BranchInst::Create(shared, block);
    }
  }
}

// A branch on a check is decided where that check has passed on every path to it: inside the
// blocks dominated by the edge on which an earlier branch on it went to its access. (Equal
// checks are one value by then: EarlyCSE merges calls of a readnone marker with equal operands.)
void fold_repeated_checks(llvm::Function& f) {
  llvm::DominatorTree tree(f);
  auto check_of = [](llvm::BranchInst* br) -> llvm::Value* {
    if (!br || !br->isConditional()) return nullptr;
    auto* cond = llvm::dyn_cast<llvm::Instruction>(br->getCondition());
    return cond && is_marker(*cond, marker_check) ? cond : nullptr;
  };
  std::map<llvm::Value*, unsigned> passed;  // checks known true here, with their nesting depth
  // Dominator-tree preorder with an explicit stack (kernels of 10^4 statements nest that deep).
  struct Frame {
    llvm::DomTreeNode* node;
    std::size_t next_child;
    llvm::Value* added;
  };
  std::vector<Frame> stack;
  auto enter = [&](llvm::DomTreeNode* node) {
    llvm::BasicBlock* block = node->getBlock();
    llvm::Value* added = nullptr;
    // Entered only from a branch that went this way on its check: it passed.
    if (llvm::BasicBlock* pred = block->getSinglePredecessor()) {
      auto* br = llvm::dyn_cast<llvm::BranchInst>(pred->getTerminator());
      if (llvm::Value* check = check_of(br);
          check && br->getSuccessor(0) == block && br->getSuccessor(1) != block) {
        added = check;
        ++passed[check];
      }
    }
    auto* br = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (llvm::Value* check = check_of(br); check && passed.count(check)) {
      br->setCondition(llvm::ConstantInt::getTrue(f.getContext()));
    }
    stack.push_back({node, 0, added});
  };
  enter(tree.getRootNode());
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next_child < top.node->getNumChildren()) {
      llvm::DomTreeNode* child =
          *(top.node->begin() + static_cast<std::ptrdiff_t>(top.next_child++));
      enter(child);
      continue;
    }
    if (top.added) {
      auto it = passed.find(top.added);
      if (--it->second == 0) passed.erase(it);
    }
    stack.pop_back();
  }
}

}  // namespace

void merge_bounds_checks(llvm::Module& m) {
  bool any = false;
  for (auto& f : m) any = any || (f.getName().startswith(marker_check) && !f.use_empty());
  // A work-item that left early would leave the others waiting at a synchronizing call.
  const bool may_end_early = !synchronizes_anywhere(m);
  for (auto& f : m) {
    if (f.isDeclaration()) continue;
    if (any) {
      fold_and_merge_blocks(f);
      if (may_end_early) {
        end_function_at_reports(f);
        fold_and_merge_blocks(f);
        // Equal index computations and equal checks become one value each, then the branches
        // on a check that already passed fold (EarlyCSE folds many itself: it knows a branch's
        // condition on each side of it).
        promote_and_cse(f);
        fold_repeated_checks(f);
        fold_and_merge_blocks(f);
        share_report_paths(f);
      }
    }
  }
}

}  // namespace spvjit::detail
