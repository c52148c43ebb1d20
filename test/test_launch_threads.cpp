// Launching one kernel from many threads at once: each launch must run with its own thread's
// arguments (an OpenCL kernel object holds one set of arguments; spvjit locks around setting
// them and enqueueing), and results must be exact.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "test/accumulate_kernel.hpp"
#include "spvjit/builder.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {

struct Mismatch {
  std::size_t thread, index;
  double got, expected;
};

// `threads` threads, each `launches` launches of `k` into its own buffer of `n` elements.
// Every `sync_every` launches the thread waits for the queue, to keep PoCL's queue short.
std::vector<Mismatch> hammer(Runtime& rt, const Kernel& k, unsigned threads, int launches,
                             std::size_t n, int sync_every) {
  std::vector<Buffer<double>> buffers;
  for (unsigned t = 0; t < threads; ++t) buffers.push_back(rt.zeros<double>(n));
  std::atomic<unsigned> ready{0};
  std::vector<std::thread> pool;
  std::atomic<int> failures{0};
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      Kernel kernel = k;  // a copy shares the kernel object: the contended case
      const double b = t + 1.0;
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();  // start together
      try {
        for (int i = 0; i < launches; ++i) {
          kernel.launch(NDRange{n}, buffers[t], b);
          if ((i + 1) % sync_every == 0) rt.synchronize();
        }
      } catch (...) {
        failures.fetch_add(1);
      }
    });
  }
  for (auto& th : pool) th.join();
  rt.synchronize();
  CHECK(failures.load() == 0);
  std::vector<Mismatch> wrong;
  for (unsigned t = 0; t < threads; ++t) {
    const double expected = double(launches) * (t + 1.0);
    const auto got = buffers[t].to_vector();
    for (std::size_t i = 0; i < n; ++i) {
      if (got[i] != expected) wrong.push_back({t, i, got[i], expected});
    }
  }
  return wrong;
}

void check_exact(const std::vector<Mismatch>& wrong) {
  for (std::size_t i = 0; i < wrong.size() && i < 3; ++i) {
    FAIL_CHECK("thread " << wrong[i].thread << " element " << wrong[i].index << ": " << wrong[i].got
                         << ", expected " << wrong[i].expected);
  }
  CHECK(wrong.empty());
}

}  // namespace

TEST_CASE("8 threads x 10,000 launches of one kernel give exact results") {
  Kernel k = test::jit().compile(test::accumulate_kernel());
  check_exact(hammer(test::runtime(), k, 8, 10000, 16, 100));
}

TEST_CASE("launches on two runtimes (two queues) from several threads at once are exact") {
  Runtime second;
  Jit second_jit(second);
  const auto def = test::accumulate_kernel();
  Kernel on_first = test::jit().compile(def);
  Kernel on_second = second_jit.compile(def);
  std::vector<Mismatch> first_wrong, second_wrong;
  std::thread a([&] { first_wrong = hammer(test::runtime(), on_first, 2, 2000, 64, 50); });
  std::thread b([&] { second_wrong = hammer(second, on_second, 2, 2000, 64, 50); });
  a.join();
  b.join();
  check_exact(first_wrong);
  check_exact(second_wrong);
}
