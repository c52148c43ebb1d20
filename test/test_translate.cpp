// Translation to SPIR-V: valid output, and bad modules that become exceptions, not exits.
#include <doctest/doctest.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <cstdlib>
#include <fstream>
#include <string>

#include "jit/spirv/translate.hpp"
#include "spvjit/examples.hpp"
#include "spvjit/raw_module.hpp"
#include "test/lang_support.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {

// A raw module with one kernel `k(global float* p)` storing 1.0 at p[0]; `mutate` may spoil it.
struct RawModule {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
  llvm::Function* kernel = nullptr;
  llvm::IRBuilder<>* ir = nullptr;

  RawModule() {
    context.setOpaquePointers(false);
    module = std::make_unique<llvm::Module>("raw", context);
    module->setTargetTriple("spir64-unknown-unknown");
    auto* fptr = llvm::PointerType::get(llvm::Type::getFloatTy(context), 1);
    auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), {fptr}, false);
    kernel = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "k", *module);
    kernel->setCallingConv(llvm::CallingConv::SPIR_KERNEL);
    kernel->getArg(0)->setName("p");
  }
  void finish(const std::function<void(llvm::IRBuilder<>&)>& body = {}) {
    auto* bb = llvm::BasicBlock::Create(context, "entry", kernel);
    llvm::IRBuilder<> b(bb);
    if (body) body(b);
    b.CreateStore(llvm::ConstantFP::get(b.getFloatTy(), 1.0), kernel->getArg(0));
    b.CreateRetVoid();
  }
};

}  // namespace

TEST_CASE("the SPIR-V of every saxpy specialization passes spirv-val") {
  for (Scalar t : {Scalar::F16, Scalar::F32, Scalar::F64}) {
    for (bool static_wg : {false, true}) {
      CAPTURE(name(t));
      CAPTURE(static_wg);
      Specialization spec;
      if (static_wg) spec.workgroup = WorkGroup{64};
      auto words = test::jit().spirv(examples::saxpy(t), spec);
      std::string out;
      CHECK_MESSAGE(test::run_spirv_val(words, out) == 0, out);
    }
  }
  for (unsigned dims : {1u, 3u}) {
    auto words = test::jit().spirv(examples::scale(Scalar::F64, dims));
    std::string out;
    CHECK_MESSAGE(test::run_spirv_val(words, out) == 0, out);
  }
}

TEST_CASE("a raw LLVM module runs through the same pipeline") {
  RawModule raw;
  raw.finish();
  auto def = kernel_from_module(*raw.module, "k");
  REQUIRE(def.params().size() == 1);
  CHECK(def.params()[0].describe() == "global f32*");
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(def);
  auto P = rt.zeros<float>(1);
  k.launch(NDRange{1}, P);
  rt.synchronize();
  CHECK(P.to_vector()[0] == 1.0f);
}

TEST_CASE("a module with a wrong triple is an exception, and the process lives on") {
  RawModule raw;
  raw.module->setTargetTriple("x86_64-pc-linux-gnu");
  raw.finish();
  auto def = kernel_from_module(*raw.module, "k");
  CHECK_THROWS_WITH_AS(test::jit().compile(def), doctest::Contains("expected spir64"),
                       TranslationError);
}

TEST_CASE("a module with an intrinsic the translator lacks is an exception") {
  RawModule raw;
  raw.finish([&](llvm::IRBuilder<>& b) {
    auto* fn = llvm::Intrinsic::getDeclaration(raw.module.get(), llvm::Intrinsic::readcyclecounter);
    b.CreateCall(fn);
  });
  auto def = kernel_from_module(*raw.module, "k");
  try {
    test::jit().compile(def);
    FAIL("compile should have thrown");
  } catch (const TranslationError& e) {
    CHECK(std::string(e.what()).find("llvm.readcyclecounter") != std::string::npos);
    CHECK(e.ir().find("define spir_kernel void @k") != std::string::npos);
  }
}

