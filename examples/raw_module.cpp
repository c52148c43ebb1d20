// A host with its own LLVM (linked statically, the usual CMake way, through spvjit::raw_module)
// builds an LLVM module of two kernels and hands it to spvjit: one translation, one program for
// both. The kernels test their index against their own size argument, as OpenCL C kernels do,
// so they declare guards_own_bounds and run 1000 items in groups of 64.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <spvjit/raw_module.hpp>
#include <spvjit/spvjit.hpp>

#include <cstdio>
#include <functional>
#include <vector>

namespace {

// kernel void <name>(global float* y, <extra>, int n) { i = get_global_id(0); if (i < n) body }
void add_kernel(llvm::Module& m, const char* name, llvm::Type* extra,
                const std::function<llvm::Value*(llvm::IRBuilder<>&, llvm::Function&,
                                                 llvm::Value* y_i, llvm::Value* i)>& body) {
  llvm::LLVMContext& ctx = m.getContext();
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  auto* global_float = llvm::PointerType::get(llvm::Type::getFloatTy(ctx), 1);
  auto* type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {global_float, extra, i32}, false);
  auto* fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, m);
  fn->setCallingConv(llvm::CallingConv::SPIR_KERNEL);
  fn->getArg(0)->setName("y");
  fn->getArg(1)->setName("extra");
  fn->getArg(2)->setName("n");
  auto get_global_id =
      m.getOrInsertFunction("_Z13get_global_idj", llvm::FunctionType::get(i64, {i32}, false));
  auto* builtin = llvm::cast<llvm::Function>(get_global_id.getCallee());
  builtin->setCallingConv(llvm::CallingConv::SPIR_FUNC);

  auto* entry = llvm::BasicBlock::Create(ctx, "entry", fn);
  auto* inside = llvm::BasicBlock::Create(ctx, "inside", fn);
  auto* done = llvm::BasicBlock::Create(ctx, "done", fn);
  llvm::IRBuilder<> b(entry);
  auto* call = b.CreateCall(get_global_id, {b.getInt32(0)});
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  auto* n = b.CreateSExt(fn->getArg(2), i64);
  b.CreateCondBr(b.CreateICmpSLT(call, n), inside, done);
  b.SetInsertPoint(inside);
  auto* y_i = b.CreateGEP(b.getFloatTy(), fn->getArg(0), call);
  b.CreateStore(body(b, *fn, y_i, call), y_i);
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

}  // namespace

int main() {
  using namespace spvjit;
  try {
    llvm::LLVMContext ctx;
    ctx.setOpaquePointers(false);  // SPIRV-LLVM-Translator 15 needs typed pointers
    llvm::Module m("axpb", ctx);
    m.setTargetTriple("spir64-unknown-unknown");
    auto* global_float = llvm::PointerType::get(llvm::Type::getFloatTy(ctx), 1);
    // y[i] = a * x[i]
    add_kernel(m, "scale", global_float,
               [](llvm::IRBuilder<>& b, llvm::Function& fn, llvm::Value*, llvm::Value* i) {
                 auto* x =
                     b.CreateLoad(b.getFloatTy(), b.CreateGEP(b.getFloatTy(), fn.getArg(1), i));
                 return b.CreateFMul(llvm::ConstantFP::get(b.getFloatTy(), 3.0), x);
               });
    // y[i] += b
    add_kernel(m, "offset", llvm::Type::getFloatTy(ctx),
               [](llvm::IRBuilder<>& b, llvm::Function& fn, llvm::Value* y_i, llvm::Value*) {
                 return b.CreateFAdd(b.CreateLoad(b.getFloatTy(), y_i), fn.getArg(1));
               });

    Runtime rt;
    Jit jit(rt);
    Program program = jit.compile(module_from_llvm(m, {.guards_own_bounds = true}));

    const std::int32_t n = 1000;
    std::vector<float> xs(n);
    for (std::size_t j = 0; j < xs.size(); ++j) xs[j] = static_cast<float>(j) - 500.0f;
    auto X = rt.upload(xs);
    auto Y = rt.zeros<float>(n);
    program.kernel("scale").launch(NDRange{1000}, WorkGroup{64}, Y, X, n);
    program.kernel("offset").launch(NDRange{1000}, WorkGroup{64}, Y, 0.25f, n);
    rt.synchronize();
    const auto ys = Y.to_vector();
    for (std::size_t j = 0; j < xs.size(); ++j) {
      if (ys[j] != 3.0f * xs[j] + 0.25f) {
        std::fprintf(stderr, "raw_module: Y[%zu] = %g, expected %g\n", j, ys[j],
                     3.0f * xs[j] + 0.25f);
        return 1;
      }
    }
    // One program for both: translated and built, or loaded from the disk cache, once.
    const JitStats stats = jit.stats();
    if (stats.compiles + stats.disk_hits != 1) {
      std::fprintf(stderr, "raw_module: %llu compiles and %llu disk hits, expected one in all\n",
                   static_cast<unsigned long long>(stats.compiles),
                   static_cast<unsigned long long>(stats.disk_hits));
      return 1;
    }
    std::printf("raw_module: kernels %s and %s of one program, %d results correct\n",
                program.kernel_names()[0].c_str(), program.kernel_names()[1].c_str(), n);
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "raw_module: %s\n", e.what());
    return 1;
  }
}
