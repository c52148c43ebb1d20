#include "jit/bounds_lowering.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

#include "ir/kernel_module.hpp"

namespace spvjit::detail {

namespace {

llvm::Function* opencl_builtin(llvm::Module& m, const char* name, llvm::FunctionType* type) {
  auto* fn = llvm::cast<llvm::Function>(m.getOrInsertFunction(name, type).getCallee());
  fn->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  return fn;
}

llvm::CallInst* call(llvm::IRBuilder<>& b, llvm::Function* fn, llvm::ArrayRef<llvm::Value*> args) {
  auto* c = b.CreateCall(fn, args);
  c->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return c;
}

// void report(i64 record address, i32 site, i64 gid0, i64 gid1, i64 gid2, (i64 index, i64
// extent) x N): the first failure of a launch takes the record's flag with a compare-exchange
// and writes the rest. Out of line, so that a kernel with many checks carries one copy; the
// global ids come from the call site, because PoCL resolves work-item queries only inside the
// work-group function it builds, never in a function it does not inline.
llvm::Function* define_report(llvm::Module& m, llvm::Function* marker, unsigned pairs) {
  const std::string name = bounds_report_function + std::to_string(pairs);
  if (auto* existing = m.getFunction(name)) return existing;
  auto& ctx = m.getContext();
  std::vector<llvm::Type*> params(marker->getFunctionType()->param_begin(),
                                  marker->getFunctionType()->param_end());
  params.insert(params.begin() + 3, 2, llvm::Type::getInt64Ty(ctx));
  auto* fn = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false),
                                    llvm::Function::InternalLinkage, name, m);
  fn->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  fn->setDSOLocal(true);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->addFnAttr(llvm::Attribute::NoInline);
  fn->addFnAttr(llvm::Attribute::Cold);
  auto* entry = llvm::BasicBlock::Create(ctx, "entry", fn);
  auto* write = llvm::BasicBlock::Create(ctx, "first", fn);
  auto* done = llvm::BasicBlock::Create(ctx, "done", fn);
  llvm::IRBuilder<> b(entry);
  auto* i32 = b.getInt32Ty();
  auto* i64 = b.getInt64Ty();
  // The record is fine-grained shared memory (runtime/bounds_records.hpp): its address, passed
  // as a number, is a global pointer in the kernel.
  const unsigned space = static_cast<unsigned>(AddressSpace::Global);
  llvm::Value* record = b.CreateIntToPtr(fn->getArg(0), llvm::PointerType::get(i64, space), "record");
  auto* flag_type = llvm::PointerType::get(i32, space);
  auto* cmpxchg = opencl_builtin(
      m, "_Z14atomic_cmpxchgPU3AS1Vjjj", llvm::FunctionType::get(i32, {flag_type, i32, i32}, false));
  auto* old = call(b, cmpxchg, {b.CreateBitCast(record, flag_type), b.getInt32(0), b.getInt32(1)});
  b.CreateCondBr(b.CreateICmpEQ(old, b.getInt32(0)), write, done);

  b.SetInsertPoint(write);
  auto word = [&](unsigned index, llvm::Value* v) {
    b.CreateAlignedStore(v, b.CreateConstInBoundsGEP1_64(i64, record, index), llvm::Align(8));
  };
  word(record::site, b.CreateZExt(fn->getArg(1), i64));
  for (unsigned d = 0; d < 3; ++d) word(record::work_item + d, fn->getArg(2 + d));
  for (unsigned k = 0; k < 2 * pairs; ++k) word(record::pairs + k, fn->getArg(5 + k));
  word(record::pair_count, b.getInt64(pairs));
  b.CreateBr(done);

  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return fn;
}

std::vector<llvm::CallInst*> calls_of(llvm::Function& f) {
  std::vector<llvm::CallInst*> out;
  for (auto* user : f.users()) {
    if (auto* c = llvm::dyn_cast<llvm::CallInst>(user)) out.push_back(c);
  }
  return out;
}

}  // namespace

void lower_bounds_checks(llvm::Module& m) {
  std::vector<llvm::Function*> markers;
  for (auto& f : m) {
    if (f.getName().startswith(marker_check) || f.getName().startswith(marker_report)) {
      markers.push_back(&f);
    }
  }
  for (auto* marker : markers) {
    const bool check = marker->getName().startswith(marker_check);
    const unsigned pairs = check ? marker->arg_size() / 2 : (marker->arg_size() - 3) / 2;
    llvm::Function* report = check ? nullptr : define_report(m, marker, pairs);
    for (auto* c : calls_of(*marker)) {
      llvm::IRBuilder<> b(c);
      if (check) {
        llvm::Value* all = b.getTrue();
        for (unsigned k = 0; k + 1 < c->arg_size(); k += 2) {
          all = b.CreateAnd(all, b.CreateICmpULT(c->getArgOperand(k), c->getArgOperand(k + 1)));
        }
        c->replaceAllUsesWith(all);
      } else {
        std::vector<llvm::Value*> args(c->arg_begin(), c->arg_end());
        auto* global_id = opencl_builtin(m, "_Z13get_global_idj",
                                         llvm::FunctionType::get(b.getInt64Ty(), {b.getInt32Ty()}, false));
        global_id->addFnAttr(llvm::Attribute::ReadNone);
        args.insert(args.begin() + 3, {call(b, global_id, {b.getInt32(1)}), call(b, global_id, {b.getInt32(2)})});
        call(b, report, args);
      }
      c->eraseFromParent();
    }
    marker->eraseFromParent();
  }
}

}  // namespace spvjit::detail
