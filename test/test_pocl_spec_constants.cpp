// PoCL reads a SPIR-V program's specialization constants itself (patch 0018,
// third_party/pocl/patches): clCreateProgramWithIL lists the constants a SpecId names, with the
// sizes of their types, as the translator's getSpecConstInfo does (patch 0001 asked
// pocl-spirv-tool, a process per program); clSetProgramSpecializationConstant checks ids and
// sizes against that list, and the values set reach the built kernel. A module whose framing is
// broken past its constants lists none, as the tool refused it, and modules with words
// overwritten at random are read without a crash. The cases pass on a PoCL with
// either patch: the list is the same, only where it comes from differs.
#include <doctest/doctest.h>

#include <CL/cl.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "spvjit/runtime.hpp"
#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"
#include "test/spvjit_platform.hpp"
#include "test/temp_dir.hpp"

namespace {

// A kernel writing its eight specialization constants (and one constant without a SpecId) to
// out[0..8] as 64-bit words: bools as 0/1, integers zero-extended, floats as their bits.
const char* const spec_module = R"SPV(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int16
               OpCapability Int8
               OpCapability Float64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kernel "spec_constants"
               OpDecorate %c_true SpecId 3
               OpDecorate %c_false SpecId 4
               OpDecorate %c_i8 SpecId 7
               OpDecorate %c_i16 SpecId 11
               OpDecorate %c_i32 SpecId 2
               OpDecorate %c_i64 SpecId 100
               OpDecorate %c_f32 SpecId 5
               OpDecorate %c_f64 SpecId 6
       %void = OpTypeVoid
       %bool = OpTypeBool
      %uchar = OpTypeInt 8 0
     %ushort = OpTypeInt 16 0
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
     %c_true = OpSpecConstantTrue %bool
    %c_false = OpSpecConstantFalse %bool
       %c_i8 = OpSpecConstant %uchar 5
      %c_i16 = OpSpecConstant %ushort 300
      %c_i32 = OpSpecConstant %uint 70000
      %c_i64 = OpSpecConstant %ulong 5000000000
      %c_f32 = OpSpecConstant %float 1.5
      %c_f64 = OpSpecConstant %double 2.25
    %c_plain = OpSpecConstant %uint 9
     %zero64 = OpConstant %ulong 0
      %one64 = OpConstant %ulong 1
         %i0 = OpConstant %ulong 0
         %i1 = OpConstant %ulong 1
         %i2 = OpConstant %ulong 2
         %i3 = OpConstant %ulong 3
         %i4 = OpConstant %ulong 4
         %i5 = OpConstant %ulong 5
         %i6 = OpConstant %ulong 6
         %i7 = OpConstant %ulong 7
         %i8 = OpConstant %ulong 8
        %ptr = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %ptr
     %kernel = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr
      %entry = OpLabel
         %v0 = OpSelect %ulong %c_true %one64 %zero64
         %v1 = OpSelect %ulong %c_false %one64 %zero64
         %v2 = OpUConvert %ulong %c_i8
         %v3 = OpUConvert %ulong %c_i16
         %v4 = OpUConvert %ulong %c_i32
        %f32 = OpBitcast %uint %c_f32
         %v5 = OpUConvert %ulong %f32
         %v6 = OpBitcast %ulong %c_f64
         %v8 = OpUConvert %ulong %c_plain
         %p0 = OpInBoundsPtrAccessChain %ptr %out %i0
               OpStore %p0 %v0 Aligned 8
         %p1 = OpInBoundsPtrAccessChain %ptr %out %i1
               OpStore %p1 %v1 Aligned 8
         %p2 = OpInBoundsPtrAccessChain %ptr %out %i2
               OpStore %p2 %v2 Aligned 8
         %p3 = OpInBoundsPtrAccessChain %ptr %out %i3
               OpStore %p3 %v3 Aligned 8
         %p4 = OpInBoundsPtrAccessChain %ptr %out %i4
               OpStore %p4 %v4 Aligned 8
         %p5 = OpInBoundsPtrAccessChain %ptr %out %i5
               OpStore %p5 %v5 Aligned 8
         %p6 = OpInBoundsPtrAccessChain %ptr %out %i6
               OpStore %p6 %v6 Aligned 8
         %p7 = OpInBoundsPtrAccessChain %ptr %out %i7
               OpStore %p7 %c_i64 Aligned 8
         %p8 = OpInBoundsPtrAccessChain %ptr %out %i8
               OpStore %p8 %v8 Aligned 8
               OpReturn
               OpFunctionEnd
)SPV";

