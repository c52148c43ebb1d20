#include "ir/analysis/synchronizing.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

bool synchronizing_call(const llvm::CallInst& call) {
  const llvm::Function* f = call.getCalledFunction();
  if (!f || call.isConvergent() || f->hasFnAttribute(llvm::Attribute::Convergent)) return true;
  const auto name = f->getName();
  return name.contains("barrier") || name.contains("work_group") || name.contains("sub_group");
}

bool waits(const llvm::Instruction& inst, Waiting what) {
  const auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
  if (!call) return false;
  const llvm::Function* callee = call->getCalledFunction();
  switch (what) {
    case Waiting::GroupBarrier:
      return callee && builtin::is_group_barrier(callee->getName());
    case Waiting::NamedBarrier:
      return builtin::names_a_barrier(callee);
    case Waiting::Synchronizing:
      return synchronizing_call(*call);
  }
  return true;
}

bool contains(const llvm::BasicBlock& block, Waiting what) {
  for (const llvm::Instruction& inst : block) {
    if (waits(inst, what)) return true;
  }
  return false;
}

bool contains(const llvm::Loop& loop, Waiting what) {
  for (const llvm::BasicBlock* block : loop.blocks()) {
    if (contains(*block, what)) return true;
  }
  return false;
}

bool contains(const llvm::Function& f, Waiting what) {
  for (const llvm::BasicBlock& block : f) {
    if (contains(block, what)) return true;
  }
  return false;
}

bool synchronizes_anywhere(const llvm::Module& m) {
  for (const auto& f : m) {
    for (const auto& block : f) {
      for (const auto& i : block) {
        // A defined callee is checked where its own body is; an indirect call is synchronizing.
        auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
        const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
        if (call && (!callee || callee->isDeclaration()) && synchronizing_call(*call)) return true;
      }
    }
  }
  return false;
}

}  // namespace spvjit::detail
