#include "jit/device/float_atomics.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace spvjit::detail {

namespace {

bool is_native(const FloatAtomicAdd& native, llvm::Type* element, unsigned space) {
  const bool local = space == 3;
  if (element->isFloatTy()) return local ? native.f32_local : native.f32_global;
  if (element->isDoubleTy()) return local ? native.f64_local : native.f64_global;
  return false;
}

llvm::Function* cmpxchg(llvm::Module& m, llvm::IntegerType* bits, unsigned space) {
  // atomic_cmpxchg(volatile <space> uint*, uint, uint) / the ulong form of cl_khr_int64.
  const char code = bits->getBitWidth() == 32 ? 'j' : 'm';
  const std::string name =
      std::string("_Z14atomic_cmpxchgPU3AS") + std::to_string(space) + "V" + code + code + code;
  auto* ptr = llvm::PointerType::get(bits, space);
  auto callee =
      m.getOrInsertFunction(name, llvm::FunctionType::get(bits, {ptr, bits, bits}, false));
  auto* fn = llvm::cast<llvm::Function>(callee.getCallee());
  fn->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  return fn;
}

// old = *p; while ((seen = cmpxchg(p, old, old + v)) != old) old = seen; result = old
void lower(llvm::CallInst* call) {
  llvm::Module& m = *call->getModule();
  llvm::Value* addr = call->getArgOperand(0);
  llvm::Value* value = call->getArgOperand(3);
  llvm::Type* element = value->getType();
  const unsigned space = addr->getType()->getPointerAddressSpace();
  auto* bits = llvm::IntegerType::get(m.getContext(), element->getPrimitiveSizeInBits());

  llvm::BasicBlock* before = call->getParent();
  llvm::BasicBlock* done = before->splitBasicBlock(call, "fadd.done");
  before->getTerminator()->eraseFromParent();
  auto* loop = llvm::BasicBlock::Create(m.getContext(), "fadd.retry", before->getParent(), done);

  llvm::IRBuilder<> b(before);
  auto* int_addr = b.CreateBitCast(addr, llvm::PointerType::get(bits, space));
  auto* first = b.CreateLoad(bits, int_addr, /*isVolatile=*/true, "fadd.first");
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  auto* old_bits = b.CreatePHI(bits, 2, "fadd.old");
  old_bits->addIncoming(first, before);
  auto* sum = b.CreateFAdd(b.CreateBitCast(old_bits, element), value);
  auto* seen =
      b.CreateCall(cmpxchg(m, bits, space), {int_addr, old_bits, b.CreateBitCast(sum, bits)});
  seen->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  old_bits->addIncoming(seen, loop);
  b.CreateCondBr(b.CreateICmpEQ(seen, old_bits), done, loop);

  b.SetInsertPoint(call);
  call->replaceAllUsesWith(b.CreateBitCast(old_bits, element));
  call->eraseFromParent();
}

}  // namespace

void lower_float_atomics(llvm::Module& m, const FloatAtomicAdd& native) {
  std::vector<llvm::Function*> declarations;
  for (auto& f : m) {
    if (f.isDeclaration() && f.getName().startswith(atomic_fadd_prefix)) declarations.push_back(&f);
  }
  for (llvm::Function* f : declarations) {
    const unsigned space = f->getFunctionType()->getParamType(0)->getPointerAddressSpace();
    if (is_native(native, f->getReturnType(), space)) continue;
    std::vector<llvm::CallInst*> calls;
    for (auto* user : f->users()) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(user)) calls.push_back(call);
    }
    for (auto* call : calls) lower(call);
    if (f->use_empty()) f->eraseFromParent();
  }
}

}  // namespace spvjit::detail
