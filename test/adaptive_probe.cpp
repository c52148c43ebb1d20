// Runs the adaptive-dispatch checks in a process of its own: PoCL reads POCL_DEVICES once per
// process, and the test binary's runtime has opened the pthread device alone. Prints one line
// per check and "FAIL: ..." for each failure; exit 0 when all pass, 1 when one fails, 2 when the
// adaptive runtime cannot start.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "test/accumulate_kernel.hpp"
#include "runtime/launch_state.hpp"
#include "runtime/program.hpp"
#include "spvjit/builder.hpp"
#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"
#if SPVJIT_HAVE_ALLOC_COUNTER
#include "support/alloc_counter.hpp"
#endif

using namespace spvjit;

namespace {

int g_failures = 0;
void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what.c_str());
  if (!ok) ++g_failures;
}

// Same bits whichever device ran the launch: saxpy over sizes around the threshold.
template <class T>
void same_results_on_both_devices(Runtime& rt, Jit& jit) {
  using A = arithmetic_t<T>;
  Kernel k = jit.compile(examples::saxpy(scalar_of<T>));
  for (std::size_t n : {std::size_t{16}, std::size_t{1000}, std::size_t{65537}}) {
    std::vector<T> x(n), y(n);
    auto make = [](A v) {
      if constexpr (std::is_same_v<T, half>) return to_half(v);
      else return v;
    };
    for (std::size_t i = 0; i < n; ++i) {  // inexact products: rounding must match too
      x[i] = make(A(i % 17) * A(0.37));
      y[i] = make(A(i % 13) * A(1.1));
    }
    auto X = rt.upload(x), Y = rt.upload(y);
    std::vector<std::vector<T>> results;
    for (std::size_t threshold : {std::size_t{0}, SIZE_MAX, std::size_t{1024}}) {
      rt.set_inline_threshold(threshold);
      auto Z = rt.zeros<T>(n);
      k.launch(NDRange{n}, Z, X, Y, A(1.5));
      rt.synchronize();
      results.push_back(Z.to_vector());
    }
    check(results[0] == results[1] && results[0] == results[2],
          "saxpy " + std::string(name(scalar_of<T>)) + " n=" + std::to_string(n) +
              ": pthread, basic and adaptive results are bit-identical");
  }
}

// A big launch (pthread) then a small one (basic) that reads its output, with no synchronize
// between: the switch must wait for the big one.
void ordered_across_devices(Runtime& rt, Jit& jit) {
  rt.set_inline_threshold(1024);
  Kernel scale = jit.compile(examples::scale(Scalar::F64, 1));
  const std::size_t n = 1 << 18;
  auto B = rt.upload(std::vector<double>(n, 1.0));
  auto A = rt.zeros<double>(n);
  auto C = rt.zeros<double>(n);
  for (int round = 0; round < 20; ++round) {
    scale.launch(NDRange{n}, A, B);   // pthread: A = 2
    scale.launch(NDRange{16}, C, A);  // basic: C[0..16) = 4
    scale.launch(NDRange{n}, A, C);   // pthread: A[0..16) = 8, rest 0
  }
  const auto a = A.to_vector();  // no synchronize: the read must queue behind the launches
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok = ok && a[i] == (i < 16 ? 8.0 : 0.0);
  check(ok, "pthread -> basic -> pthread chains and a read see each other's results without a "
            "synchronize");
}

// Threads alternating small (basic) and large (pthread) launches of one kernel.
void threads_across_devices(Runtime& rt, Jit& jit) {
  rt.set_inline_threshold(1024);
  Kernel k = jit.compile(test::accumulate_kernel());
  constexpr unsigned threads = 4;
  constexpr int launches = 2000;
  constexpr std::size_t n = 8192;
  std::vector<Buffer<double>> buffers;
  for (unsigned t = 0; t < threads; ++t) buffers.push_back(rt.zeros<double>(n));
  std::atomic<int> errors{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        for (int i = 0; i < launches; ++i) {
          k.launch(NDRange{i % 2 ? n : std::size_t{16}}, buffers[t], t + 1.0);
        }
      } catch (const std::exception& e) {
        std::printf("thread %u: %s\n", t, e.what());
        errors.fetch_add(1);
      }
    });
  }
  for (auto& th : pool) th.join();
  rt.synchronize();
  bool ok = errors.load() == 0;
  for (unsigned t = 0; t < threads; ++t) {
    const auto v = buffers[t].to_vector();
    for (std::size_t i = 0; i < n; ++i) {
      ok = ok && v[i] == (t + 1.0) * (i < 16 ? launches : launches / 2);
    }
  }
  check(ok, "4 threads x 2000 launches alternating basic and pthread: exact sums");
}

