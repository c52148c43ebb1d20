// The in-memory cache's budget and the builds shared between Jits (issue #71): kernels no
// handle holds are evicted least recently used first, held ones never; an evicted kernel comes
// back from the disk cache; a handle stays right while its entry is evicted under it; the heap
// stays flat past the budget; and Jits asking for one kernel at the same instant build it once.
#include <doctest/doctest.h>
#include <malloc.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "test/disk_cache_helpers.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

// A kernel of its own per `constant`: Z[i] = constant + 0.5.
KernelDef fill(int constant) {
  KernelBuilder kb("fill_" + std::to_string(constant));
  auto z = kb.param<Global<float>>("Z");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[i] = static_cast<float>(constant) + 0.5f; });
  return kb.finish();
}

// Whether `k` fills 100 elements with its constant.
bool fills_right(Kernel& k, int constant) {
  auto Z = runtime().zeros<float>(100);
  k.launch(NDRange{100}, Z);
  for (float z : Z.to_vector()) {
    if (z != static_cast<float>(constant) + 0.5f) return false;
  }
  return true;
}

JitOptions memory_only(std::uint64_t budget) {
  JitOptions o;
  o.disk_cache = false;
  o.memory_cache_bytes = budget;
  return o;
}

// What one fill kernel costs the table.
std::uint64_t fill_bytes() {
  Jit probe(runtime(), memory_only(std::uint64_t{1} << 30));
  Kernel k = probe.compile(fill(999));
  return probe.stats().memory_bytes;
}

}  // namespace

TEST_CASE("past the budget, the least recently used kernels no handle holds are evicted") {
  const std::uint64_t each = fill_bytes();
  REQUIRE(each > 0);
  // Room for three kernels and a half.
  Jit jit(runtime(), memory_only(each * 7 / 2));
  Kernel held = jit.compile(fill(100));  // held by this handle all along: never evicted
  jit.compile(fill(0));
  jit.compile(fill(1));
  CHECK(jit.stats().evictions == 0);
  CHECK(jit.stats().memory_kernels == 3);
  jit.compile(fill(0));  // used again: 1 is now the least recently used
  jit.compile(fill(2));  // over the budget: 1 goes
  jit.compile(fill(3));  // then 0
  jit.compile(fill(2));  // 2 used again: 3 is older
  jit.compile(fill(1));  // compiled again; 3 goes
  JitStats s = jit.stats();
  CHECK(s.compiles == 6);
  CHECK(s.evictions == 3);
  CHECK(s.memory_kernels == 3);
  CHECK(s.memory_bytes <= each * 7 / 2);
  CHECK(s.memory_hits == 2);
  CHECK(s.memory_misses == 6);
  // The held kernel and the two newest are there; 0 and 3 are compiled again.
  Kernel again = jit.compile(fill(100));
  CHECK(&again.name() == &held.name());
  jit.compile(fill(2));
  jit.compile(fill(1));
  CHECK(jit.stats().compiles == 6);
  CHECK(jit.stats().memory_hits == 5);
  Kernel zero = jit.compile(fill(0));
  CHECK(jit.stats().compiles == 7);
  CHECK(fills_right(zero, 0));
  CHECK(fills_right(held, 100));
}

TEST_CASE("a budget of 0 keeps only held kernels, and SPVJIT_MEMORY_CACHE_BYTES sets it") {
  {
    Jit jit(runtime(), memory_only(0));
    {
      Kernel a = jit.compile(fill(200));
      Kernel b = jit.compile(fill(201));  // a is held: both stay
      CHECK(jit.stats().memory_kernels == 2);
      CHECK(jit.stats().evictions == 0);
      CHECK(fills_right(a, 200));
    }
    jit.compile(fill(202));  // a and b are no longer held: both go; 202 stays until the next
    CHECK(jit.stats().evictions == 2);
    CHECK(jit.stats().memory_kernels == 1);
  }
  ::setenv("SPVJIT_MEMORY_CACHE_BYTES", "0", 1);
  {
    Jit jit(runtime(), memory_only(std::uint64_t{1} << 30));
    jit.compile(fill(203));
    jit.compile(fill(204));
    CHECK(jit.stats().evictions == 1);
  }
  ::setenv("SPVJIT_MEMORY_CACHE_BYTES", "64M", 1);
  CHECK_THROWS_WITH_AS(
      Jit(runtime(), memory_only(0)),
      doctest::Contains("SPVJIT_MEMORY_CACHE_BYTES='64M': expected a number of bytes"), UserError);
  ::unsetenv("SPVJIT_MEMORY_CACHE_BYTES");
}

TEST_CASE("an evicted kernel comes back from the disk cache") {
  TempDir dir;
  JitOptions options = in_dir(dir);
  options.memory_cache_bytes = 0;
  Jit jit(runtime(), options);
  jit.compile(fill(300));
  jit.compile(fill(301));  // evicts 300
  CHECK(jit.stats().evictions == 1);
  Kernel back = jit.compile(fill(300));
  const JitStats s = jit.stats();
  CHECK(s.compiles == 2);
  CHECK(s.disk_hits == 1);
  CHECK(fills_right(back, 300));
}

