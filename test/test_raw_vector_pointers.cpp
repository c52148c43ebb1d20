// OpenCL C kernels whose pointer parameters point to vectors (`__global float4*`, `int2*`,
// `float3*`, `char16*`, `__local float4*`), compiled by clang-15 at test time as an OpenCL author
// would: the launch passes memory of the scalar, element_scalars() per vector (4 for a float3,
// which takes the room of a float4), memory that holds no whole number of vectors is refused,
// the raw bounds check counts vectors, and the results equal the host's.
#include <doctest/doctest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "spvjit/raw_module.hpp"
#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

namespace {

const char* const source = R"(
__kernel void scale4(__global const float4* in, __global float4* out, float s) {
  int i = get_global_id(0);
  out[i] = in[i] * s + (float4)(0.0f, 1.0f, 2.0f, 3.0f);
}

__kernel void swap2(__global int2* p) {
  int i = get_global_id(0);
  p[i] = p[i].yx + (int2)(i, 0);
}

__kernel void weigh3(__global const float3* v, __global float3* rotated, __global float* out, int n) {
  int i = get_global_id(0);
  if (i < n) {
    out[i] = v[i].x + 2.0f * v[i].y + 4.0f * v[i].z;
    rotated[i] = v[i].zxy;
  }
}

__kernel void reverse_groups(__global float4* p, __local float4* tmp) {
  int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0) * n;
  tmp[l] = p[g + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[g + l] = tmp[n - 1 - l].wzyx;
}

__kernel void halves16(__global const char16* b, __global short8* s) {
  int i = get_global_id(0);
  s[i] = convert_short8(b[i].lo) - convert_short8(b[i].hi) + s[i];
}
)";

// The module clang-15 makes of `source`, as a spvjit kernel.
KernelDef compile_opencl_c(const char* kernel) {
  const test::TempDir dir("spvjit-raw-vector-pointers");
  const std::string cl = dir / "vectors.cl";
  const std::string bc = dir / "vectors.bc";
  std::ofstream(cl) << source;
  std::string out;
  const int rc = test::run_command(std::string(SPVJIT_CLANG) +
                                       " -target spir64 -cl-std=CL1.2 -O2 "
                                       "-Xclang -no-opaque-pointers -emit-llvm -c -o " +
                                       bc + " " + cl + " 2>&1",
                                   out);
  INFO(out);
  REQUIRE(rc == 0);
  std::ifstream in(bc, std::ios::binary);
  const std::string bitcode((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return kernel_from_bitcode(bitcode, kernel);
}

}  // namespace

TEST_CASE("raw vector pointers: float4* in and out take Buffer<float>, 4 floats a float4") {
  const KernelDef def = compile_opencl_c("scale4");
  REQUIRE(def.params().size() == 3);
  CHECK(def.params()[0].describe() == "global const f32x4*");
  CHECK(def.params()[1].describe() == "global f32x4*");
  CHECK(def.params()[0].type == Scalar::F32);
  CHECK(def.params()[0].lanes == 4);
  CHECK(def.params()[0].element_scalars() == 4);
  Kernel k = test::jit().compile(def);
  auto& rt = test::runtime();
  const std::size_t n = 24;  // float4s
  std::vector<float> host(4 * n);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i % 17) - 8.0f;
  auto in = rt.upload(host);
  auto out = rt.zeros<float>(4 * n);
  k.launch(NDRange{n}, in, out, 2.0f);
  rt.synchronize();
  const auto got = out.to_vector();
  for (std::size_t i = 0; i < host.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == host[i] * 2.0f + static_cast<float>(i % 4));
  }

  // Memory that holds no whole number of float4s, or of another scalar, is refused.
  auto odd = rt.zeros<float>(4 * n + 2);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{n}, in, odd, 2.0f),
                       "launch of kernel 'scale4': argument 1 'arg1': 98 f32 passed for global "
                       "f32x4*, which is not a whole number of vectors of 4 f32",
                       UserError);
  auto ints = rt.zeros<std::int32_t>(4 * n);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{n}, in, ints, 2.0f),
                       "launch of kernel 'scale4': argument 1 'arg1': expected global f32x4*, got "
                       "Buffer<i32>",
                       UserError);

  // Every work-item reads in[i] and writes out[i]: the launch's raw bounds check counts float4s,
  // so n + 1 work-items over n float4s (4n floats) is refused before anything runs.
  CHECK_THROWS_WITH_AS(k.launch(NDRange{n + 1}, in, out, 2.0f),
                       "kernel 'scale4': arg0[24] is out of bounds: arg0 holds 24 f32x4 (work-item "
                       "24 of ndrange (25,) reads or writes arg0[get_global_id(0)]); nothing was "
                       "launched",
                       BoundsError);

  // A view of whole float4s (from float4 8: the device's 128-byte alignment), and a shared
  // array, pass like buffers.
  const std::size_t first = 8;
  auto tail = view(out, 4 * first, 4 * (n - first));
  k.launch(NDRange{n - first}, in, tail, 1.0f);
  auto shared = allocate_shared<float>(rt, 4 * n);
  k.launch(NDRange{n}, in, shared, -1.0f);
  rt.synchronize();
  const auto viewed = out.to_vector();
  for (std::size_t i = 0; i < host.size(); ++i) {
    CAPTURE(i);
    const float s = i >= 4 * first ? 1.0f : 2.0f;
    const float from = i >= 4 * first ? host[i - 4 * first] : host[i];
    CHECK(viewed[i] == from * s + static_cast<float>(i % 4));
    CHECK(shared.data()[i] == -host[i] + static_cast<float>(i % 4));
  }
}

