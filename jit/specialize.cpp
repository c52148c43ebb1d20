#include "jit/specialize.hpp"
#include "common/error_report.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <algorithm>
#include <string>
#include <vector>

#include "spvjit/error.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

std::vector<llvm::CallInst*> calls_to(llvm::Module& m, const char* name) {
  std::vector<llvm::CallInst*> out;
  if (auto* f = m.getFunction(name)) {
    for (auto* user : f->users()) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(user)) out.push_back(call);
    }
  }
  return out;
}

unsigned dim_of(llvm::CallInst* call) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
  internal_assert(c && c->getZExtValue() <= 2) << "a marker with a non-constant dimension";
  return static_cast<unsigned>(c->getZExtValue());
}

unsigned dim_of_param(llvm::CallInst* call, const KernelModule& def) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
  internal_assert(c && c->getZExtValue() < def.params.size() &&
                  has_extent(def.params[c->getZExtValue()]))
      << "an extent marker of no pointer parameter";
  return static_cast<unsigned>(c->getZExtValue());
}

// The ndrange extent in dimension d: a constant when static, else the hidden argument.
llvm::Value* ndrange_value(llvm::IRBuilder<>& b, llvm::Function& kernel, const KernelModule& def,
                           const Specialization& spec, unsigned d) {
  if (spec.ndrange) return b.getInt64(spec.ndrange->size[d]);
  if (!def.hidden_ndrange() || def.hidden.ndrange + d >= kernel.arg_size()) {
    internal_error << "kernel '" << def.name << "' lacks its hidden ndrange arguments";
    return nullptr;
  }
  return kernel.getArg(def.hidden.ndrange + d);
}

// A device function that reads the ndrange (KA's f(@context, a)) cannot see the kernel's hidden
// ndrange arguments: inline it into its callers, and theirs, until every ndrange marker is in
// the kernel. Device functions are defined before they are called, so the calls form no cycle.
void inline_functions_reading_ndrange(llvm::Module& m, const llvm::Function& kernel,
                                      const std::string& kernel_name) {
  std::vector<llvm::Function*> pending;
  auto add_caller_of_marker = [&](const char* marker) {
    for (auto* call : calls_to(m, marker)) {
      llvm::Function* fn = call->getFunction();
      if (fn != &kernel && std::find(pending.begin(), pending.end(), fn) == pending.end()) {
        pending.push_back(fn);
      }
    }
  };
  add_caller_of_marker(marker_ndrange);
  add_caller_of_marker(marker_in_ndrange);
  while (!pending.empty()) {
    llvm::Function* fn = pending.back();
    pending.pop_back();
    std::vector<llvm::CallBase*> sites;
    for (auto* user : fn->users()) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(user);
      internal_assert(call && call->getCalledFunction() == fn)
          << "device function '" << fn->getName().str() << "' of kernel '" << kernel_name
          << "' is used other than by a call";
      sites.push_back(call);
    }
    for (llvm::CallBase* call : sites) {
      llvm::Function* caller = call->getFunction();
      llvm::InlineFunctionInfo info;
      const llvm::InlineResult inlined = llvm::InlineFunction(*call, info);
      internal_assert(inlined.isSuccess())
          << "cannot inline device function '" << fn->getName().str() << "', which reads the "
          << "ndrange, into kernel '" << kernel_name << "': " << inlined.getFailureReason();
      if (caller != &kernel && std::find(pending.begin(), pending.end(), caller) == pending.end()) {
        pending.push_back(caller);
      }
    }
    fn->eraseFromParent();  // its markers would otherwise read another function's arguments
  }
}

void erase_marker(llvm::Module& m, const char* name) {
  if (auto* f = m.getFunction(name)) {
    if (f->use_empty()) f->eraseFromParent();
  }
}

void add_opencl_version(llvm::Module& m) {
  auto& ctx = m.getContext();
  auto version = [&](const char* key) {
    if (m.getNamedMetadata(key)) return;
    auto* i32 = llvm::Type::getInt32Ty(ctx);
    llvm::Metadata* ops[] = {llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, 1)),
                             llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, 2))};
    m.getOrInsertNamedMetadata(key)->addOperand(llvm::MDNode::get(ctx, ops));
  };
  version("opencl.ocl.version");
  version("opencl.spir.version");
}

}  // namespace