TEST_CASE("the heap stays flat past the budget: dropped kernels are released") {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  MESSAGE("sanitizer allocators report no mallinfo2");
#else
  Jit jit(runtime(), memory_only(fill_bytes() * 4));
  const auto compile_and_drop = [&](int from, int to) {
    for (int c = from; c < to; ++c) {
      Kernel k = jit.compile(fill(c));
      CHECK(fills_right(k, c));
    }
  };
  const auto heap = [] {
    const struct mallinfo2 m = ::mallinfo2();
    return static_cast<double>(m.uordblks + m.hblkhd);
  };
  compile_and_drop(500, 520);  // up to the budget, and PoCL's first-use allocations
  const double before = heap();
  constexpr int measured = 40;
  compile_and_drop(520, 520 + measured);
  const double per_kernel = (heap() - before) / measured;
  MESSAGE("heap growth per dropped kernel: " << per_kernel << " bytes");
  // Issue #71's goal. Each kernel the table kept cost ~150 KB before it had a budget.
  CHECK(per_kernel <= 50 * 1024);
  CHECK(jit.stats().memory_kernels <= 4);
  CHECK(jit.stats().evictions >= measured);
#endif
}

TEST_SUITE("concurrency") {
  TEST_CASE("a kernel evicted while other threads launch its handles stays right") {
    // One thread takes the hot kernel's handle, launches it and drops it, over and over; two
    // threads launch a handle they hold all along; the main thread compiles new kernels with a
    // budget of 0, so each compile evicts the hot kernel whenever no handle holds it at that
    // instant, and a lookup can take a handle of a kernel being evicted.
    Jit jit(runtime(), memory_only(0));
    const KernelDef hot = fill(400);
    const KernelDef kept = fill(401);
    std::atomic<bool> hot_done{false}, done{false};
    std::atomic<int> wrong{0}, launches{0};
    std::vector<std::thread> threads;
    threads.emplace_back([&] {
      while (!hot_done.load()) {
        {
          Kernel k = jit.compile(hot);
          if (!fills_right(k, 400)) ++wrong;
          ++launches;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // unheld most of the time
      }
    });
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&] {
        Kernel k = jit.compile(kept);
        while (!done.load()) {
          if (!fills_right(k, 401)) ++wrong;
          ++launches;
        }
      });
    }
    while (launches.load() < 10) std::this_thread::yield();
    constexpr int churned = 16;
    for (int c = 410; c < 410 + churned; ++c) {
      Kernel k = jit.compile(fill(c));
      if (!fills_right(k, c)) ++wrong;
    }
    // The hot thread first: its last compile may evict whatever no handle holds by then.
    hot_done = true;
    threads[0].join();
    done = true;
    for (std::size_t t = 1; t < threads.size(); ++t) threads[t].join();
    CHECK(wrong.load() == 0);
    const JitStats s = jit.stats();
    // The hot kernel was evicted and compiled again at least once; the held one never.
    CHECK(s.compiles >= churned + 3);
    const std::uint64_t compiles = s.compiles;
    Kernel k = jit.compile(kept);  // held by nobody now, but no compile has run since
    CHECK(jit.stats().compiles == compiles);
    CHECK(fills_right(k, 401));
  }

  TEST_CASE("Jits compiling one kernel at the same instant build it once") {
    auto run = [](const JitOptions& options, int constant) {
      constexpr int count = 8;
      std::vector<std::unique_ptr<Jit>> jits;
      for (int i = 0; i < count; ++i) jits.push_back(std::make_unique<Jit>(runtime(), options));
      const KernelDef def = fill(constant);
      std::atomic<int> ready{0}, wrong{0};
      std::vector<std::thread> threads;
      for (int i = 0; i < count; ++i) {
        threads.emplace_back([&, i] {
          ready.fetch_add(1);
          while (ready.load() < count) std::this_thread::yield();  // start together
          Kernel k = jits[i]->compile(def);
          if (!fills_right(k, constant)) ++wrong;
        });
      }
      for (auto& t : threads) t.join();
      JitStats sum;
      for (auto& j : jits) {
        const JitStats s = j->stats();
        sum.compiles += s.compiles;
        sum.disk_hits += s.disk_hits;
        sum.disk_writes += s.disk_writes;
      }
      CHECK(wrong.load() == 0);
      return sum;
    };
    SUBCASE("memory only") {
      const JitStats s = run(memory_only(std::uint64_t{64} << 20), 600);
      CHECK(s.compiles == 1);
    }
    SUBCASE("with a disk cache: written once") {
      TempDir dir;
      const JitStats s = run(in_dir(dir), 601);
      CHECK(s.compiles == 1);
      CHECK(s.disk_writes == 1);
      CHECK(entries(dir.path()).size() == 1);
    }
  }

}  // TEST_SUITE("concurrency")
