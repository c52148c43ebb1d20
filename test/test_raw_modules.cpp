// A raw module's kernels compiled together: one translation, one OpenCL program, one cache
// entry (Jit::compile(ModuleDef)); and raw kernels that guard their own bounds
// (RawKernelOptions::guards_own_bounds).
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "ir/kernel_module.hpp"
#include "runtime/launch_state.hpp"
#include "spvjit/raw_module.hpp"
#include "test/opencl_c.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

namespace {

// Three kernels sharing a helper, and a function that is no kernel.
const char* const three_kernels = R"(
float twice(float x) { return 2.0f * x; }

__kernel void add(__global float* out, __global const float* a, __global const float* b) {
  int i = get_global_id(0);
  out[i] = a[i] + b[i];
}
__kernel void scale(__global float* out, __global const float* a, float s) {
  int i = get_global_id(0);
  out[i] = twice(a[i]) * s;
}
__kernel void fill(__global int* out, int value) {
  out[get_global_id(0)] = value + (int)get_global_id(0);
}
)";

const std::string& three_kernels_bitcode() {
  static const std::string bitcode = test::opencl_c_bitcode(three_kernels);
  return bitcode;
}

// a + b, 2a*s and value + i over n items of `program`, checked.
void check_three(const Program& program, std::size_t n) {
  auto& rt = test::runtime();
  std::vector<float> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    b[i] = 3.0f - static_cast<float>(i);
  }
  auto A = rt.upload(a);
  auto B = rt.upload(b);
  auto sum = rt.zeros<float>(n);
  auto scaled = rt.zeros<float>(n);
  auto filled = rt.zeros<std::int32_t>(n);
  program.kernel("add").launch(NDRange{n}, sum, A, B);
  program.kernel("scale").launch(NDRange{n}, scaled, A, 1.5f);
  program.kernel("fill").launch(NDRange{n}, filled, std::int32_t{7});
  rt.synchronize();
  const auto s = sum.to_vector();
  const auto c = scaled.to_vector();
  const auto f = filled.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    CHECK(s[i] == a[i] + b[i]);
    CHECK(c[i] == 2.0f * a[i] * 1.5f);
    CHECK(f[i] == 7 + static_cast<std::int32_t>(i));
  }
}

cl_program program_of(const Kernel& k) { return detail::KernelAccess::state(k).program->get(); }

}  // namespace

TEST_CASE("raw modules: a module's three kernels are translated and built once, into one program") {
  const test::TempDir dir("spvjit-raw-modules");
  const ModuleDef module = module_from_bitcode(three_kernels_bitcode());
  CHECK(module.kernel_names() == std::vector<std::string>{"add", "scale", "fill"});
  CHECK(module.kernel("scale").params().size() == 3);
  Jit jit(test::runtime(), {.cache_dir = dir.path()});
  const Program program = jit.compile(module);
  CHECK(jit.stats().compiles == 1);
  CHECK(jit.stats().disk_writes == 1);
  REQUIRE(program.kernel_names() == std::vector<std::string>{"add", "scale", "fill"});
  CHECK(program_of(program.kernel("add")) == program_of(program.kernel("scale")));
  CHECK(program_of(program.kernel("add")) == program_of(program.kernel("fill")));
  check_three(program, 100);

  // Its kernels compiled alone, or taken again from equal bitcode, share that program.
  Kernel fill = jit.compile(module.kernel("fill"));
  Kernel add_again = jit.compile(kernel_from_bitcode(three_kernels_bitcode(), "add"));
  CHECK(program_of(fill) == program_of(program.kernel("add")));
  CHECK(program_of(add_again) == program_of(program.kernel("add")));
  CHECK(jit.compile(module).kernel("add").name() == "add");
  CHECK(jit.stats().compiles == 1);

  // A static workgroup is another program, for all three kernels at once.
  const Program grouped = jit.compile(module, {.workgroup = WorkGroup{20}});
  CHECK(jit.stats().compiles == 2);
  for (const Kernel& k : grouped.kernels()) {
    CHECK(k.specialization().workgroup == WorkGroup{20});
    CHECK(program_of(k) == program_of(grouped.kernel("add")));
  }
  check_three(grouped, 100);
}

TEST_CASE("raw modules: independent kernel_from_bitcode calls on one module translate it once") {
  const test::TempDir dir("spvjit-raw-modules");
  Jit jit(test::runtime(), {.cache_dir = dir.path()});
  Kernel add = jit.compile(kernel_from_bitcode(three_kernels_bitcode(), "add"));
  Kernel scale = jit.compile(kernel_from_bitcode(three_kernels_bitcode(), "scale"));
  CHECK(jit.stats().compiles == 1);
  CHECK(program_of(add) == program_of(scale));
  CHECK(jit.compile(module_from_bitcode(three_kernels_bitcode())).kernel("fill").valid());
  CHECK(jit.stats().compiles == 1);
}

