// llvm.fmuladd, which clang emits for a*b+c under OpenCL C's default FP_CONTRACT ON, is fused
// on devices with FMA (jit/device/fuse_fmuladd.hpp): results equal std::fma bit for bit where one
// rounding differs from two, and FP_CONTRACT OFF still gives two.
#include <doctest/doctest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "jit/cache/cache_entry.hpp"
#include "jit/device/fuse_fmuladd.hpp"
#include "test/disk_cache_helpers.hpp"
#include "spvjit/raw_module.hpp"
#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

namespace {

const char* const module_ir = R"(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z13get_global_idj(i32)
declare float @llvm.fmuladd.f32(float, float, float)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>)
declare double @llvm.fmuladd.f64(double, double, double)

define spir_kernel void @madd(float addrspace(1)* %f, double addrspace(1)* %d) {
entry:
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  %i3 = mul i64 %id, 3
  %pa = getelementptr inbounds float, float addrspace(1)* %f, i64 %i3
  %pb = getelementptr inbounds float, float addrspace(1)* %pa, i64 1
  %pc = getelementptr inbounds float, float addrspace(1)* %pa, i64 2
  %a = load float, float addrspace(1)* %pa
  %b = load float, float addrspace(1)* %pb
  %c = load float, float addrspace(1)* %pc
  %r = call float @llvm.fmuladd.f32(float %a, float %b, float %c)
  store float %r, float addrspace(1)* %pa
  %va = insertelement <4 x float> undef, float %a, i64 0
  %vb = insertelement <4 x float> undef, float %b, i64 0
  %vc = insertelement <4 x float> undef, float %c, i64 0
  %sa = shufflevector <4 x float> %va, <4 x float> undef, <4 x i32> zeroinitializer
  %sb = shufflevector <4 x float> %vb, <4 x float> undef, <4 x i32> zeroinitializer
  %sc = shufflevector <4 x float> %vc, <4 x float> undef, <4 x i32> zeroinitializer
  %vr = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %sa, <4 x float> %sb, <4 x float> %sc)
  %lane = extractelement <4 x float> %vr, i64 3
  store float %lane, float addrspace(1)* %pb
  %qa = getelementptr inbounds double, double addrspace(1)* %d, i64 %i3
  %qb = getelementptr inbounds double, double addrspace(1)* %qa, i64 1
  %qc = getelementptr inbounds double, double addrspace(1)* %qa, i64 2
  %x = load double, double addrspace(1)* %qa
  %y = load double, double addrspace(1)* %qb
  %z = load double, double addrspace(1)* %qc
  %dr = call double @llvm.fmuladd.f64(double %x, double %y, double %z)
  store double %dr, double addrspace(1)* %qa
  ret void
}
)";

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext& context, const char* ir) {
  context.setOpaquePointers(false);
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString(ir, error, context);
  REQUIRE(module);
  return module;
}

std::string text(const llvm::Module& m) {
  std::string out;
  llvm::raw_string_ostream os(out);
  m.print(os, nullptr);
  return os.str();
}

// Two roundings, whatever the host compiler's own contraction setting.
template <class T>
T unfused(T a, T b, T c) {
  volatile T product = a * b;
  return product + c;
}

