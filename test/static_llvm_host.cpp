// A host application that links LLVM 15 statically, as compilers and language runtimes do,
// and uses spvjit beside it: a builder kernel, and a kernel from an llvm::Module the host built
// with its own LLVM (handed over as bitcode). Two LLVMs in one process used to abort before
// main: "CommandLine Error: Option 'opaque-pointers' registered more than once!". Built twice by
// CMake, with and without its symbols exported (-rdynamic), and run by test_embedding.cpp.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdio>

#include "spvjit/raw_module.hpp"
#include "spvjit/spvjit.hpp"

using namespace spvjit;

int main() {
  try {
    llvm::LLVMContext context;
    context.setOpaquePointers(false);
    llvm::Module module("host", context);
    module.setTargetTriple("spir64-unknown-unknown");
    auto* float_ptr = llvm::PointerType::get(llvm::Type::getFloatTy(context), 1);
    auto* fn = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(context), {float_ptr}, false),
        llvm::Function::ExternalLinkage, "store_seven", module);
    fn->setCallingConv(llvm::CallingConv::SPIR_KERNEL);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", fn));
    b.CreateStore(llvm::ConstantFP::get(b.getFloatTy(), 7.0), fn->getArg(0));
    b.CreateRetVoid();

    Runtime rt;
    Jit jit(rt);
    KernelBuilder kb("store_two");
    auto z = kb.param<Global<float>>("z");
    z[kb.global_index()] = 2.0f;
    Kernel built = jit.compile(kb.finish());
    Kernel raw = jit.compile(kernel_from_module(module, "store_seven"));
    auto Z = rt.zeros<float>(4);
    auto R = rt.zeros<float>(1);
    built.launch(NDRange{4}, Z);
    raw.launch(NDRange{1}, R);
    rt.synchronize();
    const float two = Z.to_vector()[3], seven = R.to_vector()[0];
    if (two != 2.0f || seven != 7.0f) {
      std::printf("wrong values: %g %g\n", two, seven);
      return 1;
    }
    std::printf("ok\n");
    return 0;
  } catch (const std::exception& e) {
    std::printf("exception: %s\n", e.what());
    return 1;
  }
}
