#include "jit/bounds/raw_bounds.hpp"

#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

#include <algorithm>

#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

// A call of get_global_id(0), of any integer type (raw modules are foreign IR).
bool is_global_id0(const llvm::Value* v) {
  return builtin::is_query_call(v, builtin::global_id, 0);
}

// get_global_id(0), or it narrowed to i32 and sign- or zero-extended back (sext(trunc x) and
// clang -O2's ashr(shl x, 32), 32). Narrowed, work-item k still indexes element k for every k
// below 2^31, which covers any buffer it could fail on first.
bool is_index_of_work_item(llvm::Value* v) {
  using namespace llvm::PatternMatch;
  if (is_global_id0(v)) return true;
  llvm::Value* x = nullptr;
  if (match(v, m_CombineOr(m_SExt(m_Trunc(m_Value(x))), m_ZExt(m_Trunc(m_Value(x))))))
    return is_global_id0(x);
  if (match(v, m_AShr(m_Shl(m_Value(x), m_SpecificInt(32)), m_SpecificInt(32))))
    return is_global_id0(x);
  return false;
}

}  // namespace

std::vector<unsigned> params_indexed_by_every_work_item(llvm::Function& kernel) {
  std::vector<unsigned> out;
  if (kernel.isDeclaration()) return out;
  llvm::PostDominatorTree pdt(kernel);
  const llvm::BasicBlock* entry = &kernel.getEntryBlock();
  for (auto& arg : kernel.args()) {
    auto* type = llvm::dyn_cast<llvm::PointerType>(arg.getType());
    if (!type || type->isOpaque() || type->getAddressSpace() == 3 || arg.hasByValAttr()) continue;
    bool found = false;
    for (auto* user : arg.users()) {
      auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
      if (!gep || gep->getNumIndices() != 1 || !is_index_of_work_item(gep->getOperand(1)) ||
          gep->getSourceElementType() != type->getNonOpaquePointerElementType()) {
        continue;
      }
      for (auto* access : gep->users()) {
        const bool loads = llvm::isa<llvm::LoadInst>(access);
        auto* store = llvm::dyn_cast<llvm::StoreInst>(access);
        if (!loads && !(store && store->getPointerOperand() == gep)) continue;
        auto* block = llvm::cast<llvm::Instruction>(access)->getParent();
        if (pdt.dominates(block, entry)) found = true;
      }
    }
    if (found) out.push_back(arg.getArgNo());
  }
  return out;
}

}  // namespace spvjit::detail