TEST_CASE("raw vector pointers: an int2* read and written in place") {
  const KernelDef def = compile_opencl_c("swap2");
  REQUIRE(def.params().size() == 1);
  CHECK(def.params()[0].describe() == "global i32x2*");
  Kernel k = test::jit().compile(def);
  auto& rt = test::runtime();
  const std::size_t n = 10;
  std::vector<std::int32_t> host(2 * n);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::int32_t>(i * i);
  auto p = rt.upload(host);
  k.launch(NDRange{n}, p);
  rt.synchronize();
  const auto got = p.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    CHECK(got[2 * i] == host[2 * i + 1] + static_cast<std::int32_t>(i));
    CHECK(got[2 * i + 1] == host[2 * i]);
  }
  auto odd = rt.zeros<std::int32_t>(2 * n + 1);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{n}, odd),
                       doctest::Contains("not a whole number of vectors of 2 i32"), UserError);
}

TEST_CASE("raw vector pointers: a float3 takes the room of 4 floats") {
  const KernelDef def = compile_opencl_c("weigh3");
  REQUIRE(def.params().size() == 4);
  CHECK(def.params()[0].describe() == "global const f32x3*");
  CHECK(def.params()[0].element_scalars() == 4);
  Kernel k = test::jit().compile(def);
  auto& rt = test::runtime();
  const std::size_t n = 13;
  std::vector<float> host(4 * n);
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = i % 4 == 3 ? 1000.0f : static_cast<float>(i % 9);
  auto v = rt.upload(host);
  auto rotated = rt.zeros<float>(4 * n);
  auto out = rt.zeros<float>(16);
  k.launch(NDRange{16}, WorkGroup{8}, v, rotated, out, static_cast<std::int32_t>(n));
  rt.synchronize();
  const auto got = out.to_vector();
  const auto turned = rotated.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    const float* e = &host[4 * i];
    CHECK(got[i] == e[0] + 2.0f * e[1] + 4.0f * e[2]);  // the fourth float is padding
    // Lanes 0 to 2; OpenCL leaves what a float3 store writes to the padding undefined.
    CHECK(turned[4 * i] == e[2]);
    CHECK(turned[4 * i + 1] == e[0]);
    CHECK(turned[4 * i + 2] == e[1]);
  }
  // 3 floats a float3 is a mistake the launch names.
  auto packed = rt.zeros<float>(3 * n);
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{16}, WorkGroup{8}, packed, rotated, out, static_cast<std::int32_t>(n)),
      "launch of kernel 'weigh3': argument 0 'arg0': 39 f32 passed for global const "
      "f32x3*, which is not a whole number of vectors of 4 f32 (a 3-lane vector "
      "takes the room of 4)",
      UserError);
}

TEST_CASE("raw vector pointers: __local float4* sized in bytes") {
  const KernelDef def = compile_opencl_c("reverse_groups");
  REQUIRE(def.params().size() == 2);
  CHECK(def.params()[1].describe() == "local f32x4[]");
  CHECK(def.params()[1].kind == ParamKind::LocalArray);
  Kernel k = test::jit().compile(def);
  auto& rt = test::runtime();
  const std::size_t group = 8, n = 32;
  std::vector<float> host(4 * n);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
  auto p = rt.upload(host);
  k.launch(NDRange{n}, WorkGroup{group}, p, LocalMemory{group * 4 * sizeof(float)});
  rt.synchronize();
  const auto got = p.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t from = (i / group) * group + (group - 1 - i % group);
    for (std::size_t lane = 0; lane < 4; ++lane) {
      CAPTURE(i);
      CAPTURE(lane);
      CHECK(got[4 * i + lane] == host[4 * from + 3 - lane]);
    }
  }
}

TEST_CASE("raw vector pointers: char16 and short8") {
  const KernelDef def = compile_opencl_c("halves16");
  REQUIRE(def.params().size() == 2);
  CHECK(def.params()[0].describe() == "global const i8x16*");
  CHECK(def.params()[1].describe() == "global i16x8*");
  Kernel k = test::jit().compile(def);
  auto& rt = test::runtime();
  const std::size_t n = 9;
  std::vector<std::int8_t> bytes(16 * n);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::int8_t>(static_cast<int>(i * 37 % 251) - 125);
  std::vector<std::int16_t> shorts(8 * n);
  for (std::size_t i = 0; i < shorts.size(); ++i) shorts[i] = static_cast<std::int16_t>(i * 3);
  auto b = rt.upload(bytes);
  auto s = rt.upload(shorts);
  k.launch(NDRange{n}, b, s);
  rt.synchronize();
  const auto got = s.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t lane = 0; lane < 8; ++lane) {
      CAPTURE(i);
      CAPTURE(lane);
      CHECK(got[8 * i + lane] ==
            bytes[16 * i + lane] - bytes[16 * i + 8 + lane] + shorts[8 * i + lane]);
    }
  }
}

TEST_CASE("raw vector pointers: a pointer to vectors SPIR-V has no type for is refused") {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString(R"(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
define spir_kernel void @five(<5 x float> addrspace(1)* %p) {
  ret void
}
)",
                                          error, context);
  REQUIRE(module);
  CHECK_THROWS_WITH_AS(kernel_from_module(*module, "five"),
                       doctest::Contains("function 'five' takes or returns a vector of a lane "
                                         "count SPIR-V has no type for (expected 2, 3, 4, 8 or 16 "
                                         "lanes)"),
                       UserError);
}
