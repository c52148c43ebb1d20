#include "jit/legalize/bool_bitcasts.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace spvjit::detail {

namespace {

bool bool_vector(llvm::Type* t) {
  auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return v && v->getElementType()->isIntegerTy(1);
}

llvm::Value* lanes_to_integer(llvm::IRBuilder<>& b, llvm::Value* mask, llvm::Type* integer) {
  const unsigned n = llvm::cast<llvm::FixedVectorType>(mask->getType())->getNumElements();
  llvm::Value* out = llvm::ConstantInt::get(integer, 0);
  for (unsigned i = 0; i < n; ++i) {
    llvm::Value* bit = b.CreateZExt(b.CreateExtractElement(mask, b.getInt64(i)), integer);
    out = b.CreateOr(out, i == 0 ? bit : b.CreateShl(bit, i));
  }
  return out;
}

llvm::Value* integer_to_lanes(llvm::IRBuilder<>& b, llvm::Value* bits, llvm::Type* mask_type) {
  const unsigned n = llvm::cast<llvm::FixedVectorType>(mask_type)->getNumElements();
  llvm::Value* out = llvm::PoisonValue::get(mask_type);
  for (unsigned i = 0; i < n; ++i) {
    llvm::Value* bit = b.CreateTrunc(i == 0 ? bits : b.CreateLShr(bits, i), b.getInt1Ty());
    out = b.CreateInsertElement(out, bit, b.getInt64(i));
  }
  return out;
}

}  // namespace

unsigned expand_bool_vector_bitcasts(llvm::Module& m) {
  std::vector<llvm::BitCastInst*> casts;
  for (auto& f : m) {
    for (auto& inst : llvm::instructions(f)) {
      auto* cast = llvm::dyn_cast<llvm::BitCastInst>(&inst);
      if (!cast) continue;
      llvm::Type* from = cast->getSrcTy();
      llvm::Type* to = cast->getDestTy();
      if ((bool_vector(from) && to->isIntegerTy()) || (from->isIntegerTy() && bool_vector(to))) {
        casts.push_back(cast);
      }
    }
  }
  for (auto* cast : casts) {
    llvm::IRBuilder<> b(cast);
    llvm::Value* v = cast->getOperand(0);
    llvm::Value* replacement = bool_vector(v->getType())
                                   ? lanes_to_integer(b, v, cast->getDestTy())
                                   : integer_to_lanes(b, v, cast->getDestTy());
    cast->replaceAllUsesWith(replacement);
    cast->eraseFromParent();
  }
  return static_cast<unsigned>(casts.size());
}

}  // namespace spvjit::detail
