#include "ir/analysis/synchronizing.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace spvjit::detail {

bool synchronizing_call(const llvm::CallInst& call) {
  const llvm::Function* f = call.getCalledFunction();
  if (!f || call.isConvergent() || f->hasFnAttribute(llvm::Attribute::Convergent)) return true;
  const auto name = f->getName();
  return name.contains("barrier") || name.contains("work_group") || name.contains("sub_group");
}

bool synchronizes(const llvm::Loop& loop) {
  for (const llvm::BasicBlock* block : loop.blocks()) {
    for (const llvm::Instruction& inst : *block) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
      if (call && synchronizing_call(*call)) return true;
    }
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
