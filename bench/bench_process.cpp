// The cases that need a fresh process, each run by re-executing this binary (child_process.hpp):
//   time_to_load           process start -> device ready -> one kernel built, warm caches; the
//                          whole child's lifetime (it leaves with _exit, skipping teardown)
//   compile/cold           Jit::compile in a child whose spvjit and PoCL caches are empty
//   compile/warm_process   Jit::compile in a new process, caches on disk warm
//   compile/cold/2_kernels/threads={1,2}  two different kernels (saxpy f32 and f64) compiled in
//                          a cold child by one thread after the other, or by two threads at once
//                          (one Jit): whether independent compiles use both cores
//   compile/cold/host_heap=16GiB  compile/cold in a child that first fills 16 GiB of heap, as a
//                          large host does (a fork()ed translation once cost 1.2 s there)
//   compile/cold/statements={100,1000,10000}  examples::straight_line(n) in a cold child: its
//                          compile and first launch (PoCL compiles the work-group function
//                          there), with the SPIR-V's size as counters: compile cost against
//                          kernel size (issue #34)
//   baseline/opencl_c/compile/{cold,warm_process}  the same saxpy as OpenCL C source through
//                          clBuildProgram in a child, PoCL's cache empty / warm; and cold in a
//                          child holding 16 GiB, beside compile/cold/host_heap=16GiB
// and one that does not:
//   compile/in_memory_hit  Jit::compile of a kernel this Jit already compiled
// The two child compiles time themselves (manual time), so process start-up is not counted.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/child_process.hpp"
#include "bench/raw_opencl.hpp"
#include "bench/suite.hpp"
#include "spvjit/examples.hpp"
#include "test/temp_dir.hpp"