std::unique_ptr<llvm::Module> specialize(llvm::LLVMContext& context, const KernelModule& def,
                                         const Specialization& spec) {
  context.setOpaquePointers(false);
  auto buffer = llvm::MemoryBuffer::getMemBuffer(def.module_bitcode(), def.name, false);
  auto parsed = llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
  if (!parsed) {
    std::string msg;
    llvm::handleAllErrors(parsed.takeError(),
                          [&](const llvm::ErrorInfoBase& e) { msg = e.message(); });
    internal_error << "cannot read back kernel '" << def.name << "': " << msg;
  }
  std::unique_ptr<llvm::Module> m = std::move(*parsed);
  llvm::Function* kernel = m->getFunction(def.name);
  internal_assert(kernel) << "the module lost kernel '" << def.name << "'";

  inline_functions_reading_ndrange(*m, *kernel, def.name);
  for (auto* call : calls_to(*m, marker_ndrange)) {
    llvm::IRBuilder<> b(call);
    call->replaceAllUsesWith(ndrange_value(b, *kernel, def, spec, dim_of(call)));
    call->eraseFromParent();
  }
  for (auto* call : calls_to(*m, marker_group_size)) {
    llvm::IRBuilder<> b(call);
    const unsigned d = dim_of(call);
    llvm::Value* v = spec.workgroup ? static_cast<llvm::Value*>(b.getInt64(spec.workgroup->size[d]))
                                    : builtin_call(b, *m, builtin::local_size, d);
    call->replaceAllUsesWith(v);
    call->eraseFromParent();
  }
  for (auto* call : calls_to(*m, marker_in_ndrange)) {
    llvm::IRBuilder<> b(call);
    llvm::Value* inside = b.getTrue();
    for (unsigned d = 0; d < 3; ++d) {
      // A static workgroup that divides a static extent leaves no work-item outside it.
      if (spec.ndrange && spec.workgroup && spec.ndrange->size[d] % spec.workgroup->size[d] == 0) {
        continue;
      }
      llvm::Value* gid = builtin_call(b, *m, builtin::global_id, d);
      inside = b.CreateAnd(inside, b.CreateICmpULT(gid, ndrange_value(b, *kernel, def, spec, d)));
    }
    call->replaceAllUsesWith(inside);
    call->eraseFromParent();
  }
  // Bounds checks read the hidden extents and record (common/bounds.hpp).
  for (auto* call : calls_to(*m, marker_extent)) {
    internal_assert(def.bounds_checked()) << "an extent marker in an unchecked kernel";
    const unsigned param = dim_of_param(call, def);
    call->replaceAllUsesWith(kernel->getArg(def.hidden.extent_of(def.params, param)));
    call->eraseFromParent();
  }
  for (auto* call : calls_to(*m, marker_record)) {
    internal_assert(def.bounds_checked()) << "a record marker in an unchecked kernel";
    call->replaceAllUsesWith(kernel->getArg(def.hidden.record));
    call->eraseFromParent();
  }
  erase_marker(*m, marker_extent);
  erase_marker(*m, marker_record);
  erase_marker(*m, marker_ndrange);
  erase_marker(*m, marker_group_size);
  erase_marker(*m, marker_in_ndrange);

  if (spec.workgroup) {
    auto& ctx = m->getContext();
    auto* i32 = llvm::Type::getInt32Ty(ctx);
    llvm::Metadata* sizes[3];
    for (unsigned d = 0; d < 3; ++d) {
      sizes[d] = llvm::ConstantAsMetadata::get(
          llvm::ConstantInt::get(i32, static_cast<std::uint64_t>(spec.workgroup->size[d])));
    }
    auto* reqd = llvm::MDNode::get(ctx, sizes);
    kernel->setMetadata("reqd_work_group_size", reqd);
    // A raw module is built once for all its kernels: each takes the static workgroup.
    if (def.raw) {
      for (const auto& name : def.raw->kernels) {
        if (auto* other = m->getFunction(name)) other->setMetadata("reqd_work_group_size", reqd);
      }
    }
  }
  add_opencl_version(*m);
  return m;
}

}  // namespace spvjit::detail