// In the doctest suite "concurrency", which the ThreadSanitizer build runs.
TEST_SUITE("concurrency") {
  TEST_CASE("raw modules: 6 threads compiling the kernels of one module at once build it once") {
    const test::TempDir dir("spvjit-raw-modules");
    Jit jit(test::runtime(), {.cache_dir = dir.path()});
    const std::string& bitcode = three_kernels_bitcode();
    const char* const names[] = {"add", "scale", "fill"};
    std::atomic<int> ready{0};
    std::vector<cl_program> programs(6);
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t) {
      threads.emplace_back([&, t] {
        // Each its own KernelDef, from its own parse: equal content, one program.
        const KernelDef def = kernel_from_bitcode(bitcode, names[t % 3]);
        ++ready;
        while (ready.load() < 6) std::this_thread::yield();  // compile together
        programs[static_cast<std::size_t>(t)] = program_of(jit.compile(def));
      });
    }
    for (auto& th : threads) th.join();
    CHECK(jit.stats().compiles == 1);
    for (cl_program p : programs) CHECK(p == programs[0]);
  }
}  // TEST_SUITE("concurrency")

TEST_CASE("raw modules: a new Jit loads the whole module from one disk-cache entry") {
  const test::TempDir dir("spvjit-raw-modules");
  {
    Jit writer(test::runtime(), {.cache_dir = dir.path()});
    writer.compile(module_from_bitcode(three_kernels_bitcode()));
    CHECK(writer.stats().disk_writes == 1);
  }
  Jit reader(test::runtime(), {.cache_dir = dir.path()});
  const Program program = reader.compile(module_from_bitcode(three_kernels_bitcode()));
  CHECK(reader.stats().compiles == 0);
  CHECK(reader.stats().disk_hits == 1);
  CHECK(disk_cache_info({.cache_dir = dir.path()}).entries == 1);
  check_three(program, 64);
}

TEST_CASE("raw modules: unknown kernel names and empty modules are UserErrors naming the kernels") {
  const ModuleDef module = module_from_bitcode(three_kernels_bitcode());
  CHECK_THROWS_WITH_AS(
      module.kernel("twice"),
      doctest::Contains("has no kernel 'twice'; its kernels: 'add', 'scale', 'fill'"), UserError);
  const Program program = test::jit().compile(module);
  CHECK_THROWS_WITH_AS(
      program.kernel("mul"),
      doctest::Contains("has no kernel 'mul'; its kernels: 'add', 'scale', 'fill'"), UserError);
  CHECK_THROWS_WITH_AS(Program().kernel("add"), doctest::Contains("an empty Program"), UserError);
  CHECK_THROWS_AS(test::jit().compile(ModuleDef()), UserError);
  CHECK_THROWS_WITH_AS(
      module_from_bitcode(test::opencl_c_bitcode("float f(float x) { return x; }")),
      doctest::Contains("defines no kernel"), UserError);
  CHECK_THROWS_WITH_AS(module_from_bitcode("not bitcode"), doctest::Contains("not LLVM 15 bitcode"),
                       UserError);
  // What clang 15 makes by default upstream (Debian's defaults to typed pointers).
  const std::string opaque = test::opencl_c_bitcode(three_kernels, "-Xclang -opaque-pointers");
  CHECK_THROWS_WITH_AS(module_from_bitcode(opaque), doctest::Contains("-no-opaque-pointers"),
                       UserError);
  CHECK_THROWS_WITH_AS(kernel_from_bitcode(opaque, "add"),
                       doctest::Contains("the bitcode uses opaque pointers"), UserError);
}

