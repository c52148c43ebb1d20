#include "jit/legalize/type_rewrite.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Local.h>

#include <set>

namespace spvjit::detail {

namespace {

bool holds_type(llvm::Type* t, bool (*odd)(llvm::Type*), std::set<llvm::Type*>& seen) {
  if (odd(t)) return true;
  if (!seen.insert(t).second) return false;  // structs may point at themselves
  if (auto* p = llvm::dyn_cast<llvm::PointerType>(t)) {
    return !p->isOpaque() && holds_type(p->getNonOpaquePointerElementType(), odd, seen);
  }
  for (llvm::Type* inner : t->subtypes()) {
    if (holds_type(inner, odd, seen)) return true;
  }
  return false;
}

}  // namespace

bool holds_type(llvm::Type* t, bool (*odd)(llvm::Type*)) {
  std::set<llvm::Type*> seen;
  return holds_type(t, odd, seen);
}

bool mentions_type(const llvm::Instruction& inst, bool (*odd)(llvm::Type*)) {
  if (holds_type(inst.getType(), odd)) return true;
  for (const llvm::Use& op : inst.operands()) {
    // A call's callee is an operand too: its function type is the call's, seen already.
    if (!llvm::isa<llvm::Function>(op.get()) && holds_type(op->getType(), odd)) return true;
  }
  return false;
}

bool rewrite_function(llvm::Function& f, const TypeRewrite& steps,
                      std::vector<llvm::Instruction*>& dead) {
  for (auto& arg : f.args()) {
    if (holds_type(arg.getType(), steps.odd)) steps.refuse_signature();
  }
  if (holds_type(f.getReturnType(), steps.odd)) steps.refuse_signature();
  bool any = false;
  for (auto& bb : f) {
    for (auto& inst : bb) any = any || mentions_type(inst, steps.odd);
  }
  if (!any) return false;
  llvm::removeUnreachableBlocks(f);
  const llvm::ReversePostOrderTraversal<llvm::Function*> order(&f);
  std::vector<llvm::PHINode*> phis;
  for (llvm::BasicBlock* bb : order) {
    for (llvm::PHINode& phi : bb->phis()) {
      if (!steps.takes_phi(phi)) continue;
      steps.make_phi(phi);
      phis.push_back(&phi);
      dead.push_back(&phi);
    }
  }
  for (llvm::BasicBlock* bb : order) {
    for (llvm::Instruction& inst : llvm::make_early_inc_range(*bb)) {
      if (llvm::isa<llvm::PHINode>(inst) || !steps.involved(inst)) continue;
      steps.rewrite(inst);
    }
  }
  for (llvm::PHINode* phi : phis) steps.fill_phi(*phi);
  for (llvm::Instruction* inst : dead) {
    inst->replaceAllUsesWith(llvm::PoisonValue::get(inst->getType()));
  }
  for (llvm::Instruction* inst : dead) inst->eraseFromParent();
  return true;
}

}  // namespace spvjit::detail
