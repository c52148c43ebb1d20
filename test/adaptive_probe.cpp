// Runs the adaptive-dispatch checks in a process of its own: PoCL reads POCL_DEVICES once per
// process, and the test binary's runtime has opened the pthread device alone. Prints one line
// per check and "FAIL: ..." for each failure; exit 0 when all pass, 1 when one fails, 2 when the
// adaptive runtime cannot start.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "test/accumulate_kernel.hpp"
#include "runtime/inline_pool.hpp"
#include "runtime/launch_state.hpp"
#include "runtime/program.hpp"
#include "spvjit/builder.hpp"
#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"
#if SPVJIT_HAVE_ALLOC_COUNTER
#include "test/alloc_counter.hpp"
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
  rt.set_split_threshold(SIZE_MAX);  // pthread, not the inline threads, for large launches
  Kernel k = jit.compile(examples::saxpy(scalar_of<T>));
  for (std::size_t n : {std::size_t{16}, std::size_t{1000}, std::size_t{65537}}) {
    std::vector<T> x(n), y(n);
    auto make = [](A v) {
      if constexpr (std::is_same_v<T, half>)
        return to_half(v);
      else
        return v;
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
  rt.set_split_threshold(SIZE_MAX);
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
  check(ok,
        "pthread -> basic -> pthread chains and a read see each other's results without a "
        "synchronize");
}

// Threads alternating small (basic) and large (pthread) launches of one kernel.
void threads_across_devices(Runtime& rt, Jit& jit, bool split) {
  rt.set_inline_threshold(1024);
  rt.set_split_threshold(split ? 1024 : SIZE_MAX);  // the large launches: split, or pthread
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
  check(ok, std::string("4 threads x 2000 launches alternating basic and ") +
                (split ? "split" : "pthread") + ": exact sums");
}

#if SPVJIT_HAVE_ALLOC_COUNTER  // the interposer is left out of sanitizer builds
// A warm launch on the inline device allocates nothing in the whole process, and no more than
// the same raw OpenCL launch.
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
  auto ours = [&] {
    k.launch(NDRange{16}, A, B);
    rt.synchronize();
  };
  auto raw = [&] {
    clSetKernelArg(ck, 0, sizeof(cl_mem), &a);
    clSetKernelArg(ck, 1, sizeof(cl_mem), &b);
    for (cl_uint d = 0; d < 3; ++d) clSetKernelArg(ck, 2 + d, sizeof(cl_long), &extent[d]);
    clEnqueueNDRangeKernel(q, ck, 1, nullptr, global, local, 0, nullptr, nullptr);
    clFinish(q);
  };
  for (int i = 0; i < 20; ++i) {
    ours();
    raw();
  }
  auto fewest = [](auto& f) {
    std::uint64_t best = UINT64_MAX;
    for (int r = 0; r < 5; ++r) {
      best = std::min(best, support::count_allocations([&] {
                              for (int i = 0; i < 50; ++i) f();
                            }).allocations);
    }
    return best;
  };
  const auto o = fewest(ours), w = fewest(raw);
  check(o == 0 && o <= w, "inline launch: " + std::to_string(o) +
                              " allocations per 50 launches, raw " + std::to_string(w));
}