struct SpecConstant {
  cl_uint id;
  std::size_t size;
};
// What getSpecConstInfo lists for spec_module: every constant with a SpecId, in module order.
const SpecConstant listed[] = {{3, 1}, {4, 1}, {7, 1}, {11, 2}, {2, 4}, {100, 8}, {5, 4}, {6, 8}};

// spec_module assembled by spirv-as (SPIRV-Tools, installed with PoCL's build dependencies).
std::vector<char> assembled(const spvjit::test::TempDir& dir) {
  {
    std::ofstream text(dir / "spec.spvasm");
    text << spec_module;
  }
  std::string out;
  const int code =
      spvjit::test::run_command("spirv-as --target-env spv1.2 -o '" + (dir / "spec.spv") + "' '" +
                                    (dir / "spec.spvasm") + "'",
                                out);
  REQUIRE_MESSAGE(code == 0, "spirv-as: " << out);
  std::ifstream in(dir / "spec.spv", std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void check(cl_int err, const char* what) {
  REQUIRE_MESSAGE(err == CL_SUCCESS, what << ": " << err);
}

// spvjit's PoCL (its platform version says "+spvjit") and its first device.
struct Pocl {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;

  Pocl() {
    spvjit::test::runtime();  // the ICD's vendors as spvjit's tests set them up
    const spvjit::test::FoundPlatform platform = spvjit::test::find_spvjit_platform();
    REQUIRE_MESSAGE(platform.spvjit, "no OpenCL platform is spvjit's PoCL");
    check(clGetDeviceIDs(platform.id, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
    cl_int err = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    check(err, "clCreateCommandQueueWithProperties");
  }
  ~Pocl() {
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }

  cl_program program(const std::vector<char>& il) const {
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithIL(context, il.data(), il.size(), &err);
    check(err, "clCreateProgramWithIL");
    return p;
  }

  // Builds `program` and runs its kernel on one work-item: out[0..8].
  std::vector<std::uint64_t> run(cl_program program) const {
    check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "spec_constants", &err);
    check(err, "clCreateKernel");
    std::vector<std::uint64_t> out(9, 0xdeadbeefull);
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   out.size() * 8, out.data(), &err);
    check(err, "clCreateBuffer");
    check(clSetKernelArg(kernel, 0, sizeof buffer, &buffer), "clSetKernelArg");
    const std::size_t one = 1;
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &one, &one, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    check(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, out.size() * 8, out.data(), 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer");
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    return out;
  }
};

template <class T>
std::uint64_t bits(T v) {
  std::uint64_t out = 0;
  std::memcpy(&out, &v, sizeof v);
  return out;
}

}  // namespace

TEST_CASE("pocl: a SPIR-V program's specialization constants are listed with their sizes") {
  spvjit::test::TempDir dir("spvjit-spec");
  const std::vector<char> il = assembled(dir);
  Pocl pocl;
  cl_program program = pocl.program(il);
  const std::uint64_t value = 0;
  for (const SpecConstant& c : listed) {
    CAPTURE(c.id);
    CHECK(clSetProgramSpecializationConstant(program, c.id, c.size, &value) == CL_SUCCESS);
    // Another size is refused: the list holds each constant's own.
    CHECK(clSetProgramSpecializationConstant(program, c.id, c.size == 8 ? 4 : c.size * 2, &value) ==
          CL_INVALID_VALUE);
  }
  // Ids no SpecId names (the constant without one has none).
  for (cl_uint id : {0u, 1u, 8u, 9u, 99u, 101u}) {
    CAPTURE(id);
    CHECK(clSetProgramSpecializationConstant(program, id, 4, &value) == CL_INVALID_SPEC_ID);
  }
  clReleaseProgram(program);
}

TEST_CASE("pocl: specialization constants keep their defaults and take the values set") {
  spvjit::test::TempDir dir("spvjit-spec");
  const std::vector<char> il = assembled(dir);
  Pocl pocl;
  cl_program defaults = pocl.program(il);
  CHECK(pocl.run(defaults) ==
        std::vector<std::uint64_t>{1, 0, 5, 300, 70000, bits(1.5f), bits(2.25), 5000000000ull, 9});
  clReleaseProgram(defaults);

  cl_program set = pocl.program(il);
  const cl_uchar no = 0, yes = 1, u8 = 200;
  const cl_ushort u16 = 40000;
  const cl_uint u32 = 4000000000u;
  const cl_ulong u64 = 0x123456789abcdef0ull;
  const float f32 = -3.75f;
  const double f64 = 1e300;
  check(clSetProgramSpecializationConstant(set, 3, 1, &no), "spec 3");
  check(clSetProgramSpecializationConstant(set, 4, 1, &yes), "spec 4");
  check(clSetProgramSpecializationConstant(set, 7, 1, &u8), "spec 7");
  check(clSetProgramSpecializationConstant(set, 11, 2, &u16), "spec 11");
  check(clSetProgramSpecializationConstant(set, 2, 4, &u32), "spec 2");
  check(clSetProgramSpecializationConstant(set, 100, 8, &u64), "spec 100");
  check(clSetProgramSpecializationConstant(set, 5, 4, &f32), "spec 5");
  check(clSetProgramSpecializationConstant(set, 6, 8, &f64), "spec 6");
  CHECK(pocl.run(set) ==
        std::vector<std::uint64_t>{0, 1, 200, 40000, 4000000000u, bits(f32), bits(f64), u64, 9});
  clReleaseProgram(set);
}

TEST_CASE("pocl: a SPIR-V module framed wrongly past its constants lists none of them") {
  spvjit::test::TempDir dir("spvjit-spec");
  std::vector<char> il = assembled(dir);
  // The last instruction (OpFunctionEnd, one word) claims two words: it runs past the end.
  REQUIRE(il.size() >= 24);
  const std::uint32_t two_words_function_end = (2u << 16) | 56u;
  std::memcpy(il.data() + il.size() - 4, &two_words_function_end, 4);
  Pocl pocl;
  cl_program program = pocl.program(il);
  const std::uint64_t value = 0;
  for (const SpecConstant& c : listed) {
    CAPTURE(c.id);
    CHECK(clSetProgramSpecializationConstant(program, c.id, c.size, &value) == CL_INVALID_SPEC_ID);
  }
  clReleaseProgram(program);
}

TEST_CASE("pocl: SPIR-V modules with words overwritten at random are read without a crash") {
  spvjit::test::TempDir dir("spvjit-spec");
  const std::vector<char> il = assembled(dir);
  Pocl pocl;
  std::mt19937 random(70);
  const std::size_t words = il.size() / 4;
  int read = 0;
  for (int round = 0; round < 200; ++round) {
    CAPTURE(round);
    std::vector<char> mutated = il;
    // One to three words of the first half (header, annotations, types: where the reading
    // happens) overwritten: with random values, or with word counts of 0, 1, 2 or 0xffff.
    const int changes = 1 + round % 3;
    for (int k = 0; k < changes; ++k) {
      const std::size_t at = random() % (words / 2);
      std::uint32_t word = static_cast<std::uint32_t>(random());
      if (round % 4 == 1) word = (word & 0xffffu) | (static_cast<std::uint32_t>(round % 3) << 16);
      if (round % 4 == 2) word = (word & 0xffffu) | 0xffff0000u;
      std::memcpy(mutated.data() + 4 * at, &word, 4);
    }
    if (round % 5 == 4) mutated.resize(4 * (5 + random() % (words - 5)));  // cut short
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithIL(pocl.context, mutated.data(), mutated.size(), &err);
    // A module PoCL recognises as SPIR-V (magic, a kernel entry point) makes a program whose
    // constants were read, however broken the rest; anything else is refused as not SPIR-V.
    CHECK((err == CL_SUCCESS) == (program != nullptr));
    CHECK((err == CL_SUCCESS || err == CL_INVALID_VALUE));
    if (program) {
      ++read;
      clReleaseProgram(program);
    }
  }
  // Most mutations leave the module recognisable: the constants' reading met them.
  CHECK(read >= 100);
}
