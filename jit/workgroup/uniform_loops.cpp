// Uniform loops cut like barriers: jit/workgroup/uniform_loops.hpp.
#include "jit/workgroup/uniform_loops.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

#include "ir/analysis/divergence.hpp"
#include "ir/analysis/synchronizing.hpp"
#include "ir/work_item_builtins.hpp"
#include "jit/workgroup/group_legality.hpp"

namespace spvjit::detail {

namespace {

// Whether every work-item of a group runs `loop` alike: reached by the whole group (its header
// outside every divergent stretch), and left by all at once (each exit tested where the whole
// group is, on a condition the group shares). Simple form only: one preheader, one latch, one
// exit block, reached only from the loop.
bool uniform_loop(const llvm::Loop& loop, const llvm::DenseSet<const llvm::Value*>& uniform,
                  const llvm::DenseSet<const llvm::BasicBlock*>& divergent) {
  if (!loop.isInnermost() || !loop.getLoopPreheader() || !loop.getLoopLatch() ||
      !loop.getExitBlock() || !loop.hasDedicatedExits()) {
    return false;
  }
  if (divergent.contains(loop.getHeader()) || divergent.contains(loop.getExitBlock())) return false;
  llvm::SmallVector<llvm::BasicBlock*, 4> exiting;
  loop.getExitingBlocks(exiting);
  for (const llvm::BasicBlock* block : exiting) {
    if (divergent.contains(block)) return false;
    const auto* br = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (!br || !br->isConditional()) return false;
    const llvm::Value* condition = br->getCondition();
    const bool shared =
        llvm::isa<llvm::Instruction>(condition)
            ? uniform.contains(condition)
            : llvm::isa<llvm::Constant>(condition) || llvm::isa<llvm::Argument>(condition);
    if (!shared) return false;
  }
  return !contains(loop, Waiting::GroupBarrier);
}

// A barrier of no fence before `at`: a point the whole group reaches, nothing more.
llvm::CallInst* insert_barrier(llvm::Instruction* at) {
  llvm::Module& m = *at->getModule();
  llvm::IRBuilder<> b(at);
  llvm::FunctionCallee callee = m.getOrInsertFunction(
      builtin::barrier, llvm::FunctionType::get(b.getVoidTy(), {b.getInt32Ty()}, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->addFnAttr(llvm::Attribute::Convergent);
    f->addFnAttr(llvm::Attribute::NoDuplicate);
  }
  llvm::CallInst* call = b.CreateCall(callee, {b.getInt32(0)});
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  call->addFnAttr(llvm::Attribute::Convergent);
  return call;
}

}  // namespace

std::vector<llvm::CallInst*> cut_uniform_loops(llvm::Function& kernel) {
  llvm::DenseSet<const llvm::BasicBlock*> divergent;
  const auto uniform = uniform_instructions(kernel, &divergent);
  llvm::DominatorTree dominators(kernel);
  llvm::LoopInfo loops(dominators);
  std::vector<llvm::Loop*> chosen;
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    if (uniform_loop(*loop, uniform, divergent)) chosen.push_back(loop);
  }
  std::vector<llvm::CallInst*> cuts;
  for (llvm::Loop* loop : chosen) {
    cuts.push_back(insert_barrier(&*loop->getHeader()->getFirstInsertionPt()));
    cuts.push_back(insert_barrier(&*loop->getExitBlock()->getFirstInsertionPt()));
  }
  return cuts;
}

void undo_cuts(const std::vector<llvm::CallInst*>& cuts) {
  for (llvm::CallInst* call : cuts) call->eraseFromParent();
}

}  // namespace spvjit::detail
