// Adaptive dispatch (PoCL basic + pthread in one context). The checks run in a child process
// (test/adaptive_probe.cpp): PoCL reads POCL_DEVICES once per process, and this process opened
// the pthread device alone.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>

#include "jit/spirv/offset_safety.hpp"
#include "runtime/inline_pool.hpp"
#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"
#include "test/accumulate_kernel.hpp"
#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

TEST_CASE(
    "adaptive dispatch: same bits on both devices, ordered across queues, thread-safe, "
    "no allocations, and spvjit sets POCL_DEVICES when it is unset") {
  std::string out;
  const int code = test::run_command("env -u POCL_DEVICES " SPVJIT_ADAPTIVE_PROBE, out);
  CHECK_MESSAGE(code == 0, out);
  CHECK(out.find("FAIL") == std::string::npos);
  CHECK(out.find("POCL_DEVICES=basic pthread") != std::string::npos);
}

// Issue #46: a 1D upwind step with a data-dependent branch, coarsened to 16 lanes, took the host
// down with SIGSEGV on AVX-512. Every width (native, 4, 8, 16) on every machine, split launches
// of 2^20 floats, against the host loop.
TEST_CASE("adaptive dispatch: a KA-style upwind step is right at every coarsening width") {
  std::string out;
  const int code =
      test::run_command("POCL_DEVICES='basic pthread' " SPVJIT_ADAPTIVE_PROBE " upwind", out);
  CHECK_MESSAGE(code == 0, out);
  CHECK_MESSAGE(out.find("FAIL") == std::string::npos, out);
  CHECK_MESSAGE(out.find("width 16: max difference") != std::string::npos, out);
}

TEST_CASE("adaptive dispatch takes its threshold from SPVJIT_INLINE_THRESHOLD and rejects junk") {
  std::string out;
  CHECK(test::run_command(
            "POCL_DEVICES='basic pthread' SPVJIT_INLINE_THRESHOLD=123 " SPVJIT_ADAPTIVE_PROBE,
            out) == 0);
  CHECK_MESSAGE(out.find("threshold 123;") != std::string::npos, out);
  std::string bad;
  CHECK(test::run_command("SPVJIT_INLINE_THRESHOLD=12k " SPVJIT_ADAPTIVE_PROBE, bad) == 1);
  CHECK_MESSAGE(bad.find("SPVJIT_INLINE_THRESHOLD='12k': expected a number of work-items") !=
                    std::string::npos,
                bad);
}

TEST_CASE("adaptive dispatch without PoCL's basic device says how to get it") {
  test::runtime();  // PoCL has started in this process with POCL_DEVICES unset: pthread only
  RuntimeOptions options;
  options.dispatch = Dispatch::Adaptive;
  CHECK_THROWS_WITH_AS(Runtime{options}, doctest::Contains("POCL_DEVICES=\"basic pthread\""),
                       DeviceNotFoundError);
}

#if SPVJIT_HAVE_ALLOC_COUNTER  // the interposer is left out of sanitizer builds
// Issue #49: a warm split launch + synchronize allocates nothing in the whole process, with
// this process keeping a core busy the while, so that the parts overlap on one cl_kernel (PoCL
// kept one spare argument block per kernel: 0-19 allocations per 20 launches before its patch
// 0010, more with both cores busy). Each probe run keeps the fewest of 5 rounds, and a round
// whose parts happened not to overlap counted 0 even then: 3 runs (1 of 3 failed before).
TEST_CASE("adaptive dispatch: warm split launches allocate nothing, both cores busy") {
  std::atomic<bool> done{false};
  std::thread busy([&] {
    while (!done.load(std::memory_order_relaxed)) {
    }
  });
  for (int run = 0; run < 3; ++run) {
    CAPTURE(run);
    std::string out;
    const int code = test::run_command(SPVJIT_ADAPTIVE_PROBE " allocations", out);
    CHECK_MESSAGE(code == 0, out);
    CHECK_MESSAGE(out.find("ok: split launch: 0 allocations per 20 launches") != std::string::npos,
                  out);
  }
  done = true;
  busy.join();
}
#endif

TEST_SUITE("concurrency") {
  // The inline threads (runtime/inline_pool.hpp) under the ThreadSanitizer build too: split
  // launches against basic alone, kernels that must not split, ordering across the three ways a
  // launch can go, and 4 threads launching at once. Three inline threads on two cores: the
  // workers are descheduled mid-part, which is when a hand-off goes wrong if it can.
  TEST_CASE("adaptive dispatch: large launches split over inline threads give basic's bits") {
    std::string out;
    const int code = test::run_command(
        "POCL_DEVICES='basic pthread' SPVJIT_INLINE_THREADS=3 "
        "SPVJIT_INLINE_THRESHOLD=1024 " SPVJIT_ADAPTIVE_PROBE " split",
        out);
    CHECK_MESSAGE(code == 0, out);
    CHECK(out.find("FAIL") == std::string::npos);
    CHECK(out.find("inline threads: 3") != std::string::npos);
    CHECK_MESSAGE(
        out.find("ok: 64 work-items declared work_per_item(2000) split") != std::string::npos, out);
    CHECK_MESSAGE(out.find("split into 24 parts (through the kernel runner, 3 threads): every "
                           "group once") != std::string::npos,
                  out);
  }

  // SPVJIT_INLINE_SPIN_US=0: the workers block after every part, so each split launch wakes them
  // and they join late or not at all (the caller then runs their parts): the same bits.
  TEST_CASE("split launches with workers that never spin give basic's bits") {
    std::string out;
    const int code = test::run_command(
        "POCL_DEVICES='basic pthread' SPVJIT_INLINE_THREADS=2 SPVJIT_INLINE_SPIN_US=0 "
        "SPVJIT_INLINE_THRESHOLD=1024 " SPVJIT_ADAPTIVE_PROBE " split",
        out);
    CHECK_MESSAGE(code == 0, out);
    CHECK(out.find("FAIL") == std::string::npos);
    CHECK(out.find("around split threshold 8192: split exactly above it") != std::string::npos);
  }

  TEST_CASE("SPVJIT_INLINE_THREADS and SPVJIT_SPLIT_THRESHOLD are checked") {
    std::string out;
    CHECK(test::run_command("POCL_DEVICES='basic pthread' SPVJIT_INLINE_THRESHOLD=1 "
                            "SPVJIT_INLINE_THREADS=x " SPVJIT_ADAPTIVE_PROBE,
                            out) == 1);
    CHECK_MESSAGE(
        out.find("SPVJIT_INLINE_THREADS='x': expected a number of threads") != std::string::npos,
        out);
    out.clear();
    CHECK(test::run_command("POCL_DEVICES='basic pthread' SPVJIT_INLINE_THRESHOLD=1 "
                            "SPVJIT_SPLIT_THRESHOLD=-4 " SPVJIT_ADAPTIVE_PROBE,
                            out) == 1);
    CHECK_MESSAGE(out.find("SPVJIT_SPLIT_THRESHOLD='-4': expected a number of work-items") !=
                      std::string::npos,
                  out);
  }
}  // TEST_SUITE("concurrency")