// A split launch allocates nothing in the whole process (the hand-off to the inline threads
// included). Was, before PoCL's patch 0010: 0-19 per 20 launches, more with both cores busy,
// against 0 for its parts enqueued one after the other: parts in flight at once on one
// cl_kernel found its one spare argument block taken and allocated (issue #49).
void no_allocations_split(Runtime& rt, Jit& jit) {
  rt.set_inline_threshold(1024);
  rt.set_split_threshold(1024);
  Kernel k = jit.compile(examples::scale(Scalar::F64, 1));
  constexpr std::size_t n = 65536;
  auto A = rt.zeros<double>(n);
  auto B = rt.upload(std::vector<double>(n, 1.0));
  auto& s = detail::KernelAccess::state(k);
  cl_kernel ck = detail::KernelAccess::kernel(k);
  cl_command_queue q = s.core->inline_queue.get();
  const unsigned parts = rt.inline_threads();
  auto ours = [&] {
    k.launch(NDRange{n}, A, B);
    rt.synchronize();
  };
  ours();
  const std::size_t local = s.last_geometry.workgroup.size[0], global = s.last_geometry.global[0];
  const std::size_t groups = global / local;
  auto raw = [&] {
    for (unsigned p = 0; p < parts; ++p) {
      const std::size_t first = groups * p / parts, last = groups * (p + 1) / parts;
      const std::size_t offset = first * local, size = (last - first) * local;
      clEnqueueNDRangeKernel(q, ck, 1, &offset, &size, &local, 0, nullptr, nullptr);
      clFinish(q);
    }
  };
  const auto splits_before = s.core->split_launches.load();
  for (int i = 0; i < 20; ++i) {
    ours();
    raw();
  }
  auto fewest = [](auto& f) {
    std::uint64_t best = UINT64_MAX;
    for (int r = 0; r < 5; ++r) {
      best = std::min(best, support::count_allocations([&] {
                              for (int i = 0; i < 20; ++i) f();
                            }).allocations);
    }
    return best;
  };
  const auto o = fewest(ours), w = fewest(raw);
  check(s.core->split_launches.load() > splits_before && o == 0,
        "split launch: " + std::to_string(o) + " allocations per 20 launches, raw parts " +
            std::to_string(w));
}

// The same for a kernel with a local array: KA's dot, group-looped, 64 groups of 1024 split
// over the inline threads. PoCL's basic device gave each launch part a heap block for every
// local array (and a pointer to it) and freed them after (issue #49: 2 allocations per split
// launch, found with gdb on apps/stream/dot).
void no_allocations_split_local(Runtime& rt, Jit& jit) {
  rt.set_inline_threshold(1024);
  rt.set_split_threshold(1024);
  Specialization spec;
  spec.workgroup = WorkGroup{1024};
  Kernel k = jit.compile(examples::stream_dot(1024), spec);
  constexpr std::size_t n = 65536, groups = n / 1024;
  auto partial = rt.zeros<double>(groups);
  auto A = rt.upload(std::vector<double>(n, 1.0));
  auto B = rt.upload(std::vector<double>(n, 2.0));
  auto& s = detail::KernelAccess::state(k);
  auto ours = [&] {
    k.launch(NDRange{n}, partial, A, B);
    rt.synchronize();
  };
  const auto splits_before = s.core->split_launches.load();
  for (int i = 0; i < 20; ++i) ours();
  std::uint64_t best = UINT64_MAX;
  for (int r = 0; r < 5; ++r) {
    best = std::min(best, support::count_allocations([&] {
                            for (int i = 0; i < 20; ++i) ours();
                          }).allocations);
  }
  const bool sums = partial.to_vector() == std::vector<double>(groups, 2048.0);
  const auto split = s.core->split_launches.load() - splits_before;
  check(split == 120 && best == 0 && sums,
        "split launch with a local array: " + std::to_string(best) +
            " allocations per 20 launches; " + std::to_string(split) + " of 120 launches split" +
            (sums ? "" : ", wrong partial sums"));
}
#endif

