#include "jit/coarsen/swap_dimensions.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

#include "ir/kernel_module.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

// Every direct call in `m` of a declared function whose name `wanted` accepts.
template <class Wanted>
std::vector<llvm::CallInst*> calls_of(const llvm::Module& m, Wanted wanted) {
  std::vector<llvm::CallInst*> calls;
  for (const llvm::Function& f : m) {
    if (!f.isDeclaration() || !wanted(f.getName())) continue;
    for (const llvm::User* user : f.users()) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(const_cast<llvm::User*>(user));
      if (call && call->getCalledFunction() == &f) calls.push_back(call);
    }
  }
  return calls;
}

std::vector<llvm::CallInst*> query_calls(const llvm::Module& m) {
  return calls_of(m, [](llvm::StringRef name) { return builtin::is_work_item_query(name); });
}

std::vector<llvm::CallInst*> report_calls(const llvm::Module& m) {
  return calls_of(m, [](llvm::StringRef name) { return name.startswith(marker_report); });
}

}  // namespace

bool retarget_reports(llvm::Module& m, unsigned from, unsigned to) {
  // After the record, the site: the global id (ir/bounds.cpp).
  constexpr unsigned id_operand = 2;
  const std::vector<llvm::CallInst*> calls = report_calls(m);
  for (llvm::CallInst* call : calls) {
    if (call->arg_size() <= id_operand ||
        !builtin::is_query_call(call->getArgOperand(id_operand), builtin::global_id, from) ||
        !call->getArgOperand(id_operand)->getType()->isIntegerTy(64)) {
      return false;
    }
  }
  for (llvm::CallInst* call : calls) {
    llvm::IRBuilder<> b(call);
    auto* old_id = llvm::cast<llvm::CallInst>(call->getArgOperand(id_operand));
    call->setArgOperand(id_operand, builtin_call(b, m, builtin::global_id, to));
    // The builder gives each report a query of its own: left unused, it would be one more
    // query for later passes to read.
    if (old_id->use_empty()) old_id->eraseFromParent();
  }
  return true;
}

bool queries_dimension(const llvm::Module& m, unsigned dim) {
  for (llvm::CallInst* call : query_calls(m)) {
    const auto* d = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    if (!d || d->getZExtValue() == dim) return true;  // an unknown dimension may be `dim`
  }
  return false;
}

bool global_id_reaches_beyond_compares(const llvm::Module& m, unsigned dim) {
  const auto global_id = [](llvm::StringRef name) { return name == builtin::global_id; };
  for (llvm::CallInst* call : calls_of(m, global_id)) {
    const auto* d = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    if (d && d->getZExtValue() != dim) continue;  // an unknown dimension may be `dim`
    for (const llvm::User* user : call->users()) {
      if (!llvm::isa<llvm::ICmpInst>(user)) return true;
    }
  }
  return false;
}

bool swap_dimensions_0_and_1(llvm::Module& m, llvm::Function& kernel, unsigned ndrange_arg) {
  const std::vector<llvm::CallInst*> calls = query_calls(m);
  for (llvm::CallInst* call : calls) {
    if (call->arg_size() != 1 || !llvm::isa<llvm::ConstantInt>(call->getArgOperand(0))) {
      return false;
    }
  }
  for (llvm::CallInst* call : calls) {
    auto* d = llvm::cast<llvm::ConstantInt>(call->getArgOperand(0));
    const std::uint64_t dim = d->getZExtValue();
    if (dim <= 1) call->setArgOperand(0, llvm::ConstantInt::get(d->getType(), 1 - dim));
  }
  if (ndrange_arg != HiddenArgs::none && ndrange_arg + 1 < kernel.arg_size()) {
    llvm::Argument* first = kernel.getArg(ndrange_arg);
    llvm::Argument* second = kernel.getArg(ndrange_arg + 1);
    // Both lists first: setting a use of one adds it to the other's.
    std::vector<llvm::Use*> of_first, of_second;
    for (llvm::Use& use : first->uses()) of_first.push_back(&use);
    for (llvm::Use& use : second->uses()) of_second.push_back(&use);
    for (llvm::Use* use : of_first) use->set(second);
    for (llvm::Use* use : of_second) use->set(first);
  }
  return true;
}

}  // namespace spvjit::detail
