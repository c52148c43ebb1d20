// Threads sharing one Runtime and Jit. Tagged with the doctest suite "concurrency": the
// ThreadSanitizer build runs exactly these (`spvjit_tests -ts=concurrency`).
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "spvjit/examples.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {

constexpr int thread_count = 8;

// z[i] = a * x[i] + y[i] through a kernel of its own name, so no Jit has seen it before.
KernelDef fresh_saxpy(const std::string& name) {
  KernelBuilder kb(name);
  auto z = kb.param<Global<float>>("Z");
  auto x = kb.param<Const<float>>("X");
  auto y = kb.param<Const<float>>("Y");
  auto a = kb.param<float>("a");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[i] = a * x[i] + y[i]; });
  return kb.finish();
}

// One thread's share: its own buffers and scale, checked exactly (small integers in float).
bool launch_and_check(Kernel& k, Runtime& rt, int id, std::size_t n) {
  std::vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 31);
    y[i] = static_cast<float>(id);
  }
  auto X = rt.upload(x);
  auto Y = rt.upload(y);
  auto Z = rt.zeros<float>(n);
  const float a = static_cast<float>(id + 1);
  k.launch(NDRange{n}, Z, X, Y, a);
  rt.synchronize();
  const auto z = Z.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    if (z[i] != a * x[i] + y[i]) return false;
  }
  return true;
}

}  // namespace

TEST_SUITE("concurrency") {
  TEST_CASE("reliability: 8 threads compiling and launching the same new kernel compile it once") {
    auto& rt = test::runtime();
    Jit jit(rt);  // a fresh cache: the kernel is new to it
    const KernelDef def = fresh_saxpy("concurrent_saxpy");
    std::atomic<int> ready{0};
    std::atomic<int> correct{0};
    std::atomic<int> failed{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) {
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        while (ready.load() < thread_count) std::this_thread::yield();  // start together
        try {
          // Each thread builds its own KernelDef too: equal content, equal cache key.
          Kernel k = jit.compile(t % 2 ? def : fresh_saxpy("concurrent_saxpy"));
          if (launch_and_check(k, rt, t, 1000 + 37 * static_cast<std::size_t>(t)))
            correct.fetch_add(1);
        } catch (...) {
          failed.fetch_add(1);
        }
      });
    }
    for (auto& th : threads) th.join();
    CHECK(failed.load() == 0);
    CHECK(correct.load() == thread_count);
    CHECK(jit.compile_count() == 1);
  }

  TEST_CASE("reliability: 8 threads launching one Kernel object with their own arguments") {
    auto& rt = test::runtime();
    Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
    std::atomic<int> correct{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) {
      threads.emplace_back([&, t] {
        for (int round = 0; round < 10; ++round) {
          if (launch_and_check(k, rt, t, 256 + static_cast<std::size_t>(t))) correct.fetch_add(1);
        }
      });
    }
    for (auto& th : threads) th.join();
    CHECK(correct.load() == thread_count * 10);
  }

  TEST_CASE("reliability: 8 threads compiling different kernels into one Jit") {
    auto& rt = test::runtime();
    Jit jit(rt);
    std::atomic<int> correct{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) {
      threads.emplace_back([&, t] {
        Kernel k = jit.compile(fresh_saxpy("concurrent_saxpy_" + std::to_string(t)));
        if (launch_and_check(k, rt, t, 512)) correct.fetch_add(1);
      });
    }
    for (auto& th : threads) th.join();
    CHECK(correct.load() == thread_count);
    CHECK(jit.compile_count() == thread_count);
  }

  TEST_CASE("reliability: refused launches on some threads do not disturb good ones on others") {
    auto& rt = test::runtime();
    Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
    std::atomic<int> correct{0};
    std::atomic<int> refused{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) {
      threads.emplace_back([&, t] {
        auto wrong = rt.zeros<double>(64);
        for (int round = 0; round < 10; ++round) {
          if ((t + round) % 2) {
            try {
              k.launch(NDRange{64}, wrong, wrong, wrong, 1.0);
            } catch (const UserError&) {
              refused.fetch_add(1);
            }
          } else if (launch_and_check(k, rt, t, 64 + static_cast<std::size_t>(round))) {
            correct.fetch_add(1);
          }
        }
      });
    }
    for (auto& th : threads) th.join();
    CHECK(refused.load() == thread_count * 5);
    CHECK(correct.load() == thread_count * 5);
  }

}  // TEST_SUITE("concurrency")
