#include "jit/contract_fma.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace spvjit::detail {

namespace {
bool is_fma(const llvm::Function& f) {
  if (f.getIntrinsicID() == llvm::Intrinsic::fma) return true;
  return f.isDeclaration() && f.arg_size() == 3 && f.getName().startswith("_Z3fma");
}
}  // namespace

unsigned contract_fma(llvm::Module& m, bool f32, bool f64) {
  std::vector<llvm::CallInst*> calls;
  for (auto& f : m) {
    if (!is_fma(f)) continue;
    llvm::Type* scalar = f.getReturnType()->getScalarType();
    if (!(scalar->isFloatTy() && f32) && !(scalar->isDoubleTy() && f64)) continue;
    for (llvm::User* user : f.users()) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (call && call->getCalledFunction() == &f) calls.push_back(call);
    }
  }
  llvm::FastMathFlags contract;
  contract.setAllowContract(true);
  for (llvm::CallInst* call : calls) {
    llvm::IRBuilder<> b(call);
    b.setFastMathFlags(contract);
    llvm::Value* product = b.CreateFMul(call->getArgOperand(0), call->getArgOperand(1));
    llvm::Value* sum = b.CreateFAdd(product, call->getArgOperand(2));
    sum->takeName(call);
    call->replaceAllUsesWith(sum);
    call->eraseFromParent();
  }
  return static_cast<unsigned>(calls.size());
}

}  // namespace spvjit::detail