// A program rebuilt from its device binary (what a disk cache does) runs on both devices.
void binary_on_both_devices(Runtime& rt, Jit& jit) {
  rt.set_split_threshold(SIZE_MAX);
  Kernel built = jit.compile(examples::scale(Scalar::F64, 1));
  const auto& s = detail::KernelAccess::state(built);
  const auto binary = detail::program_binary(s.program->get());
  auto program = std::make_shared<detail::ClHandle<cl_program>>(
      detail::build_program_from_binary(*s.core, binary, "", s.facts.name));
  Kernel k(std::make_shared<detail::LaunchState>(s.core, program, s.facts));
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

// Launches above the threshold run split over the inline threads (runtime/inline_pool.hpp):
// the same bits as on basic alone, in 1D and 2D, with a static workgroup, after the workers
// fell asleep; kernels that read group ids or use atomics go to pthread whole.
// An out-of-bounds store reported as BoundsError, nothing written past the array, and the kernel
// usable after it, on basic alone and split over the inline threads: with SPVJIT_DIRECT_LAUNCH=on
// both run through PoCL's kernel runner (no command), and the bounds records still reach
// synchronize. Each launch's path is counted, so a check that took no runner says so.
void bounds_errors_on_each_path(Runtime& rt, Jit& jit) {
  KernelBuilder kb("fill_ones");
  auto z = kb.param<Global<float>>("Z");
  z[kb.global_index()] = 1.0f;
  Kernel k = jit.compile(kb.finish());
  auto& core = *detail::KernelAccess::state(k).core;
  const bool direct = core.kernel_runner.create != nullptr;
  constexpr std::size_t held = 60000, launched = 65536, tail = 8192;
  for (std::size_t split : {SIZE_MAX, std::size_t{0}}) {
    const std::string path = split == 0 ? "split" : "basic alone";
    rt.set_inline_threshold(SIZE_MAX);
    rt.set_split_threshold(split);
    auto whole = rt.upload(std::vector<float>(held + tail, -7.0f));
    auto view_z = view(whole, 0, held);
    k.launch(NDRange{held}, view_z);  // in bounds: places the buffer on basic (kernel_runner.hpp)
    rt.synchronize();
    const auto direct_before = core.direct_launches.load();
    std::string message;
    try {
      k.launch(NDRange{launched}, view_z);
      rt.synchronize();
    } catch (const BoundsError& e) {
      message = e.what();
    }
    check(message.find("kernel 'fill_ones': Z[") != std::string::npos &&
              message.find("is out of bounds: Z holds 60000 f32") != std::string::npos,
          path + ": an out-of-bounds store throws BoundsError (" + message + ")");
    const auto after = whole.to_vector();
    bool kept = true;
    for (std::size_t i = held; i < after.size(); ++i) kept &= after[i] == -7.0f;
    check(kept, path + ": nothing written past the array");
    if (direct) {
      check(core.direct_launches.load() > direct_before,
            path + ": the launch ran through PoCL's kernel runner");
    }
    auto ok = rt.zeros<float>(launched);
    k.launch(NDRange{launched}, ok);
    rt.synchronize();
    check(ok.to_vector() == std::vector<float>(launched, 1.0f),
          path + ": the kernel runs on after the error");
  }
}

void split_launches(Runtime& rt, Jit& jit) {
  check(rt.inline_threads() >= 2, "inline threads: " + std::to_string(rt.inline_threads()));
  Kernel saxpy = jit.compile(examples::saxpy(Scalar::F32));
  auto& core = *detail::KernelAccess::state(saxpy).core;
  auto run_both = [&](auto&& launch, auto& out) {  // basic alone, then split
    using T = typename std::decay_t<decltype(out)>::value_type;
    std::vector<std::vector<T>> results;
    std::uint64_t splits[2];
    for (std::size_t split : {SIZE_MAX, std::size_t{0}}) {
      rt.set_inline_threshold(SIZE_MAX);
      rt.set_split_threshold(split);
      out.write(std::vector<T>(out.size(), T(-1)));
      const auto before = core.split_launches.load();
      launch();
      rt.synchronize();
      splits[results.size()] = core.split_launches.load() - before;
      results.push_back(out.to_vector());
    }
    return std::make_pair(results[0] == results[1], splits[1]);
  };
  for (std::size_t n : {std::size_t{4097}, std::size_t{65537}, std::size_t{1} << 20}) {
    std::vector<float> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i % 17) * 0.37f;
      y[i] = static_cast<float>(i % 13) * 1.1f;
    }
    auto X = rt.upload(x), Y = rt.upload(y);
    auto Z = rt.zeros<float>(n);
    // Small ones with a workgroup given, so that they have several groups to split.
    auto [same, splits] = run_both(
        [&] {
          if (n < 10000) {
            saxpy.launch(NDRange{n}, WorkGroup{64}, Z, X, Y, 1.5f);
          } else {
            saxpy.launch(NDRange{n}, Z, X, Y, 1.5f);
          }
        },
        Z);
    check(same && splits == 1,
          "saxpy n=" + std::to_string(n) + ": split launch gives basic's bits");
  }
  {
    const std::int64_t n = 70, p = 33, m = 129;
    std::vector<float> a(n * p), b(p * m);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 7) * 0.25f - 0.5f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) * 0.5f - 1.0f;
    auto A = rt.upload(a), B = rt.upload(b);
    auto C = rt.zeros<float>(n * m);
    Kernel naive = jit.compile(examples::naive_matmul());
    auto [same, splits] = run_both(
        [&] {
          naive.launch(NDRange{m, n}, WorkGroup{8, 8}, C, A, B, n, p, m);
        },
        C);
    check(same && splits == 1, "naive matmul 70x33x129 (2D): split launch gives basic's bits");
    Specialization tile;
    tile.workgroup = WorkGroup{16, 16};
    Kernel tiled = jit.compile(examples::tiled_matmul(16), tile);
    auto [same2, splits2] = run_both([&] { tiled.launch(NDRange{m, n}, C, A, B, n, p, m); }, C);
    check(same2 && splits2 == 1,
          "tiled matmul (local memory, barriers): split launch gives basic's bits");
    // KernelAbstractions' dot asks for its group index; as loops in one work-item per group
    // (jit/workgroup/group_loops.hpp) that index is the work-item's global id, right under an
    // offset, so it splits too.
    Specialization groups_of_64;
    groups_of_64.workgroup = WorkGroup{64};
    Kernel dot = jit.compile(examples::stream_dot(64), groups_of_64);
    const std::size_t dn = 64 * 37;
    std::vector<double> da(dn), db(dn);
    for (std::size_t i = 0; i < dn; ++i) {
      da[i] = static_cast<double>(i % 11) * 0.125 + 1.0 / static_cast<double>(i + 3);
      db[i] = static_cast<double>(i % 7) * -0.5 + 1.0 / static_cast<double>(i + 5);
    }
    auto DA = rt.upload(da), DB = rt.upload(db);
    auto Partial = rt.zeros<double>(37);
    auto [same4, splits4] = run_both([&] { dot.launch(NDRange{dn}, Partial, DA, DB); }, Partial);
    check(
        same4 && splits4 == 1,
        "KA's dot, a group per work-item reading its group index: split launch gives basic's bits");
    // After the workers' spin ran out: they are woken, or the caller runs every part.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto [same3, splits3] = run_both(
        [&] {
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
          naive.launch(NDRange{m, n}, WorkGroup{8, 8}, C, A, B, n, p, m);
        },
        C);
    check(same3 && splits3 == 1, "a split launch after the workers fell asleep gives basic's bits");
  }
  {
    KernelBuilder kb("group_ids");
    auto out = kb.param<Global<std::int64_t>>("out");
    auto i = kb.global_index();
    kb.if_(kb.in_ndrange(),
           [&] { out[i] = kb.group_index() * std::int64_t{100000} + kb.local_index(); });
    Kernel groups = jit.compile(kb.finish());
    const std::size_t n = 50000;
    auto Out = rt.zeros<std::int64_t>(n);
    auto [same, splits] = run_both([&] { groups.launch(NDRange{n}, WorkGroup{100}, Out); }, Out);
    const auto v = Out.to_vector();
    bool exact = true;
    for (std::size_t k = 0; k < n; ++k)
      exact = exact && v[k] == static_cast<std::int64_t>((k / 100) * 100000 + k % 100);
    // Through PoCL's kernel runner every part sees the whole launch, so such a kernel splits;
    // enqueued parts would be offset launches, so without the runner it does not.
    const bool runner = core.kernel_runner.create != nullptr;
    check(same && exact && splits == (runner ? 1u : 0u),
          runner ? "a kernel reading group ids splits through the kernel runner and sees its true "
                   "group ids"
                 : "a kernel reading group ids is not split and sees its true group ids");
    // Ordered without a synchronize: pthread (group ids) -> split (copy) -> basic (16 items).
    KernelBuilder cb("plus_one");
    auto dst = cb.param<Global<std::int64_t>>("dst");
    auto src = cb.param<Const<std::int64_t>>("src");
    auto j = cb.global_index();
    cb.if_(cb.in_ndrange(), [&] { dst[j] = src[j] + std::int64_t{1}; });
    Kernel plus_one = jit.compile(cb.finish());
    rt.set_inline_threshold(1024);
    rt.set_split_threshold(1024);
    auto Copy = rt.zeros<std::int64_t>(n);
    auto Head = rt.zeros<std::int64_t>(n);
    bool ordered = true;
    for (int round = 0; round < 10; ++round) {
      groups.launch(NDRange{n}, WorkGroup{100}, Out);  // pthread
      plus_one.launch(NDRange{n}, Copy, Out);          // split
      plus_one.launch(NDRange{16}, Head, Copy);        // basic
      const auto c = Copy.to_vector();                 // no synchronize before the reads
      const auto h = Head.to_vector();
      for (std::size_t k = 0; k < n; ++k) ordered = ordered && c[k] == v[k] + 1;
      for (std::size_t k = 0; k < 16; ++k) ordered = ordered && h[k] == v[k] + 2;
    }
    check(ordered,
          "pthread -> split -> basic launches and reads see each other's results in order");
  }
  {
    Kernel count = jit.compile(test::counting_kernel());
    const std::size_t n = 100000;
    auto Counter = rt.zeros<std::int32_t>(1);
    auto [same, splits] = run_both(
        [&] {
          Counter.write(std::vector<std::int32_t>{0});
          count.launch(NDRange{n}, Counter);
        },
        Counter);
    check(same && Counter.to_vector()[0] == static_cast<std::int32_t>(n) && splits == 0,
          "a kernel using atomics is not split and counts exactly");
  }
}

