// OpenCL's work-item and barrier builtins as the IR spells them (SPIR's Itanium mangling), and
// what counts as a barrier: one home for every pass that emits or recognizes them. The builder
// emits them (ir/), the JIT's passes read them (jit/); nothing else spells a mangled name.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace spvjit::detail::builtin {

inline constexpr const char* global_id = "_Z13get_global_idj";
inline constexpr const char* local_id = "_Z12get_local_idj";
inline constexpr const char* group_id = "_Z12get_group_idj";
inline constexpr const char* local_size = "_Z14get_local_sizej";
inline constexpr const char* enqueued_local_size = "_Z23get_enqueued_local_sizej";
inline constexpr const char* global_size = "_Z15get_global_sizej";
inline constexpr const char* num_groups = "_Z14get_num_groupsj";
inline constexpr const char* global_offset = "_Z17get_global_offsetj";
/// get_work_dim(), the one query without a dimension (raw modules ask it; the builder does not).
inline constexpr const char* work_dim = "_Z12get_work_dimv";
/// OpenCL 1.2's barrier(flags), the one the builder emits (ir/memory.cpp).
inline constexpr const char* barrier = "_Z7barrierj";
/// OpenCL 2.0's work_group_barrier(flags[, scope]), in raw modules: every overload starts so.
inline constexpr const char* work_group_barrier_prefix = "_Z18work_group_barrier";

/// Whether `name` is one of the work-item queries above (each takes a dimension).
inline bool is_work_item_query(llvm::StringRef name) {
  return name == global_id || name == local_id || name == group_id || name == local_size ||
         name == enqueued_local_size || name == global_size || name == num_groups ||
         name == global_offset;
}

/// Whether `v` is a direct call of work-item query `name` (one of the above) for dimension `dim`,
/// given as a constant; of any integer type (a raw module may ask for a 32-bit id).
inline bool is_query_call(const llvm::Value* v, const char* name, unsigned dim) {
  const auto* call = llvm::dyn_cast<llvm::CallInst>(v);
  const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || callee->getName() != name || call->arg_size() != 1) return false;
  const auto* d = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
  return d && d->getZExtValue() == dim;
}

/// Exactly a work-group barrier (the rule of passes that rewrite around barriers, such as the
/// group loops): barrier() or work_group_barrier().
inline bool is_group_barrier(llvm::StringRef name) {
  return name == barrier || name.startswith(work_group_barrier_prefix);
}

/// Any builtin whose name says barrier, sub-group barriers and SPIR-V's OpControlBarrier as the
/// translator spells it included (the rule of analyses for which one too many only costs a
/// little precision: uniformity, the stack estimate). A defined function is a device function,
/// whose name says nothing. ir/analysis/synchronizing.hpp is the widest rule: any call that may
/// synchronize the group at all.
inline bool names_a_barrier(const llvm::Function* f) {
  if (!f || !f->isDeclaration()) return false;
  const llvm::StringRef name = f->getName();
  return name.contains("barrier") || name.contains("Barrier");
}

}  // namespace spvjit::detail::builtin

namespace spvjit::detail {

/// A call of the OpenCL work-item function `mangled` (`builtin::global_id`, ...) of dimension
/// `dim`, declared in `m` as the translator wants it (SPIR calling convention, readnone).
inline llvm::Value* builtin_call(llvm::IRBuilder<>& b, llvm::Module& m, const char* mangled,
                                 unsigned dim) {
  auto* type = llvm::FunctionType::get(b.getInt64Ty(), {b.getInt32Ty()}, false);
  auto callee = m.getOrInsertFunction(mangled, type);
  auto* fn = llvm::cast<llvm::Function>(callee.getCallee());
  fn->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->addFnAttr(llvm::Attribute::ReadNone);
  auto* call = b.CreateCall(fn, {b.getInt32(dim)});
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return call;
}

}  // namespace spvjit::detail