TEST_CASE("raw modules: a kernel's local arrays are its own, not its module's") {
  const ModuleDef module = module_from_bitcode(test::opencl_c_bitcode(R"(
__kernel void small(__global float* out) {
  __local float tile[16];
  tile[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[15 - get_local_id(0)];
}
__kernel void large(__global float* out) {
  __local float tile[1024];
  tile[get_local_id(0)] = 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[15 - get_local_id(0)];
}
)"));
  CHECK(detail::kernel_module(module.kernel("small")).static_local_bytes == 64);
  CHECK(detail::kernel_module(module.kernel("large")).static_local_bytes == 4096);
  const Program program = test::jit().compile(module);
  auto out = test::runtime().zeros<float>(32);
  program.kernel("small").launch(NDRange{32}, WorkGroup{16}, out);
  test::runtime().synchronize();
  CHECK(out.to_vector() == std::vector<float>(32, 1.0f));
  program.kernel("large").launch(NDRange{32}, WorkGroup{16}, out);
  test::runtime().synchronize();
  CHECK(out.to_vector() == std::vector<float>(32, 2.0f));
}

namespace {
const char* const guarded = R"(
__kernel void guarded_double(__global float* out, __global const float* in, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = 2.0f * in[i];
}
)";
}  // namespace

TEST_CASE("raw modules: a kernel that guards its own bounds runs 1000 items in groups of 64") {
  auto& rt = test::runtime();
  const std::string bitcode = test::opencl_c_bitcode(guarded);
  std::vector<float> in(1000);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) - 300.0f;
  auto In = rt.upload(in);
  auto Out = rt.zeros<float>(1000);
  const std::int32_t n = 1000;

  Kernel plain = test::jit().compile(kernel_from_bitcode(bitcode, "guarded_double"));
  CHECK_THROWS_WITH_AS(plain.launch(NDRange{1000}, WorkGroup{64}, Out, In, n),
                       doctest::Contains("RawKernelOptions{.guards_own_bounds = true}"), UserError);
  // Without the option a chosen workgroup divides the ndrange.
  CHECK(1000 % plain.workgroup_for(NDRange{1000}).size[0] == 0);

  const KernelDef def = kernel_from_bitcode(bitcode, "guarded_double", {.guards_own_bounds = true});
  CHECK(def.pads_safely());
  Kernel padded = test::jit().compile(def);
  CHECK(detail::KernelAccess::state(padded).program == detail::KernelAccess::state(plain).program);
  padded.launch(NDRange{1000}, WorkGroup{64}, Out, In, n);
  rt.synchronize();
  const auto got = Out.to_vector();
  for (std::size_t i = 0; i < in.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == 2.0f * in[i]);
  }
  // A module's kernels all take the option.
  const Program program =
      test::jit().compile(module_from_bitcode(bitcode, {.guards_own_bounds = true}));
  auto Out2 = rt.zeros<float>(1000);
  program.kernel("guarded_double").launch(NDRange{1000}, WorkGroup{64}, Out2, In, n);
  rt.synchronize();
  CHECK(Out2.to_vector() == got);
}

// The worked example of docs/porting-opencl.md, as written there.
namespace {
const char* const worked_example = R"(
__kernel void saxpy(__global float* y, __global const float* x, float a, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

__kernel void reverse_groups(__global float* out, __global const float* in,
                             __local float* tile) {
  int l = get_local_id(0), size = get_local_size(0), base = get_group_id(0) * size;
  tile[l] = in[base + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + l] = tile[size - 1 - l];
}
)";
}  // namespace

TEST_CASE("raw modules: the worked example of porting-opencl.md") {
  const std::string bitcode = test::opencl_c_bitcode(worked_example, "-fno-discard-value-names");
  const test::TempDir dir("spvjit-raw-modules");
  Runtime& rt = test::runtime();
  Jit jit(rt, {.cache_dir = dir.path()});
  Program program = jit.compile(module_from_bitcode(bitcode));
  // saxpy tests i < n itself: it may run padded groups. Same bitcode, same program.
  Kernel saxpy = jit.compile(kernel_from_bitcode(bitcode, "saxpy", {.guards_own_bounds = true}));
  Kernel reverse = program.kernel("reverse_groups");
  CHECK(jit.stats().compiles == 1);

  const std::int32_t n = 1000;
  std::vector<float> xs(n), ys(n, 1.0f);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i);
  auto x = rt.upload(xs);
  auto y = rt.upload(ys);
  saxpy.launch(NDRange{1000}, WorkGroup{64}, y, x, 2.0f, n);  // 1024 work-items
  auto reversed = rt.zeros<float>(1000);
  reverse.launch(NDRange{1000}, WorkGroup{8}, reversed, y, LocalMemory{8 * sizeof(float)});
  rt.synchronize();
  const auto r = reversed.to_vector();
  for (std::size_t i = 0; i < r.size(); ++i) {
    CAPTURE(i);
    const std::size_t from = i / 8 * 8 + (7 - i % 8);
    CHECK(r[i] == 2.0f * xs[from] + 1.0f);
  }

  // Messages a porter meets: an int64_t for `int n`, and a workgroup that does not divide.
  CHECK_THROWS_WITH_AS(saxpy.launch(NDRange{1000}, y, x, 2.0f, std::int64_t{n}),
                       doctest::Contains("argument 3 'n': expected i32, got a scalar i64"),
                       UserError);
  CHECK_THROWS_WITH_AS(
      reverse.launch(NDRange{1000}, WorkGroup{64}, reversed, y, LocalMemory{64 * sizeof(float)}),
      doctest::Contains("does not divide ndrange"), UserError);
}