// Around the split threshold: a launch is split exactly when its indices (work-items, rounded
// up to whole groups, times the coarsening width) exceed it, and split or not, every size gives
// basic's bits. Float32 and Float64 (coarsened 16 and 8 wide), sizes one group either side.
template <class T>
void split_threshold_boundary(Runtime& rt, Jit& jit) {
  Kernel saxpy = jit.compile(examples::saxpy(scalar_of<T>));
  auto& s = detail::KernelAccess::state(saxpy);
  auto& core = *s.core;
  constexpr std::size_t threshold = 8192;
  bool ok = true;
  unsigned split_count = 0, sizes = 0;
  std::string detail;
  for (std::size_t n = threshold - 300; n <= threshold + 300; n += 37) {
    std::vector<T> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<T>(i % 17) * T(0.37);
      y[i] = static_cast<T>(i % 13) * T(1.1);
    }
    auto X = rt.upload(x), Y = rt.upload(y);
    std::vector<T> results[2];
    std::uint64_t splits[2];
    for (int split = 0; split < 2; ++split) {
      rt.set_inline_threshold(SIZE_MAX);
      rt.set_split_threshold(split ? threshold : SIZE_MAX);
      auto Z = rt.zeros<T>(n);
      const auto before = core.split_launches.load();
      saxpy.launch(NDRange{n}, Z, X, Y, T(1.5));
      rt.synchronize();
      splits[split] = core.split_launches.load() - before;
      results[split] = Z.to_vector();
    }
    const std::size_t indices = s.last_geometry.items() * s.rules.coarsen;
    const bool groups = s.last_geometry.blocks[0] >= 2;
    const std::uint64_t expected = indices > threshold && groups ? 1 : 0;
    const bool right = results[0] == results[1] && splits[0] == 0 && splits[1] == expected;
    if (!right) detail += " n=" + std::to_string(n);
    ok = ok && right;
    split_count += static_cast<unsigned>(splits[1]);
    ++sizes;
  }
  check(ok && split_count > 0 && split_count < sizes,
        "saxpy " + std::string(name(scalar_of<T>)) + " around split threshold " +
            std::to_string(threshold) + ": split exactly above it (" + std::to_string(split_count) +
            " of " + std::to_string(sizes) + " sizes), basic's bits" +
            (detail.empty() ? std::string() : ": wrong at" + detail));
}

