// The per-work-item stack estimate (ir/analysis/group_stack.hpp) and the workgroups the Jit allows
// with it (common/group_stack.hpp): exact figures for small kernels, bounds for the large
// one of the reliability probe, and the README's kernels still accepted.
#include <doctest/doctest.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <pthread.h>

#include <cstdint>
#include <vector>

#include "ir/kernel_module.hpp"
#include "common/group_stack.hpp"
#include "spvjit/examples.hpp"
#include "spvjit/raw_module.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {

std::uint64_t per_item(const KernelDef& def) {
  return detail::kernel_module(def).stack_bytes_per_item;
}

// out[0] = in[0] + in[1], both loaded before a barrier when `across`, after it otherwise.
KernelDef two_loads(bool across) {
  KernelBuilder kb(across ? "stack_two_across" : "stack_two_after");
  auto out = kb.param<Global<float>>("out");
  auto in = kb.param<Const<float>>("in");
  if (!across) barrier(kb, Fence::Local);
  Val<float> a = in[0].get();
  Val<float> b = in[1].get();
  if (across) barrier(kb, Fence::Local);
  out[0] = a + b;
  return kb.finish();
}

}  // namespace

TEST_CASE(
    "stack estimate: variables cost nothing without a barrier, private arrays their padded size") {
  KernelBuilder vars("stack_vars");
  auto out = vars.param<Global<float>>("out");
  auto v = vars.var(1.0f);
  v += 2.0f;
  out[vars.global_index()] = v.get();
  CHECK(per_item(vars.finish()) == 0);  // promoted to SSA values, and no barrier to cross

  // Arrays start 128-byte aligned; PoCL pads each work-item's copy to that alignment.
  KernelBuilder small("stack_small_private");
  auto o = small.param<Global<float>>("out");
  auto a = private_array<float>(small, {4});
  a(0) = 1.0f;
  o[0] = a(small.lit<std::int64_t>(0)).get();
  CHECK(per_item(small.finish()) == 128);

  KernelBuilder two("stack_two_private");
  auto o2 = two.param<Global<float>>("out");
  auto p = private_array<float>(two, {64});
  auto q = private_array<double>(two, {3, 5});  // 120 bytes -> 128
  p(0) = 1.0f;
  q(1, 2) = 2.0;
  o2[0] = p(two.lit<std::int64_t>(0)).get() +
          cast<float>(q(two.lit<std::int64_t>(1), two.lit<std::int64_t>(2)).get());
  CHECK(per_item(two.finish()) == 256 + 128);
}

TEST_CASE("stack estimate: values live across a barrier count, values made after it do not") {
  CHECK(per_item(two_loads(true)) == 8);   // two floats cross the barrier
  CHECK(per_item(two_loads(false)) == 0);  // loaded after it: nothing crosses

  // A value made before a loop whose body has a barrier, read after the loop: it crosses
  // every barrier of the loop, and so does the accumulator and the counter.
  KernelBuilder kb("stack_loop");
  auto out = kb.param<Global<float>>("out");
  auto in = kb.param<Const<float>>("in");
  Val<double> before = cast<double>(in[0].get());
  auto acc = kb.var(0.0f);
  kb.for_(kb.lit<std::int64_t>(0), kb.lit<std::int64_t>(4), kb.lit<std::int64_t>(1),
          [&](Val<std::int64_t> t) {
            barrier(kb, Fence::Local);
            acc += in[t].get();
          });
  out[0] = acc.get() + cast<float>(before);
  // before (8) + acc (4) + the loop counter (8); nothing else lives past the barrier.
  CHECK(per_item(kb.finish()) == 8 + 4 + 8);
}