TEST_CASE("split launches: more parts than threads only through the runner, for many indices") {
  using spvjit::detail::many_parts_indices;
  using spvjit::detail::split_parts;
  // Enqueued: one part per thread, at most one per group.
  CHECK(split_parts(std::size_t{1} << 30, 1000, 2, false) == 2);
  CHECK(split_parts(std::size_t{1} << 30, 1, 2, false) == 1);
  // Through the runner: one per thread below many_parts_indices...
  CHECK(split_parts(many_parts_indices - 1, 1000, 2, true) == 2);
  CHECK(split_parts(65536, 1000, 2, true) == 2);
  // ... from there 8 per thread, and no more than the groups.
  CHECK(split_parts(many_parts_indices, 1000, 2, true) == 16);
  CHECK(split_parts(std::size_t{1} << 40, 1000, 3, true) == 24);
  CHECK(split_parts(std::size_t{1} << 40, 10, 3, true) == 10);
  CHECK(split_parts(std::size_t{1} << 40, 0, 3, true) == 1);
  // What the claims word holds.
  CHECK(split_parts(std::size_t{1} << 40, 1 << 20, 20000, true) == 0xffff);
}

TEST_CASE("which kernels may run split with global offsets or through the runner, from SPIR-V") {
  auto bytes_of = [](const KernelDef& def, const Specialization& spec = {}) {
    const auto words = test::jit().spirv(def, spec);
    return std::vector<std::uint8_t>(
        reinterpret_cast<const std::uint8_t*>(words.data()),
        reinterpret_cast<const std::uint8_t*>(words.data()) + words.size() * 4);
  };
  auto offsets_ok = [&](const KernelDef& def, const Specialization& spec = {}) {
    return detail::runs_with_offsets(bytes_of(def, spec));
  };
  auto no_atomics = [&](const KernelDef& def) { return detail::free_of_atomics(bytes_of(def)); };
  CHECK(offsets_ok(examples::saxpy(Scalar::F32)));
  CHECK(offsets_ok(examples::naive_matmul()));
  Specialization tile;
  tile.workgroup = WorkGroup{16, 16};
  CHECK(offsets_ok(examples::tiled_matmul(16), tile));  // local ids and barriers are fine
  CHECK_FALSE(offsets_ok(test::counting_kernel()));     // atomics
  auto reads = [](auto&& value) {
    KernelBuilder kb("reads_a_query");
    auto out = kb.param<Global<std::int64_t>>("out");
    out[kb.global_index()] = value(kb);
    return kb.finish();
  };
  CHECK_FALSE(offsets_ok(reads([](KernelBuilder& kb) { return kb.group_index(1); })));
  CHECK_FALSE(offsets_ok(reads([](KernelBuilder& kb) { return num_groups(kb, 0); })));
  CHECK(offsets_ok(reads([](KernelBuilder& kb) { return kb.local_index(2); })));
  // Through PoCL's kernel runner every part sees the whole launch: only atomics keep a kernel
  // on one thread.
  CHECK(no_atomics(reads([](KernelBuilder& kb) { return kb.group_index(1); })));
  CHECK(no_atomics(examples::stream_sum_grid_stride(256)));
  CHECK_FALSE(no_atomics(test::counting_kernel()));
  // Malformed or truncated SPIR-V: the safe answer.
  const auto words = test::jit().spirv(examples::saxpy(Scalar::F32));
  std::vector<std::uint8_t> bytes(
      reinterpret_cast<const std::uint8_t*>(words.data()),
      reinterpret_cast<const std::uint8_t*>(words.data()) + words.size() * 4);
  CHECK_FALSE(detail::runs_with_offsets({bytes.data(), 16}));
  CHECK_FALSE(detail::free_of_atomics({bytes.data(), 16}));
  CHECK(detail::runs_with_offsets(bytes));
  CHECK(detail::free_of_atomics(bytes));
  bytes[5 * 4 + 2] = bytes[5 * 4 + 3] = 0;  // the first instruction's word count: 0
  CHECK_FALSE(detail::runs_with_offsets(bytes));
  CHECK_FALSE(detail::free_of_atomics(bytes));
}