// A kernel declared heavy (KernelBuilder::work_per_item) counts its work-items times the
// declaration against the split threshold: 64 work-items summing 2000-element rows split, the
// same kernel undeclared runs inline on one thread; both give the same sums.
void heavy_work_items_split(Runtime& rt, Jit& jit) {
  auto row_sums = [](std::size_t work) {
    KernelBuilder kb(work > 1 ? "row_sums_heavy" : "row_sums");
    if (work > 1) kb.work_per_item(work);
    auto out = kb.param<Global<std::int64_t>>("out");
    auto in = kb.param<Const<std::int32_t>>("in");
    auto cols = kb.param<std::int64_t>("cols");
    auto row = kb.global_index();
    auto sum = kb.var<std::int64_t>(0);
    kb.for_(kb.lit<std::int64_t>(0), cols, [&](Val<std::int64_t> j) {
      sum += cast<std::int64_t>(Val<std::int32_t>(in[row * cols + j]));
    });
    out[row] = sum.get();
    return kb.finish();
  };
  constexpr std::size_t rows = 64, cols = 2000;
  std::vector<std::int32_t> values(rows * cols);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<std::int32_t>(i % 1001) - 500;
  auto In = rt.upload(values);
  rt.set_inline_threshold(SIZE_MAX);
  rt.set_split_threshold(8192);
  std::uint64_t splits[2];
  std::vector<std::int64_t> sums[2];
  const std::size_t work[2] = {1, cols};
  for (int heavy = 0; heavy < 2; ++heavy) {
    Kernel k = jit.compile(row_sums(work[heavy]));
    auto& core = *detail::KernelAccess::state(k).core;
    auto Out = rt.zeros<std::int64_t>(rows);
    const auto before = core.split_launches.load();
    k.launch(NDRange{rows}, Out, In, static_cast<std::int64_t>(cols));
    rt.synchronize();
    splits[heavy] = core.split_launches.load() - before;
    sums[heavy] = Out.to_vector();
  }
  std::vector<std::int64_t> expected(rows, 0);
  for (std::size_t i = 0; i < values.size(); ++i) expected[i / cols] += values[i];
  check(splits[0] == 0 && splits[1] == 1 && sums[0] == expected && sums[1] == expected,
        "64 work-items declared work_per_item(2000) split at threshold 8192, undeclared not (" +
            std::to_string(splits[0]) + ", " + std::to_string(splits[1]) + " splits), same sums");
}