#if SPVJIT_HAVE_ALLOC_COUNTER  // the interposer is left out of sanitizer builds
// A warm launch on the inline device allocates no more than the same raw OpenCL launch.
void no_allocations_inline(Runtime& rt, Jit& jit) {
  rt.set_inline_threshold(1024);
  Kernel k = jit.compile(examples::scale(Scalar::F64, 1));
  auto A = rt.zeros<double>(16);
  auto B = rt.upload(std::vector<double>(16, 1.0));
  auto& s = detail::KernelAccess::state(k);
  cl_kernel ck = detail::KernelAccess::kernel(k);
  cl_command_queue q = s.core->inline_queue.get();
  cl_mem a = A.handle(), b = B.handle();
  const cl_long extent[3] = {16, 1, 1};
  std::size_t global[3] = {16, 1, 1}, local[3] = {16, 1, 1};
  auto ours = [&] { k.launch(NDRange{16}, A, B); rt.synchronize(); };
  auto raw = [&] {
    clSetKernelArg(ck, 0, sizeof(cl_mem), &a);
    clSetKernelArg(ck, 1, sizeof(cl_mem), &b);
    for (cl_uint d = 0; d < 3; ++d) clSetKernelArg(ck, 2 + d, sizeof(cl_long), &extent[d]);
    clEnqueueNDRangeKernel(q, ck, 1, nullptr, global, local, 0, nullptr, nullptr);
    clFinish(q);
  };
  for (int i = 0; i < 20; ++i) { ours(); raw(); }
  auto fewest = [](auto& f) {
    std::uint64_t best = UINT64_MAX;
    for (int r = 0; r < 5; ++r) {
      best = std::min(best, support::count_allocations([&] { for (int i = 0; i < 50; ++i) f(); }).allocations);
    }
    return best;
  };
  const auto o = fewest(ours), w = fewest(raw);
  check(o <= w, "inline launch: " + std::to_string(o) + " allocations per 50 launches, raw " +
                    std::to_string(w));
}
#endif

// A program rebuilt from its device binary (what a disk cache does) runs on both devices.
void binary_on_both_devices(Runtime& rt, Jit& jit) {
  Kernel built = jit.compile(examples::scale(Scalar::F64, 1));
  const auto& s = detail::KernelAccess::state(built);
  const auto binary = detail::program_binary(s.program->get());
  auto program = std::make_shared<detail::ClHandle<cl_program>>(
      detail::build_program_from_binary(*s.core, binary, "", s.name));
  Kernel k(std::make_shared<detail::LaunchState>(s.core, program, s.name, s.params,
                                                 s.hidden_ndrange, s.spec));
  auto B = rt.upload(std::vector<double>(64, 3.0));
  bool ok = true;
  for (std::size_t threshold : {std::size_t{0}, SIZE_MAX}) {
    rt.set_inline_threshold(threshold);
    auto A = rt.zeros<double>(64);
    k.launch(NDRange{64}, A, B);
    ok = ok && A.to_vector() == std::vector<double>(64, 6.0);
  }
  check(ok, "a program built from its binary runs on pthread and on basic");
}

}  // namespace

int main() {
  try {
    RuntimeOptions options;
    options.dispatch = Dispatch::Adaptive;
    Runtime rt(options);
    std::printf("devices: %s + %s; threshold %zu; POCL_DEVICES=%s\n", rt.device().name.c_str(),
                rt.inline_device()->name.c_str(), rt.inline_threshold(),
                std::getenv("POCL_DEVICES") ? std::getenv("POCL_DEVICES") : "(unset)");
    Jit jit(rt);
    same_results_on_both_devices<float>(rt, jit);
    same_results_on_both_devices<double>(rt, jit);
    same_results_on_both_devices<half>(rt, jit);
    ordered_across_devices(rt, jit);
    threads_across_devices(rt, jit);
#if SPVJIT_HAVE_ALLOC_COUNTER
    no_allocations_inline(rt, jit);
#endif
    binary_on_both_devices(rt, jit);
  } catch (const DeviceNotFoundError& e) {
    std::printf("DeviceNotFoundError: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  return g_failures == 0 ? 0 : 1;
}