TEST_CASE(
    "stack estimate: 512 floats held across a barrier, and a raw module's locals and arrays") {
  KernelBuilder kb("stack_held_512");
  auto out = kb.param<Global<float>>("out");
  auto in = kb.param<Const<float>>("in");
  auto i = kb.global_index();
  std::vector<Val<float>> values;
  for (std::int64_t j = 0; j < 512; ++j) values.push_back(in[i * std::int64_t{512} + j].get());
  barrier(kb, Fence::Local);
  Val<float> sum = values[0];
  for (std::size_t j = 1; j < values.size(); ++j) sum = sum + values[j];
  out[i] = sum;
  const std::uint64_t bytes = per_item(kb.finish());
  CHECK(bytes >= 512 * 4);
  CHECK(bytes <= 512 * 4 + 64);  // the index and its products, not every temporary

  // kernel void raw(global float* p) { local float tile[1000]; float priv[10]; ... }
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  llvm::Module m("stack_raw", context);
  m.setTargetTriple("spir64-unknown-unknown");
  auto* f32 = llvm::Type::getFloatTy(context);
  auto* tile_type = llvm::ArrayType::get(f32, 1000);
  auto* tile = new llvm::GlobalVariable(m, tile_type, false, llvm::GlobalValue::InternalLinkage,
                                        llvm::UndefValue::get(tile_type), "raw.tile", nullptr,
                                        llvm::GlobalValue::NotThreadLocal, 3);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {llvm::PointerType::get(f32, 1)}, false);
  auto* fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "stack_raw", m);
  fn->setCallingConv(llvm::CallingConv::SPIR_KERNEL);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", fn));
  auto* priv = b.CreateAlloca(llvm::ArrayType::get(f32, 10));
  priv->setAlignment(llvm::Align(16));
  auto* slot = b.CreateConstInBoundsGEP2_64(priv->getAllocatedType(), priv, 0, 3);
  b.CreateStore(llvm::ConstantFP::get(f32, 1.0), slot);
  auto* cell = b.CreateConstInBoundsGEP2_64(tile_type, tile, 0, 7);
  b.CreateStore(b.CreateLoad(f32, slot), cell);
  b.CreateStore(b.CreateLoad(f32, cell), fn->getArg(0));
  b.CreateRetVoid();
  const KernelDef raw = kernel_from_module(m, "stack_raw");
  CHECK(detail::kernel_module(raw).static_local_bytes == 4000);
  CHECK(per_item(raw) == 48);  // 40 bytes padded to the alloca's 16-byte alignment
}

TEST_CASE(
    "group stack: the budget is half the default thread stack, and the Jit shrinks and "
    "refuses by it") {
  pthread_attr_t attr;
  REQUIRE(pthread_getattr_default_np(&attr) == 0);
  std::size_t stack = 0;
  pthread_attr_getstacksize(&attr, &stack);
  pthread_attr_destroy(&attr);
  CHECK(detail::default_thread_stack_bytes() == stack);

  const detail::GroupStack s{2064, 8u << 20};
  CHECK(s.budget() == (4u << 20));
  CHECK(s.max_items() == (4u << 20) / 2064);
  CHECK(s.fits(s.max_items()));
  CHECK_FALSE(s.fits(s.max_items() + 1));
  CHECK(s.refusal("static workgroup (4096,)", 4096)
            .find("static workgroup (4096,) would keep 4096 x 2064 = 8454144 bytes") == 0);
  CHECK(detail::GroupStack{0, 8u << 20}.max_items() == SIZE_MAX);
  CHECK_FALSE(detail::GroupStack{5u << 20, 8u << 20}.fits(1));

  // The README's tiled matmul with its 16 x 16 workgroup, and the examples, still compile.
  const KernelDef tiled = examples::tiled_matmul();
  CHECK(per_item(tiled) < 256);
  Kernel k = test::jit().compile(tiled, {.workgroup = WorkGroup{16, 16}, .ndrange = {}});
  CHECK(k.workgroup_for(NDRange{64, 64}).total() == 256);
  for (const KernelDef& def :
       {examples::saxpy(Scalar::F32), examples::naive_matmul(), examples::scale(Scalar::F64, 3)}) {
    CHECK(per_item(def) == 0);
  }
}