// A launch of many times runtime/inline_pool.hpp's balanced_part_indices, through PoCL's kernel
// runner, is cut into up to 8 parts per thread, claimed as the threads finish: every group runs
// once, in whichever part (each work-item writes a value of its own id; a group left out leaves
// -1, one run twice on another's slot would show a wrong value). Enqueued, one part per thread.
void many_parts_split(Runtime& rt, Jit& jit) {
  KernelBuilder kb("many_parts");
  constexpr std::size_t per_item = std::size_t{1} << 16;
  kb.work_per_item(per_item);
  auto out = kb.param<Global<std::int64_t>>("out");
  auto i = kb.global_index();
  out[i] = i * 3 + 1;
  Kernel k = jit.compile(kb.finish());
  auto& core = *detail::KernelAccess::state(k).core;
  constexpr std::size_t items = 4096, group = 16;
  auto Out = rt.upload(std::vector<std::int64_t>(items, -1));
  rt.set_inline_threshold(SIZE_MAX);
  rt.set_split_threshold(8192);
  const auto launches_before = core.split_launches.load();
  const auto parts_before = core.split_parts.load();
  const auto direct_before = core.direct_launches.load();
  k.launch(NDRange{items}, WorkGroup{group}, Out);
  rt.synchronize();
  const auto parts = core.split_parts.load() - parts_before;
  const bool direct = core.direct_launches.load() > direct_before;
  const unsigned threads = rt.inline_threads();
  const std::uint64_t expected_parts =
      detail::split_parts(items * per_item, items / group, threads, direct);
  std::vector<std::int64_t> expected(items);
  for (std::size_t n = 0; n < items; ++n) expected[n] = static_cast<std::int64_t>(n) * 3 + 1;
  check(core.split_launches.load() - launches_before == 1 && parts == expected_parts &&
            (!direct || parts == 8u * threads) && Out.to_vector() == expected,
        "a launch of 2^28 declared indices split into " + std::to_string(parts) + " parts (" +
            (direct ? "through the kernel runner" : "enqueued") + ", " + std::to_string(threads) +
            " threads): every group once");
}