TEST_CASE("a non-kernel entry point and undefined calls are rejected") {
  RawModule raw;
  raw.kernel->setCallingConv(llvm::CallingConv::C);
  raw.finish();
  CHECK_THROWS_WITH_AS(test::jit().compile(kernel_from_module(*raw.module, "k")),
                       doctest::Contains("spir_kernel"), TranslationError);
  RawModule undefined;
  undefined.finish([&](llvm::IRBuilder<>& b) {
    auto callee = undefined.module->getOrInsertFunction(
        "helper", llvm::FunctionType::get(b.getVoidTy(), {}, false));
    b.CreateCall(callee);
  });
  CHECK_THROWS_WITH_AS(test::jit().compile(kernel_from_module(*undefined.module, "k")),
                       doctest::Contains("undefined function 'helper'"), TranslationError);
}

TEST_CASE("what the translator would exit on is refused first, in this process") {
  // Each of these made llvm-spirv-15 exit ("InvalidInstruction: Can't translate llvm
  // instruction", "InvalidBitWidth"); translation runs in this process, so an exit would end
  // the test run itself.
  struct Case {
    const char* what;
    std::function<void(RawModule&, llvm::IRBuilder<>&)> body;
    const char* message;
  };
  const Case cases[] = {
      {"freeze",
       [](RawModule& raw, llvm::IRBuilder<>& b) {
         auto* v = b.CreateLoad(b.getFloatTy(), raw.kernel->getArg(0));
         b.CreateStore(b.CreateFreeze(v), raw.kernel->getArg(0));
       },
       "the instruction 'freeze'"},
      {"atomicrmw nand",
       [](RawModule& raw, llvm::IRBuilder<>& b) {
         auto* p =
             b.CreateBitCast(raw.kernel->getArg(0), llvm::PointerType::get(b.getInt32Ty(), 1));
         b.CreateAtomicRMW(llvm::AtomicRMWInst::Nand, p, b.getInt32(1), llvm::MaybeAlign(4),
                           llvm::AtomicOrdering::SequentiallyConsistent);
       },
       "atomicrmw nand on integers"},
      {"atomicrmw fadd",
       [](RawModule& raw, llvm::IRBuilder<>& b) {
         b.CreateAtomicRMW(llvm::AtomicRMWInst::FAdd, raw.kernel->getArg(0),
                           llvm::ConstantFP::get(b.getFloatTy(), 1.0), llvm::MaybeAlign(4),
                           llvm::AtomicOrdering::SequentiallyConsistent);
       },
       "atomicrmw fadd on floating point"},
      {"an i128 operand",
       [](RawModule& raw, llvm::IRBuilder<>& b) {
         auto* p =
             b.CreateBitCast(raw.kernel->getArg(0), llvm::PointerType::get(b.getInt128Ty(), 1));
         b.CreateStore(b.getIntN(128, 5), p);
       },
       "i128"},
      {"a <4 x i1> bitcast to i4",
       [](RawModule& raw, llvm::IRBuilder<>& b) {
         auto* v = b.CreateVectorSplat(4, b.CreateLoad(b.getFloatTy(), raw.kernel->getArg(0)));
         b.CreateBitCast(b.CreateFCmpOEQ(v, v), b.getIntNTy(4));
       },
       "i4"},
  };
  for (const auto& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    RawModule raw;
    raw.finish([&](llvm::IRBuilder<>& b) { c.body(raw, b); });
    try {
      detail::translate_to_spirv(*raw.module, "k");
      FAIL("translate_to_spirv should have thrown");
    } catch (const TranslationError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(c.message) != std::string::npos, e.what());
    }
  }
}

TEST_CASE("raw modules with opaque pointers or unsupported parameters are refused up front") {
  llvm::LLVMContext ctx;  // opaque pointers by default in LLVM 15
  llvm::Module m("opaque", ctx);
  auto* fn = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {}, false),
                                    llvm::Function::ExternalLinkage, "k", m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  b.CreateRetVoid();
  CHECK_THROWS_WITH_AS(kernel_from_module(m, "k"), doctest::Contains("opaque pointers"), UserError);
  CHECK_THROWS_WITH_AS(kernel_from_module(m, "missing"), doctest::Contains("no function 'missing'"),
                       UserError);
}
