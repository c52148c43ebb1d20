// Raw LLVM modules that cannot work, PoCL build failures and a machine without a SPIR-V device:
// each is an exception carrying what went wrong, and the process carries on.
#include <doctest/doctest.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <fstream>
#include <functional>
#include <string>

#include "spvjit/raw_module.hpp"
#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

namespace {

// `kernel void <name>(global float* p) { <body>; p[0] = 1; }` in a fresh typed-pointer context.
struct RawKernel {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
  llvm::Function* fn = nullptr;

  explicit RawKernel(const char* name = "raw") {
    context.setOpaquePointers(false);
    module = std::make_unique<llvm::Module>("reliability_raw", context);
    module->setTargetTriple("spir64-unknown-unknown");
    auto* fptr = llvm::PointerType::get(llvm::Type::getFloatTy(context), 1);
    auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), {fptr}, false);
    fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, *module);
    fn->setCallingConv(llvm::CallingConv::SPIR_KERNEL);
    fn->getArg(0)->setName("p");
  }
  KernelDef finish(const std::function<llvm::Value*(llvm::IRBuilder<>&)>& body = {}) {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", fn));
    llvm::Value* v = body ? body(b) : nullptr;
    b.CreateStore(v ? v : llvm::ConstantFP::get(b.getFloatTy(), 1.0), fn->getArg(0));
    b.CreateRetVoid();
    return kernel_from_module(*module, fn->getName());
  }
};

}  // namespace

TEST_CASE("reliability: bad raw modules are exceptions, one after another") {
  // Every rejection leaves the Jit able to compile the next module.
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    {
      RawKernel raw;
      raw.module->setTargetTriple("nvptx64-nvidia-cuda");
      CHECK_THROWS_WITH_AS(test::jit().compile(raw.finish()),
                           doctest::Contains("triple is 'nvptx64-nvidia-cuda'"), TranslationError);
    }
    {
      RawKernel raw;
      auto def = raw.finish([&](llvm::IRBuilder<>& b) -> llvm::Value* {
        b.CreateCall(llvm::Intrinsic::getDeclaration(raw.module.get(), llvm::Intrinsic::trap));
        return nullptr;
      });
      CHECK_THROWS_WITH_AS(test::jit().compile(def), doctest::Contains("intrinsic llvm.trap"),
                           TranslationError);
    }
    {
      RawKernel raw;
      raw.fn->setCallingConv(llvm::CallingConv::SPIR_FUNC);  // a helper, not a kernel
      CHECK_THROWS_WITH_AS(test::jit().compile(raw.finish()), doctest::Contains("is not a kernel"),
                           TranslationError);
    }
    {
      // Refused when the module is adopted: legalization widens no integer past 64 bits.
      RawKernel raw;
      CHECK_THROWS_WITH_AS(raw.finish([&](llvm::IRBuilder<>& b) -> llvm::Value* {
        auto* x = b.CreateLoad(b.getFloatTy(), raw.fn->getArg(0));
        auto* wide = b.CreateFPToUI(x, b.getIntNTy(128));
        return b.CreateUIToFP(wide, b.getFloatTy());
      }),
                           doctest::Contains("i128"), UserError);
    }
    RawKernel good;
    auto& rt = test::runtime();
    Kernel k = test::jit().compile(good.finish());
    auto P = rt.zeros<float>(1);
    k.launch(NDRange{1}, P);
    rt.synchronize();
    CHECK(P.to_vector()[0] == 1.0f);
  }
}

TEST_CASE("reliability: a kernel PoCL cannot build is a BuildError carrying PoCL's log") {
  // `_Z...` passes validation as an OpenCL builtin and translates as an import; only PoCL's
  // linker learns that no such builtin exists.
  RawKernel raw("calls_missing_builtin");
  auto def = raw.finish([&](llvm::IRBuilder<>& b) -> llvm::Value* {
    auto* type = llvm::FunctionType::get(b.getFloatTy(), {b.getFloatTy()}, false);
    auto callee = raw.module->getOrInsertFunction("_Z21spvjit_no_such_thingf", type);
    llvm::cast<llvm::Function>(callee.getCallee())->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    auto* call = b.CreateCall(callee, {llvm::ConstantFP::get(b.getFloatTy(), 2.0)});
    call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    return call;
  });
  try {
    Kernel k = test::jit().compile(def);
    FAIL("compile should have thrown BuildError");
  } catch (const BuildError& e) {
    CHECK(e.kernel_name() == "calls_missing_builtin");
    CHECK_MESSAGE(e.build_log().find("spvjit_no_such_thing") != std::string::npos, e.build_log());
    CHECK(std::string(e.code_name()) != "");
  }
  RawKernel good("after_build_error");
  Kernel k = test::jit().compile(good.finish());
  CHECK(k.valid());
}

