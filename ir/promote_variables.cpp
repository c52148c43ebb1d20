// Variables as SSA values: ir/promote_variables.hpp.
#include "ir/promote_variables.hpp"

#include <llvm/ADT/APInt.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <map>
#include <vector>

namespace spvjit::detail {

void promote_variables(llvm::Function& fn) {
  std::vector<llvm::AllocaInst*> allocas;
  for (auto& i : fn.getEntryBlock()) {
    auto* slot = llvm::dyn_cast<llvm::AllocaInst>(&i);
    if (!slot) continue;
    std::vector<llvm::GetElementPtrInst*> zero;
    for (auto* user : slot->users()) {
      if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
          gep && gep->hasAllZeroIndices() && gep->getType() == slot->getType()) {
        zero.push_back(gep);
      }
    }
    for (auto* gep : zero) {
      gep->replaceAllUsesWith(slot);
      gep->eraseFromParent();
    }
    if (llvm::isAllocaPromotable(slot)) allocas.push_back(slot);
  }
  if (allocas.empty()) return;
  llvm::DominatorTree dt(fn);
  llvm::PromoteMemToReg(allocas, dt);
}

namespace {

// A load or store of one element of a private array, at a constant byte offset in it.
struct ElementAccess {
  llvm::Instruction* access;
  std::uint64_t offset;
};

// The loads and stores reaching `slot` through getelementptrs of constant indices, each with its
// byte offset; false when another use reaches it (a computed index, a call, a stored address).
bool constant_accesses(llvm::Value* pointer, const llvm::APInt& offset, const llvm::DataLayout& dl,
                       llvm::Type* element, std::vector<ElementAccess>& out,
                       std::vector<llvm::Instruction*>& geps) {
  for (auto* user : pointer->users()) {
    if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
      llvm::APInt at(offset.getBitWidth(), 0);
      if (gep->getPointerOperand() != pointer || !gep->accumulateConstantOffset(dl, at)) {
        return false;
      }
      geps.push_back(gep);
      if (!constant_accesses(gep, offset + at, dl, element, out, geps)) return false;
    } else if (auto* load = llvm::dyn_cast<llvm::LoadInst>(user)) {
      if (load->isVolatile() || load->getType() != element) return false;
      out.push_back({load, offset.getZExtValue()});
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) {
      if (store->isVolatile() || store->getPointerOperand() != pointer ||
          store->getValueOperand()->getType() != element) {
        return false;
      }
      out.push_back({store, offset.getZExtValue()});
    } else if (auto* marker = llvm::dyn_cast<llvm::IntrinsicInst>(user);
               !marker || !marker->isLifetimeStartOrEnd()) {
      return false;
    }
  }
  return true;
}

}  // namespace

unsigned promote_constant_indexed_arrays(llvm::Function& fn) {
  const llvm::DataLayout& dl = fn.getParent()->getDataLayout();
  std::vector<llvm::AllocaInst*> arrays;
  for (auto& i : fn.getEntryBlock()) {
    if (auto* slot = llvm::dyn_cast<llvm::AllocaInst>(&i);
        slot && slot->getAllocatedType()->isArrayTy() && slot->isStaticAlloca()) {
      arrays.push_back(slot);
    }
  }
  unsigned promoted = 0;
  for (auto* slot : arrays) {
    llvm::Type* element = slot->getAllocatedType();
    while (auto* array = llvm::dyn_cast<llvm::ArrayType>(element))
      element = array->getElementType();
    if (!element->isIntegerTy() && !element->isFloatingPointTy()) continue;
    const std::uint64_t size = dl.getTypeStoreSize(element);
    std::vector<ElementAccess> accesses;
    std::vector<llvm::Instruction*> geps;
    const llvm::APInt zero(dl.getIndexTypeSizeInBits(slot->getType()), 0);
    if (!constant_accesses(slot, zero, dl, element, accesses, geps)) continue;
    const std::uint64_t bytes = dl.getTypeAllocSize(slot->getAllocatedType());
    bool aligned = true;
    for (auto& a : accesses) {
      aligned = aligned && a.offset % size == 0 && a.offset < bytes && bytes - a.offset >= size;
    }
    if (!aligned) continue;
    // One variable per element accessed, in the entry block beside the array.
    std::map<std::uint64_t, llvm::AllocaInst*> variables;
    llvm::IRBuilder<> entry(slot);
    for (auto& a : accesses) {
      auto*& variable = variables[a.offset];
      if (!variable) {
        variable = entry.CreateAlloca(element, nullptr,
                                      slot->getName() + "." + std::to_string(a.offset / size));
      }
      const unsigned operand = llvm::isa<llvm::LoadInst>(a.access) ? 0 : 1;
      a.access->setOperand(operand, variable);
    }
    // The getelementptrs and lifetime markers left, each after its users: a getelementptr's
    // own getelementptrs come after it in `geps`, and its loads and stores use a variable now.
    for (auto it = geps.rbegin(); it != geps.rend(); ++it) {
      for (auto* user : llvm::make_early_inc_range((*it)->users())) {
        llvm::cast<llvm::Instruction>(user)->eraseFromParent();  // a lifetime marker
      }
      (*it)->eraseFromParent();
    }
    for (auto* user : llvm::make_early_inc_range(slot->users())) {
      llvm::cast<llvm::Instruction>(user)->eraseFromParent();
    }
    slot->eraseFromParent();
    ++promoted;
  }
  if (promoted > 0) promote_variables(fn);
  return promoted;
}

}  // namespace spvjit::detail
