#include "ir/bounds.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

#include <vector>

#include "ir/kernel_module.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

int BuilderState::add_array(std::string described, std::string short_name) {
  arrays.push_back({std::move(described), std::move(short_name)});
  return static_cast<int>(arrays.size() - 1);
}

llvm::Type* record_type(llvm::LLVMContext& ctx) { return llvm::Type::getInt64Ty(ctx); }

llvm::Function* bounds_marker(llvm::Module& m, const std::string& name, llvm::Type* ret,
                              llvm::ArrayRef<llvm::Type*> params, bool pure) {
  auto* type = llvm::FunctionType::get(ret, params, false);
  auto* fn = llvm::cast<llvm::Function>(m.getOrInsertFunction(name, type).getCallee());
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->addFnAttr(pure ? llvm::Attribute::ReadNone : llvm::Attribute::Cold);
  return fn;
}

llvm::Function* check_marker(llvm::Module& m, unsigned pairs) {
  auto* i64 = llvm::Type::getInt64Ty(m.getContext());
  return bounds_marker(m, marker_check + std::to_string(pairs),
                       llvm::Type::getInt1Ty(m.getContext()),
                       std::vector<llvm::Type*>(2 * pairs, i64), true);
}

llvm::Value* record_pointer(BuilderState& s) {
  if (s.bounds_record) return s.bounds_record;
  // Only the kernel lacks one (a device function's is its argument): a marker in its entry
  // block, which specialize() replaces with the hidden argument.
  llvm::IRBuilder<> entry(s.alloca_block);
  s.bounds_record = entry.CreateCall(
      bounds_marker(*s.module, marker_record, record_type(s.ctx()), {}, true), {}, "bounds.record");
  return s.bounds_record;
}

llvm::Value* guarded_access(BuilderState& s, const Pointer& p, llvm::Value* index,
                            const ViewIndex* view, unsigned lanes,
                            llvm::function_ref<llvm::Value*()> access) {
  if (!detail::extent_of(p) || p.array() < 0 ||
      static_cast<std::size_t>(p.array()) >= s.arrays.size()) {
    return access();
  }
  auto& ir = s.ir;
  std::vector<llvm::Value*> pairs;
  const unsigned rank = view ? view->rank : 0;
  for (unsigned d = 0; d < rank; ++d) {
    pairs.push_back(view->index[d]);
    pairs.push_back(view->extent[d]);
  }
  pairs.push_back(index);
  pairs.push_back(detail::extent_of(p));
  if (lanes > 1) {
    pairs.push_back(ir.CreateAdd(index, ir.getInt64(lanes - 1), "last"));
    pairs.push_back(detail::extent_of(p));
  }
  const auto& array = s.arrays[static_cast<std::size_t>(p.array())];
  return checked(s, std::move(pairs),
                 {array.described, array.name, p.element(), rank, lanes,
                  p.layout() ? "struct " + p.layout()->name() : std::string()},
                 access);
}

llvm::Value* checked(BuilderState& s, std::vector<llvm::Value*> pairs, BoundsSite described,
                     llvm::function_ref<llvm::Value*()> access) {
  auto& ir = s.ir;
  const unsigned n = static_cast<unsigned>(pairs.size() / 2);
  s.bounds_sites.push_back(std::move(described));
  const auto site = static_cast<std::uint32_t>(s.bounds_sites.size() - 1);

  auto* i64 = ir.getInt64Ty();
  auto* check = check_marker(*s.module, n);
  std::vector<llvm::Type*> report_types = {record_type(s.ctx()), ir.getInt32Ty(), i64};
  report_types.insert(report_types.end(), pairs.size(), i64);
  auto* report = bounds_marker(*s.module, marker_report + std::to_string(n), ir.getVoidTy(),
                               report_types, false);

  llvm::Value* record = record_pointer(s);
  auto* ok = ir.CreateCall(check, pairs, "in.bounds");
  auto* inside = llvm::BasicBlock::Create(s.ctx(), "access", s.kernel);
  auto* outside = llvm::BasicBlock::Create(s.ctx(), "out.of.bounds", s.kernel);
  auto* join = llvm::BasicBlock::Create(s.ctx(), "after.access", s.kernel);
  ir.CreateCondBr(ok, inside, outside, llvm::MDBuilder(s.ctx()).createBranchWeights(1u << 20, 1));

  ir.SetInsertPoint(outside);
  auto* gid0 = s.call_builtin(builtin::global_id, i64, {ir.getInt32(0)});
  std::vector<llvm::Value*> report_args = {record, ir.getInt32(site), gid0};
  report_args.insert(report_args.end(), pairs.begin(), pairs.end());
  ir.CreateCall(report, report_args);
  ir.CreateBr(join);

  ir.SetInsertPoint(inside);
  llvm::Value* value = access();
  llvm::BasicBlock* inside_end = ir.GetInsertBlock();
  ir.CreateBr(join);

  ir.SetInsertPoint(join);
  if (!value || value->getType()->isVoidTy()) return nullptr;
  auto* phi = ir.CreatePHI(value->getType(), 2);
  phi->addIncoming(value, inside_end);
  phi->addIncoming(llvm::Constant::getNullValue(value->getType()), outside);
  return phi;
}

void remove_bounds_checks(llvm::Module& m) {
  std::vector<llvm::Function*> markers;
  for (auto& f : m) {
    const auto name = f.getName();
    if (name.startswith(marker_check) || name.startswith(marker_report) || name == marker_record ||
        name == marker_extent) {
      markers.push_back(&f);
    }
  }
  if (markers.empty()) return;
  for (auto* f : markers) {
    const auto name = f->getName();
    llvm::Value* replacement = nullptr;
    if (name.startswith(marker_check)) replacement = llvm::ConstantInt::getTrue(m.getContext());
    if (name == marker_record) replacement = llvm::ConstantInt::get(f->getReturnType(), 0);
    if (name == marker_extent) replacement = llvm::ConstantInt::get(f->getReturnType(), INT64_MAX);
    while (!f->use_empty()) {
      auto* call = llvm::cast<llvm::CallInst>(f->user_back());
      if (replacement) call->replaceAllUsesWith(replacement);
      call->eraseFromParent();
    }
    f->eraseFromParent();
  }
  for (auto& f : m) {
    if (f.isDeclaration()) continue;
    for (auto& bb : f) llvm::ConstantFoldTerminator(&bb);
    llvm::removeUnreachableBlocks(f);
  }
}

}  // namespace spvjit::detail
