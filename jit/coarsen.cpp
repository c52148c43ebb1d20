// The rewrite: the kernel's body is cloned twice into helper functions — a scalar one taking
// the index as an argument (the tail) and a vector one covering W indices — and the kernel
// itself becomes a dispatcher between them. Both helpers are always-inline; PoCL inlines them.
#include "jit/coarsen.hpp"


#include <algorithm>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "ir/group_stack.hpp"
#include "jit/coarsen_analysis.hpp"
#include "jit/split_vector_calls.hpp"
#include "jit/coarsen_vector.hpp"

namespace spvjit::detail {

namespace {

unsigned preferred_width(const VectorWidths& w, llvm::Type* t) {
  if (t->isFloatTy()) return w.f32;
  if (t->isDoubleTy()) return w.f64;
  switch (t->getIntegerBitWidth()) {
    case 8: return w.i8;
    case 16: return w.i16;
    case 32: return w.i32;
    default: return w.i64;
  }
}

// A copy of `kernel` as a spir_func with one more i64 argument, named `suffix`.
llvm::Function* clone_with_index(llvm::Function& kernel, const std::string& suffix,
                                 llvm::ValueToValueMapTy& map) {
  std::vector<llvm::Type*> types;
  for (auto& a : kernel.args()) types.push_back(a.getType());
  types.push_back(llvm::Type::getInt64Ty(kernel.getContext()));
  auto* type = llvm::FunctionType::get(kernel.getReturnType(), types, false);
  auto* f = llvm::Function::Create(type, llvm::Function::InternalLinkage,
                                   kernel.getName() + suffix, kernel.getParent());
  for (auto& a : kernel.args()) map[&a] = f->getArg(a.getArgNo());
  llvm::SmallVector<llvm::ReturnInst*, 4> returns;
  llvm::CloneFunctionInto(f, &kernel, map, llvm::CloneFunctionChangeType::LocalChangesOnly, returns);
  f->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  f->setDSOLocal(true);  // the verifier's rule for internal linkage
  f->clearMetadata();  // kernel_arg_* and reqd_work_group_size belong to the kernel
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->getArg(kernel.arg_size())->setName("coarse.index");
  return f;
}

llvm::CallInst* call_helper(llvm::IRBuilder<>& b, llvm::Function& kernel, llvm::Function* helper,
                            llvm::Value* index) {
  std::vector<llvm::Value*> args;
  for (auto& a : kernel.args()) args.push_back(&a);
  args.push_back(index);
  auto* call = b.CreateCall(helper, args);
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return call;
}

// The tail: the original body once per index below the extent, for indices base .. base+W-1.
llvm::Function* make_scalar_body(llvm::Function& kernel, const CoarsenPlan& plan) {
  llvm::ValueToValueMapTy map;
  auto* f = clone_with_index(kernel, ".scalar", map);
  llvm::Value* index = f->getArg(kernel.arg_size());
  for (auto& [inst, role] : plan.roles) {
    if (role == Role::Index) {
      auto* copy = llvm::cast<llvm::Instruction>(map[inst]);
      copy->replaceAllUsesWith(index);
      copy->eraseFromParent();
    }
  }
  return f;
}

// The kernel becomes: g = get_global_id(0); base = W*g; all W inside -> vector body(g), else
// scalar body(i) for i in base .. min(base+W, extent)-1. With a `fast_body` (no bounds checks
// of get_global_id(0) itself), a full vector below `fast_end` (the least of ndrange(0) and
// every extent, from the launch) runs it instead: the one compare per work-item an unchecked
// kernel makes.
void make_dispatcher(llvm::Function& kernel, llvm::Value* extent0, llvm::Function* vector_body,
                     llvm::Function* fast_body, llvm::Value* fast_end,
                     llvm::Function* scalar_body, unsigned width) {
  auto& ctx = kernel.getContext();
  llvm::Function* gid = kernel.getParent()->getFunction(global_id_builtin);
  // The kernel's blocks go; extent0 (an argument or constant) survives them.
  kernel.dropAllReferences();
  while (!kernel.empty()) kernel.begin()->eraseFromParent();
  auto* entry = llvm::BasicBlock::Create(ctx, "entry", &kernel);
  auto* full = llvm::BasicBlock::Create(ctx, "full", &kernel);
  // Blocks in dominance order, as SPIR-V wants them: fast and checked come before full.
  auto* fast = fast_body ? llvm::BasicBlock::Create(ctx, "fast", &kernel, full) : nullptr;
  auto* checked = fast_body ? llvm::BasicBlock::Create(ctx, "checked", &kernel, full) : nullptr;
  auto* tail = llvm::BasicBlock::Create(ctx, "tail", &kernel);
  auto* loop = llvm::BasicBlock::Create(ctx, "tail.loop", &kernel);
  auto* body = llvm::BasicBlock::Create(ctx, "tail.body", &kernel);
  auto* done = llvm::BasicBlock::Create(ctx, "done", &kernel);
  llvm::IRBuilder<> b(entry);
  auto* g = b.CreateCall(gid, {b.getInt32(0)});
  g->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  auto* base = b.CreateMul(g, b.getInt64(width), "base", /*HasNUW=*/true);
  auto* end = b.CreateAdd(base, b.getInt64(width), "end", /*HasNUW=*/true);
  if (fast_body) {
    // Weighted: a launch that passes enough memory never leaves the fast path.
    b.CreateCondBr(b.CreateICmpULE(end, fast_end), fast, checked,
                   llvm::MDBuilder(ctx).createBranchWeights(1u << 20, 1));
    b.SetInsertPoint(fast);
    call_helper(b, kernel, fast_body, g);
    b.CreateBr(done);
    b.SetInsertPoint(checked);
  }
  b.CreateCondBr(b.CreateICmpULE(end, extent0), full, tail);

  b.SetInsertPoint(full);
  call_helper(b, kernel, vector_body, g);
  b.CreateBr(done);

  b.SetInsertPoint(tail);
  auto* limit = b.CreateSelect(b.CreateICmpULT(end, extent0), end, extent0, "limit");
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  auto* i = b.CreatePHI(b.getInt64Ty(), 2, "i");
  i->addIncoming(base, tail);
  b.CreateCondBr(b.CreateICmpULT(i, limit), body, done);
  b.SetInsertPoint(body);
  call_helper(b, kernel, scalar_body, i);
  i->addIncoming(b.CreateAdd(i, b.getInt64(1), "", true), body);
  b.CreateBr(loop);

  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

}  // namespace

CoarsenResult coarsen_elementwise(llvm::Module& m, const KernelModule& def,
                                  const Specialization& spec, const VectorWidths& widths,
                                  unsigned forced_width) {
  llvm::Function* kernel = m.getFunction(def.name);
  if (!kernel || kernel->isDeclaration() || !kernel->getReturnType()->isVoidTy()) {
    return {1, "has no kernel body"};
  }
  llvm::Value* extent0 = nullptr;
  if (spec.ndrange) {
    extent0 = llvm::ConstantInt::get(llvm::Type::getInt64Ty(m.getContext()), spec.ndrange->size[0]);
  } else if (def.hidden_ndrange && kernel->arg_size() > def.params.size()) {
    extent0 = kernel->getArg(static_cast<unsigned>(def.params.size()));
  } else {
    return {1, "does not know its ndrange (it never reads in_bounds() or ndrange())"};
  }
  // A static workgroup dividing a static ndrange launches exactly ndrange(0) indices, so the
  // bounds check may have been folded away (jit/specialize.cpp).
  const bool exact = spec.ndrange && spec.workgroup && spec.workgroup->size[0] != 0 &&
                     spec.ndrange->size[0] % spec.workgroup->size[0] == 0;
  // As SSA values (phis) the analysis can tell which variables vary; PoCL promotes them anyway.
  promote_variables(*kernel);
  CoarsenPlan plan = analyse_elementwise(*kernel, extent0, exact);
  if (!plan.ok()) return {1, plan.reason};
  if (!plan.widest) return {1, "reads and writes no global memory by get_global_id(0)"};
  unsigned width = forced_width > 1 ? forced_width : preferred_width(widths, plan.widest);
  if (width < 2) return {1, "the device prefers scalars for this element type", true};
  // Builtins taking vectors wider than the kernel library's registers (256 bits for PoCL built
  // for x86-64-v3) return garbage from SPIR-V input: PoCL's SPIR wrapper passes them through a
  // stack slot with a `tail call` lacking `byval`, so LLVM deletes the store (see
  // jit/split_vector_calls.hpp). 256 bits are exact, and plain loads, arithmetic and stores are
  // exact at any width. (Calls in Vec<T, N> code are split instead.)
  if (plan.widest_call_bits > 0) {
    width = std::min(width, std::max(2u, max_builtin_vector_bits / plan.widest_call_bits));
  }
  // 3 is left out: a float3 occupies 16 bytes in OpenCL, so its loads do not tile an array.
  if (width != 2 && width != 4 && width != 8 && width != 16) {
    return {1, "width " + std::to_string(width) + " is not 2, 4, 8 or 16", true};
  }
  auto* scalar_body = make_scalar_body(*kernel, plan);
  llvm::ValueToValueMapTy map;
  // The name carries the width, for people reading the SPIR-V (`spvjit spirv`).
  auto* vector_body = clone_with_index(*kernel, ".vector.w" + std::to_string(width), map);
  // Bounds checks of get_global_id(0) itself against a buffer's extent pass for every full
  // vector below the least extent the launch passed: a second vector body without them, for
  // those.
  const bool has_fast_end = def.bounds_checked &&
                            kernel->arg_size() > fast_end_arg(def.params, def.hidden_ndrange);
  const FastEndArgs covered =
      has_fast_end ? FastEndArgs{first_extent_arg(def.params, def.hidden_ndrange),
                                 record_arg(def.params, def.hidden_ndrange)}
                   : FastEndArgs{};
  const bool checks_index = vectorize_body(*vector_body, plan, map, width, covered);
  llvm::Function* fast_body = nullptr;
  llvm::Value* fast_end = nullptr;
  if (checks_index) {
    fast_end = kernel->getArg(fast_end_arg(def.params, def.hidden_ndrange));
    llvm::ValueToValueMapTy fast_map;
    fast_body = clone_with_index(*kernel, ".fast.w" + std::to_string(width), fast_map);
    vectorize_body(*fast_body, plan, fast_map, width, covered, /*index_fits=*/true);
  }
  make_dispatcher(*kernel, extent0, vector_body, fast_body, fast_end, scalar_body, width);
  return {width, {}};
}

}  // namespace spvjit::detail