namespace spvjit::bench {

namespace {

using Clock = std::chrono::steady_clock;

// What a child reports: seconds it timed (0 when it timed nothing), allocations and bytes.
struct ChildReport {
  double seconds = 0;
  double allocs = 0;
  double bytes = 0;
};

void print_report(const ChildReport& r) {
  std::printf("%.9f %.0f %.0f\n", r.seconds, r.allocs, r.bytes);
  std::fflush(stdout);
}

ChildReport run_and_parse(const std::string& mode,
                          const std::map<std::string, std::string>& environment = {}) {
  const ChildResult child = run_child(mode, environment);
  if (child.status != 0) {
    throw Error("child process '" + mode + "' exited with status " + std::to_string(child.status) +
                " (its messages are on stderr)");
  }
  ChildReport r;
  std::istringstream in(child.output);
  if (!(in >> r.seconds >> r.allocs >> r.bytes)) {
    throw Error("child process '" + mode + "' printed no report: '" + child.output + "'");
  }
  return r;
}

// Runs `mode` once, unmeasured, so that the disk caches the measured children read are warm.
void warm_caches_once(const std::string& mode) {
  static std::map<std::string, bool> warmed;
  if (warmed[mode]) return;
  run_and_parse(mode);
  warmed[mode] = true;
}

void time_to_load(benchmark::State& state) {
  warm_caches_once("time_to_load");
  ChildReport total;
  for (auto _ : state) {
    const ChildReport r = run_and_parse("time_to_load");
    total.allocs += r.allocs;
    total.bytes += r.bytes;
  }
  report_allocs(state, total.allocs, total.bytes);
}

void compile_in_child(benchmark::State& state, bool cold, const std::string& mode = "compile") {
  if (!cold) warm_caches_once(mode);
  ChildReport total;
  for (auto _ : state) {
    ChildReport r;
    if (cold) {
      // Empty directories under /tmp, removed with everything in them.
      test::TempDir pocl_cache("spvjit-bench"), spvjit_cache("spvjit-bench");
      r = run_and_parse(
          mode, {{"POCL_CACHE_DIR", pocl_cache.path()}, {"SPVJIT_CACHE_DIR", spvjit_cache.path()}});
    } else {
      r = run_and_parse(mode);
    }
    state.SetIterationTime(r.seconds);
    total.allocs += r.allocs;
    total.bytes += r.bytes;
  }
  report_allocs(state, total.allocs, total.bytes);
}

// A cold child's compile + first launch of examples::straight_line(n); it prints the compile's
// seconds, the first launch's and the SPIR-V's bytes.
void compile_statements(benchmark::State& state, std::size_t statements) {
  double compile = 0, launch = 0, spirv = 0;
  for (auto _ : state) {
    test::TempDir pocl_cache("spvjit-bench"), spvjit_cache("spvjit-bench");
    const ChildResult child = run_child(
        "compile_statements=" + std::to_string(statements),
        {{"POCL_CACHE_DIR", pocl_cache.path()}, {"SPVJIT_CACHE_DIR", spvjit_cache.path()}});
    double c = 0, l = 0, bytes = 0;
    std::istringstream in(child.output);
    if (child.status != 0 || !(in >> c >> l >> bytes)) {
      state.SkipWithError(
          ("child exited with status " + std::to_string(child.status) + ": " + child.output)
              .c_str());
      return;
    }
    state.SetIterationTime(c + l);
    compile += c;
    launch += l;
    spirv = bytes;
  }
  const double runs = static_cast<double>(state.iterations());
  state.counters["compile_ms"] = 1e3 * compile / runs;
  state.counters["first_launch_ms"] = 1e3 * launch / runs;
  state.counters["spirv_bytes"] = spirv;
  state.counters["spirv_bytes_per_statement"] = spirv / static_cast<double>(statements);
}

void compile_in_memory_hit(benchmark::State& state) {
  Context* ctx = context(state);
  if (!ctx) return;
  const KernelDef& def = saxpy_kernel(Scalar::F32);
  ctx->jit.compile(def);
  AllocMeter meter;
  for (auto _ : state) {
    Kernel k = ctx->jit.compile(def);
    benchmark::DoNotOptimize(k);
  }
  meter.report(state);
}

// The children. Both leave with _exit: PoCL's teardown is not what is being measured.
[[noreturn]] void child_time_to_load() {
  Runtime runtime;
  Jit jit(runtime);
  jit.compile(saxpy_kernel(Scalar::F32));
  const auto counts = support::alloc_counts();
  print_report({0, static_cast<double>(counts.allocations), static_cast<double>(counts.bytes)});
  _exit(0);
}

[[noreturn]] void child_compile(std::size_t heap_mib = 0) {
  // Touched, so that its pages (and page tables) exist, as in a host that uses its memory.
  std::vector<char> heap(heap_mib << 20, 1);
  benchmark::DoNotOptimize(heap.data());
  Runtime runtime;
  Jit jit(runtime);
  const KernelDef& def = saxpy_kernel(Scalar::F32);
  const auto before = support::alloc_counts();
  const auto start = Clock::now();
  jit.compile(def);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const auto after = support::alloc_counts();
  // Counted up to compile()'s return, the disk-cache entry's write included.
  print_report({seconds, static_cast<double>(after.allocations - before.allocations),
                static_cast<double>(after.bytes - before.bytes)});
  _exit(0);
}

[[noreturn]] void child_compile_statements(std::size_t statements) {
  Runtime runtime;
  Jit jit(runtime);
  const KernelDef def = examples::straight_line(statements);
  const std::size_t n = 4096;
  auto x = runtime.upload(std::vector<float>(n, 1.0f));
  auto z = runtime.zeros<float>(n);
  const auto start = Clock::now();
  Kernel k = jit.compile(def);
  const auto compiled = Clock::now();
  k.launch(NDRange{n}, z, x, 0.5f);
  runtime.synchronize();
  const auto launched = Clock::now();
  // Every partial sum is a multiple of 0.5 below 2^24: exact.
  if (z.to_vector() != std::vector<float>(n, 0.5f * static_cast<float>(statements))) {
    std::fprintf(stderr, "compile_statements=%zu: wrong result\n", statements);
    _exit(1);
  }
  const std::size_t bytes = jit.spirv(def).size() * 4;
  std::printf("%.9f %.9f %zu\n", std::chrono::duration<double>(compiled - start).count(),
              std::chrono::duration<double>(launched - compiled).count(), bytes);
  std::fflush(stdout);
  _exit(0);
}

// Two kernels compiled by `threads` threads (1 or 2), timed from the first compile's start to
// the last one's end.
[[noreturn]] void child_compile_two(unsigned threads) {
  Runtime runtime;
  Jit jit(runtime);
  const KernelDef& f32 = saxpy_kernel(Scalar::F32);
  const KernelDef& f64 = saxpy_kernel(Scalar::F64);
  const auto before = support::alloc_counts();
  const auto start = Clock::now();
  if (threads == 1) {
    jit.compile(f32);
    jit.compile(f64);
  } else {
    std::thread other([&] { jit.compile(f64); });
    jit.compile(f32);
    other.join();
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const auto after = support::alloc_counts();
  jit.stats();
  print_report({seconds, static_cast<double>(after.allocations - before.allocations),
                static_cast<double>(after.bytes - before.bytes)});
  _exit(0);
}

// The baseline: the same saxpy as OpenCL C source through clBuildProgram, as an application
// without spvjit would build it (PoCL caches compiled sources in POCL_CACHE_DIR).
[[noreturn]] void child_compile_opencl_c(std::size_t heap_mib = 0) {
  std::vector<char> heap(heap_mib << 20, 1);
  benchmark::DoNotOptimize(heap.data());
  static const char* source =
      "__kernel void saxpy_f32(__global float* Z, __global const float* X,\n"
      "                        __global const float* Y, float a, long n) {\n"
      "  long i = get_global_id(0);\n"
      "  if (i < n) Z[i] = a * X[i] + Y[i];\n"
      "}\n";
  raw::Device device;
  const auto before = support::alloc_counts();
  const auto start = Clock::now();
  cl_int err = CL_SUCCESS;
  raw::Program program(clCreateProgramWithSource(device.context(), 1, &source, nullptr, &err));
  raw::check(err, "clCreateProgramWithSource");
  cl_device_id id = device.id();
  raw::check(clBuildProgram(program.get(), 1, &id, "", nullptr, nullptr), "clBuildProgram");
  raw::KernelHandle kernel(clCreateKernel(program.get(), "saxpy_f32", &err));
  raw::check(err, "clCreateKernel");
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const auto after = support::alloc_counts();
  print_report({seconds, static_cast<double>(after.allocations - before.allocations),
                static_cast<double>(after.bytes - before.bytes)});
  _exit(0);
}

}  // namespace

int child_main(const std::string& mode) {
  try {
    if (mode == "time_to_load") child_time_to_load();
    if (mode == "compile") child_compile();
    if (mode == "compile_big_host") child_compile(std::size_t{16} << 10);
    if (mode == "compile_two_threads=1") child_compile_two(1);
    if (mode == "compile_two_threads=2") child_compile_two(2);
    if (mode == "compile_opencl_c") child_compile_opencl_c();
    if (mode.rfind("compile_statements=", 0) == 0) {
      child_compile_statements(std::stoul(mode.substr(sizeof("compile_statements=") - 1)));
    }
    if (mode == "compile_opencl_c_big_host") child_compile_opencl_c(std::size_t{16} << 10);
    std::fprintf(stderr, "spvjit_bench: unknown child mode '%s'\n", mode.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spvjit_bench child '%s': %s\n", mode.c_str(), e.what());
  }
  return 2;
}

void register_process() {
  add_case("compile/cold", [](benchmark::State& s) { compile_in_child(s, true); })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  add_case("compile/warm_process", [](benchmark::State& s) { compile_in_child(s, false); })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  for (const char* threads : {"1", "2"}) {
    add_case(std::string("compile/cold/2_kernels/threads=") + threads,
             [threads](benchmark::State& s) {
               compile_in_child(s, true, std::string("compile_two_threads=") + threads);
             })
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  add_case("compile/cold/host_heap=16GiB",
           [](benchmark::State& s) { compile_in_child(s, true, "compile_big_host"); })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  for (std::size_t statements : {100, 1000, 10000}) {
    add_case("compile/cold/statements=" + std::to_string(statements),
             [statements](benchmark::State& s) { compile_statements(s, statements); })
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
  add_case("time_to_load", time_to_load)->Unit(benchmark::kMillisecond);
  add_case("baseline/opencl_c/compile/cold",
           [](benchmark::State& s) { compile_in_child(s, true, "compile_opencl_c"); })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  // What a 16 GiB host costs PoCL's compile alone, with no spvjit in the process.
  add_case("baseline/opencl_c/compile/cold/host_heap=16GiB",
           [](benchmark::State& s) { compile_in_child(s, true, "compile_opencl_c_big_host"); })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  add_case("baseline/opencl_c/compile/warm_process",
           [](benchmark::State& s) { compile_in_child(s, false, "compile_opencl_c"); })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

void register_compile_hit() {
  add_case("compile/in_memory_hit", compile_in_memory_hit)->Unit(benchmark::kNanosecond);
}

}  // namespace spvjit::bench