// Issue #46: a KA-style 1D upwind step (a data-dependent branch inside the interior test,
// allow_padding) coarsened at every width spvjit can choose, whatever the machine's own (an AVX2
// machine runs the 16-lane body too), 2^20 floats on the adaptive Runtime (split over the inline
// threads), 200 steps back and forth, against the same loop on the host. Was: SIGSEGV at 16
// lanes on AVX-512.
KernelDef upwind_kernel() {
  KernelBuilder kb("upwind");
  auto qn = kb.param<Global<float>>("Qn");
  auto qo = kb.param<Const<float>>("Q");
  auto vel = kb.param<Const<float>>("W");
  auto Lp = kb.param<std::int64_t>("L");
  auto nu = kb.param<float>("nu");
  auto i = kb.global_index();
  kb.allow_padding();
  kb.if_(i >= std::int64_t{1} && i < Lp - std::int64_t{1}, [&] {
    auto wi = vel[i];
    kb.if_else(
        wi > 0.0f, [&] { qn[i] = qo[i] - nu * wi * (qo[i] - qo[i - std::int64_t{1}]); },
        [&] { qn[i] = qo[i] - nu * wi * (qo[i + std::int64_t{1}] - qo[i]); });
  });
  return kb.finish();
}

void upwind_every_width(Runtime& rt) {
  constexpr std::size_t L = std::size_t{1} << 20;
  constexpr int steps = 200;
  constexpr float nu = 0.4f;
  std::vector<float> q(L), w(L);
  for (std::size_t i = 0; i < L; ++i) {
    q[i] = std::sin(static_cast<float>(i) * 0.001f);
    w[i] = std::cos(static_cast<float>(i) * 0.0007f);
  }
  // The host loop, in the kernel's own operation order (one rounding per operation, no FMA).
  std::vector<float> h0 = q, h1 = q;
  for (int s = 0; s < steps; ++s) {
    const std::vector<float>& from = s % 2 ? h1 : h0;
    std::vector<float>& to = s % 2 ? h0 : h1;
    for (std::size_t i = 1; i + 1 < L; ++i) {
      const float wi = w[i];
      volatile float t = nu * wi;
      const float d = wi > 0.0f ? from[i] - from[i - 1] : from[i + 1] - from[i];
      volatile float u = t * d;
      to[i] = from[i] - u;
    }
  }
  const std::vector<float>& expected = steps % 2 ? h1 : h0;
  for (unsigned width : {0u, 4u, 8u, 16u}) {
    JitOptions options;
    options.disk_cache = false;
    options.coarsen_width = width;
    Jit jit(rt, options);
    Kernel k = jit.compile(upwind_kernel());
    auto Q0 = rt.upload(q), Q1 = rt.upload(q), W = rt.upload(w);
    for (int s = 0; s < steps; ++s) {
      if (s % 2)
        k.launch(NDRange{L}, Q0, Q1, W, static_cast<std::int64_t>(L), nu);
      else
        k.launch(NDRange{L}, Q1, Q0, W, static_cast<std::int64_t>(L), nu);
    }
    rt.synchronize();
    const auto got = (steps % 2 ? Q1 : Q0).to_vector();
    // The lowered kernel's stack per work-item (its lane buffers) is known to the launch, and
    // the groups it chose fit half the thread's stack.
    const auto& s = detail::KernelAccess::state(k);
    const std::size_t group =
        s.last_geometry.workgroup[0] * s.last_geometry.workgroup[1] * s.last_geometry.workgroup[2];
    if (s.facts.launch.coarsen > 1) {
      check(s.facts.stack.per_item > 0 && group * s.facts.stack.per_item <= s.facts.stack.budget(),
            "upwind, width " + std::to_string(s.facts.launch.coarsen) + ": groups of " +
                std::to_string(group) + " x " + std::to_string(s.facts.stack.per_item) +
                " bytes per work-item within the stack budget " +
                std::to_string(s.facts.stack.budget()));
    }
    double worst = 0;
    for (std::size_t i = 0; i < L; ++i)
      worst = std::max(worst, std::fabs(double(got[i]) - expected[i]));
    check(worst <= 1e-5, "upwind, 2^20 floats, 200 steps, width " +
                             (width ? std::to_string(width) : std::string("native")) +
                             ": max difference from the host loop " + std::to_string(worst));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool split_only = argc > 1 && std::strcmp(argv[1], "split") == 0;
  const bool upwind_only = argc > 1 && std::strcmp(argv[1], "upwind") == 0;
  const bool allocations_only = argc > 1 && std::strcmp(argv[1], "allocations") == 0;
  try {
    RuntimeOptions options;
    options.dispatch = Dispatch::Adaptive;
    Runtime rt(options);
    std::printf("devices: %s + %s; threshold %zu; split threshold %zu; POCL_DEVICES=%s\n",
                rt.device().name.c_str(), rt.inline_device()->name.c_str(), rt.inline_threshold(),
                rt.split_threshold(),
                std::getenv("POCL_DEVICES") ? std::getenv("POCL_DEVICES") : "(unset)");
    Jit jit(rt);
    if (upwind_only) {
      upwind_every_width(rt);
      return g_failures == 0 ? 0 : 1;
    }
#if SPVJIT_HAVE_ALLOC_COUNTER
    if (allocations_only) {
      no_allocations_inline(rt, jit);
      no_allocations_split(rt, jit);
      no_allocations_split_local(rt, jit);
      return g_failures == 0 ? 0 : 1;
    }
#endif
    if (split_only) {  // the ThreadSanitizer build runs this part
      split_launches(rt, jit);
      split_threshold_boundary<float>(rt, jit);
      split_threshold_boundary<double>(rt, jit);
      heavy_work_items_split(rt, jit);
      many_parts_split(rt, jit);
      threads_across_devices(rt, jit, true);
      bounds_errors_on_each_path(rt, jit);
      return g_failures == 0 ? 0 : 1;
    }
    split_launches(rt, jit);
    bounds_errors_on_each_path(rt, jit);
    split_threshold_boundary<float>(rt, jit);
    split_threshold_boundary<double>(rt, jit);
    heavy_work_items_split(rt, jit);
    many_parts_split(rt, jit);
    same_results_on_both_devices<float>(rt, jit);
    same_results_on_both_devices<double>(rt, jit);
    same_results_on_both_devices<half>(rt, jit);
    ordered_across_devices(rt, jit);
    threads_across_devices(rt, jit, false);
    threads_across_devices(rt, jit, true);
#if SPVJIT_HAVE_ALLOC_COUNTER
    no_allocations_inline(rt, jit);
    no_allocations_split(rt, jit);
    no_allocations_split_local(rt, jit);
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
