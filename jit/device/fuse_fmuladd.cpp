#include "jit/device/fuse_fmuladd.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace spvjit::detail {

unsigned fuse_fmuladd(llvm::Module& m, bool f32, bool f64) {
  std::vector<llvm::Function*> declarations;
  for (auto& f : m) {
    if (f.getIntrinsicID() != llvm::Intrinsic::fmuladd) continue;
    llvm::Type* scalar = f.getReturnType()->getScalarType();
    if ((scalar->isFloatTy() && f32) || (scalar->isDoubleTy() && f64)) declarations.push_back(&f);
  }
  unsigned changed = 0;
  for (llvm::Function* f : declarations) {
    llvm::Function* fma =
        llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::fma, {f->getReturnType()});
    for (llvm::User* user : llvm::SmallVector<llvm::User*, 16>(f->users())) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call || call->getCalledFunction() != f) continue;
      call->setCalledFunction(fma);
      ++changed;
    }
    if (f->use_empty()) f->eraseFromParent();
  }
  return changed;
}

}  // namespace spvjit::detail