TEST_CASE("reliability: build options PoCL rejects are a BuildError") {
  JitOptions options;
  options.build_options = "-cl-no-such-option";
  Jit jit(test::runtime(), options);
  RawKernel raw("bad_options");
  CHECK_THROWS_AS(jit.compile(raw.finish()), BuildError);
  Jit fine(test::runtime());
  RawKernel again("bad_options");
  CHECK(fine.compile(again.finish()).valid());
}

TEST_CASE("reliability: with a broken OpenCL vendor, the runtime lists what it found") {
  // A vendor file that names a library which does not exist: the ICD loader skips it.
  test::TempDir dir("spvjit-broken-vendor");
  std::ofstream(dir / "broken.icd") << "/nonexistent/libOpenCL-vendor.so\n";
  std::string out;
  const int code =
      test::run_command("OCL_ICD_VENDORS=" + dir.path() + " " SPVJIT_DEVICE_PROBE, out);
  CHECK_MESSAGE(code == 2, out);
  CHECK(out.find("DeviceNotFoundError") != std::string::npos);
  CHECK(out.find("devices seen: none") != std::string::npos);
}

TEST_CASE("reliability: compiling under a signal-firing interval timer does not kill the process") {
  std::string out;
  // POCL_KERNEL_CACHE=0: PoCL must really build (and run its helper processes) every time.
  const int code = test::run_command("POCL_KERNEL_CACHE=0 timeout 300 " SPVJIT_SIGNAL_PROBE, out);
  CHECK_MESSAGE(code == 0, out);
  CHECK_MESSAGE(out.find("survived") != std::string::npos, out);
}

TEST_CASE(
    "reliability: a raw module's p[get_global_id(0)] past its buffer is refused before launch") {
  // kernel void raw_fill(global float* p) { [if (gid < 10)] p[get_global_id(0)] = 1; }
  auto make = [](const char* name, bool guarded) {
    RawKernel raw(name);
    auto& ctx = raw.context;
    auto* fn = raw.fn;
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
    auto* gid_type = llvm::FunctionType::get(b.getInt64Ty(), {b.getInt32Ty()}, false);
    auto gid_fn = raw.module->getOrInsertFunction("_Z13get_global_idj", gid_type);
    llvm::cast<llvm::Function>(gid_fn.getCallee())->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    auto* gid = b.CreateCall(gid_fn, {b.getInt32(0)});
    gid->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    auto* done = llvm::BasicBlock::Create(ctx, "done", fn);
    if (guarded) {
      auto* body = llvm::BasicBlock::Create(ctx, "body", fn);
      b.CreateCondBr(b.CreateICmpULT(gid, b.getInt64(10)), body, done);
      b.SetInsertPoint(body);
    }
    b.CreateStore(llvm::ConstantFP::get(b.getFloatTy(), 1.0),
                  b.CreateInBoundsGEP(b.getFloatTy(), fn->getArg(0), gid));
    b.CreateBr(done);
    b.SetInsertPoint(done);
    b.CreateRetVoid();
    return kernel_from_module(*raw.module, fn->getName());
  };
  auto& rt = test::runtime();
  Kernel every = test::jit().compile(make("raw_fill_every", false));
  auto small = rt.zeros<float>(10);
  CHECK_THROWS_WITH_AS(
      every.launch(NDRange{16}, small),
      "kernel 'raw_fill_every': p[10] is out of bounds: p holds 10 f32 (work-item 10 "
      "of ndrange (16,) reads or writes p[get_global_id(0)]); nothing was launched",
      BoundsError);
  every.launch(NDRange{10}, small);
  rt.synchronize();
  CHECK(small.to_vector() == std::vector<float>(10, 1.0f));
  // Under a condition the analysis cannot follow, the launch is the kernel's business.
  Kernel guarded = test::jit().compile(make("raw_fill_guarded", true));
  auto other = rt.zeros<float>(10);
  guarded.launch(NDRange{16}, other);
  rt.synchronize();
  CHECK(other.to_vector() == std::vector<float>(10, 1.0f));
}