// Triples (a, b, c) where a*b+c rounded once and twice differ: (1+e)^2 - (1+2e) = e^2.
template <class T>
std::vector<T> triples(T epsilon) {
  std::vector<T> out = {1 + epsilon, 1 + epsilon, -(1 + 2 * epsilon), 1 - epsilon, 1 + epsilon, -1};
  std::uint32_t state = 12345;
  for (int i = 0; i < 14; ++i) {
    for (int k = 0; k < 3; ++k) {
      state = state * 1664525u + 1013904223u;
      out.push_back(static_cast<T>(static_cast<std::int32_t>(state)) * static_cast<T>(0x1p-29));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("fmuladd: fused only for the types asked, and a module without it is left as it was") {
  llvm::LLVMContext context;
  auto m = parse(context, module_ir);
  CHECK(detail::fuse_fmuladd(*m, true, false) == 2);
  const std::string f32_only = text(*m);
  CHECK(f32_only.find("@llvm.fmuladd.f32") == std::string::npos);
  CHECK(f32_only.find("@llvm.fmuladd.v4f32") == std::string::npos);
  CHECK(f32_only.find("call float @llvm.fma.f32(") != std::string::npos);
  CHECK(f32_only.find("call <4 x float> @llvm.fma.v4f32(") != std::string::npos);
  CHECK(f32_only.find("call double @llvm.fmuladd.f64(") != std::string::npos);
  CHECK(detail::fuse_fmuladd(*m, false, true) == 1);
  CHECK(text(*m).find("fmuladd") == std::string::npos);

  auto plain = parse(context, R"(
target triple = "spir64-unknown-unknown"
define spir_kernel void @k(float addrspace(1)* %p) {
  %v = load float, float addrspace(1)* %p
  %m = fmul contract float %v, %v
  %s = fadd contract float %m, %v
  store float %s, float addrspace(1)* %p
  ret void
}
)");
  const std::string before = text(*plain);
  CHECK(detail::fuse_fmuladd(*plain, true, true) == 0);
  CHECK(text(*plain) == before);
}

TEST_CASE("fmuladd: a raw module's llvm.fmuladd equals std::fma bit for bit on an FMA device") {
  auto& rt = test::runtime();
  const DeviceInfo& device = rt.device();
  llvm::LLVMContext context;
  const KernelDef def = kernel_from_module(*parse(context, module_ir), "madd");
  Kernel k = test::jit().compile(def);
  const std::vector<float> fs = triples<float>(0x1p-12f);
  const std::vector<double> ds = triples<double>(0x1p-27);
  auto f = rt.upload(fs);
  auto d = rt.upload(ds);
  const std::size_t n = fs.size() / 3;
  k.launch(NDRange{n}, f, d);
  rt.synchronize();
  const auto gf = f.to_vector();
  const auto gd = d.to_vector();
  std::size_t differing = 0;
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    const float a = fs[3 * i], b = fs[3 * i + 1], c = fs[3 * i + 2];
    const double x = ds[3 * i], y = ds[3 * i + 1], z = ds[3 * i + 2];
    differing += std::fma(a, b, c) != unfused(a, b, c);
    const float want_f = device.fma_f32 ? std::fma(a, b, c) : unfused(a, b, c);
    const double want_d = device.fma_f64 ? std::fma(x, y, z) : unfused(x, y, z);
    CHECK(std::bit_cast<std::uint32_t>(gf[3 * i]) == std::bit_cast<std::uint32_t>(want_f));
    CHECK(std::bit_cast<std::uint32_t>(gf[3 * i + 1]) == std::bit_cast<std::uint32_t>(want_f));
    if (device.fp64)
      CHECK(std::bit_cast<std::uint64_t>(gd[3 * i]) == std::bit_cast<std::uint64_t>(want_d));
  }
  CHECK(differing >= 2);  // the inputs tell one rounding from two
  // The first triple: exactly epsilon squared fused, zero unfused.
  if (device.fma_f32) CHECK(gf[0] == 0x1p-24f);
  if (device.fma_f64 && device.fp64) CHECK(gd[0] == 0x1p-54);
}

TEST_CASE("fmuladd: OpenCL C a*b+c is fused, and unfused under FP_CONTRACT OFF") {
  const test::TempDir dir("spvjit-raw-fmuladd");
  const std::string cl = dir / "madd.cl";
  const std::string bc = dir / "madd.bc";
  std::ofstream(cl) << R"(
__kernel void contracted(__global float* p) {
  int i = get_global_id(0);
  p[3 * i] = p[3 * i] * p[3 * i + 1] + p[3 * i + 2];
}
__kernel void separate(__global float* p) {
#pragma OPENCL FP_CONTRACT OFF
  int i = get_global_id(0);
  p[3 * i] = p[3 * i] * p[3 * i + 1] + p[3 * i + 2];
}
)";
  std::string out;
  const int rc = test::run_command(std::string(SPVJIT_CLANG) +
                                       " -target spir64 -cl-std=CL1.2 -O2 "
                                       "-Xclang -no-opaque-pointers -emit-llvm -c -o " +
                                       bc + " " + cl,
                                   out);
  INFO(out);
  REQUIRE(rc == 0);
  std::ifstream in(bc, std::ios::binary);
  const std::string bitcode((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto& rt = test::runtime();
  const std::vector<float> fs = triples<float>(0x1p-12f);
  const std::size_t n = fs.size() / 3;
  for (const bool contract : {true, false}) {
    CAPTURE(contract);
    Kernel k =
        test::jit().compile(kernel_from_bitcode(bitcode, contract ? "contracted" : "separate"));
    auto p = rt.upload(fs);
    k.launch(NDRange{n}, p);
    rt.synchronize();
    const auto got = p.to_vector();
    for (std::size_t i = 0; i < n; ++i) {
      CAPTURE(i);
      const float a = fs[3 * i], b = fs[3 * i + 1], c = fs[3 * i + 2];
      const float want = contract && rt.device().fma_f32 ? std::fma(a, b, c) : unfused(a, b, c);
      CHECK(std::bit_cast<std::uint32_t>(got[3 * i]) == std::bit_cast<std::uint32_t>(want));
    }
  }
}

TEST_CASE("fmuladd: the disk cache key says whether fmuladd was fused") {
  // The same IR compiles to other code on a device without FMA: an entry must not serve both.
  const test::TempDir dir("spvjit-fmuladd-key");
  const DeviceInfo& device = test::runtime().device();
  llvm::LLVMContext context;
  const auto path = test::write_one_entry(kernel_from_module(*parse(context, module_ir), "madd"),
                                          test::in_dir(dir));
  const auto bytes = test::read_all(path);
  const auto decoded = detail::decode_entry(bytes);
  REQUIRE(decoded.ok());
  const std::string key(decoded.entry.key);
  const std::string expected = std::string("[fmuladd fused:") + (device.fma_f32 ? " f32" : "") +
                               (device.fma_f64 ? " f64" : "") + "]";
  CHECK((key.find(expected) != std::string::npos) == (device.fma_f32 || device.fma_f64));
  CHECK((key.find("fmuladd") == std::string::npos) == (!device.fma_f32 && !device.fma_f64));
}
