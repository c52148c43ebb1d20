// Every atomic operation under contention (all work-items on one counter) giving exact totals,
// local-memory atomics and float atomic add. KernelAbstractions' histogram and a workgroup tree
// reduction are ported line for line in test/ka/histogram.cpp and test/ka/reduce.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

template <class T>
using Body = std::function<void(KernelBuilder&, Global<T>, Val<std::int64_t>)>;

// Every work-item in bounds runs `body` against counter[0].
template <class T>
std::vector<T> contend(const char* name, std::size_t n, T initial, std::size_t outputs,
                       const Body<T>& body) {
  KernelBuilder kb(name);
  auto counter = kb.param<Global<T>>("counter");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { body(kb, counter, i); });
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  std::vector<T> init(outputs, T{});
  init[0] = initial;
  auto buf = rt.upload(init);
  k.launch(NDRange{n}, WorkGroup{64}, buf);
  rt.synchronize();
  return buf.to_vector();
}

}  // namespace

TEST_CASE("atomics under contention give exact totals") {
  for (std::size_t n : {1u, 1000u, 4099u}) {
    CAPTURE(n);
    const auto N = static_cast<std::int64_t>(n);
    CHECK(contend<std::int32_t>("add_i32", n, 0, 1,
                                [](auto&, auto c, auto) { atomic_add(c[0], 1); })[0] == N);
    CHECK(contend<std::uint32_t>("sub_u32", n, 5000u, 1, [](auto&, auto c, auto) {
            atomic_sub(c[0], 1u);
          })[0] == 5000u - n);
    CHECK(contend<std::int64_t>("add_i64", n, 0, 1, [](auto&, auto c, auto) {
            atomic_add(c[0], std::int64_t{1} << 33);
          })[0] == N << 33);
    CHECK(contend<std::uint64_t>("sub_u64", n, ~0ull, 1, [](auto&, auto c, auto) {
            atomic_sub(c[0], std::uint64_t{3});
          })[0] == ~0ull - 3 * n);
    CHECK(contend<std::int32_t>("min_i32", n, 0, 1, [](auto&, auto c, auto i) {
            atomic_min(c[0], -cast<std::int32_t>(i));
          })[0] == -(static_cast<std::int32_t>(n) - 1));
    // Unsigned max: -1 as u32 is the largest, so signedness of the comparison shows.
    CHECK(contend<std::uint32_t>("max_u32", n, 0, 1, [](auto&, auto c, auto i) {
            atomic_max(c[0], cast<std::uint32_t>(i) * 0xffffu);
          })[0] == static_cast<std::uint32_t>(n - 1) * 0xffffu);
    CHECK(contend<std::int64_t>("max_i64", n, -100, 1, [](auto&, auto c, auto i) {
            atomic_max(c[0], i - 50);
          })[0] == std::max<std::int64_t>(-100, N - 51));
    CHECK(contend<std::uint32_t>("or_u32", n, 0, 1, [](auto&, auto c, auto i) {
            atomic_or(c[0], 1u << cast<std::uint32_t>(i % 32));
          })[0] == (n >= 32 ? 0xffffffffu : (1u << n) - 1));
    CHECK(contend<std::uint64_t>("and_u64", n, ~0ull, 1, [](auto&, auto c, auto i) {
            atomic_and(c[0], ~(std::uint64_t{1} << cast<std::uint64_t>(i % 64)));
          })[0] == (n >= 64 ? 0ull : ~0ull << n));
    CHECK(contend<std::int32_t>("xor_i32", n, 0, 1, [](auto&, auto c, auto) {
            atomic_xor(c[0], 1);
          })[0] == static_cast<std::int32_t>(n % 2));
    CHECK(contend<float>("add_f32", n, 0.0f, 1, [](auto&, auto c, auto) {
            atomic_add(c[0], 1.0f);
          })[0] == static_cast<float>(n));
    CHECK(contend<double>("add_f64", n, 0.0, 1, [](auto&, auto c, auto) {
            atomic_add(c[0], 0.5);
          })[0] == static_cast<double>(n) / 2);
    CHECK(contend<float>("sub_f32", n, 0.0f, 1, [](auto&, auto c, auto) {
            atomic_sub(c[0], 2.0f);
          })[0] == -2.0f * static_cast<float>(n));

    // Exchange: every old value is seen exactly once, so olds plus the last value are 0..n.
    auto seen = contend<std::int64_t>("xchg_i64", n, 0, n + 1, [](auto&, auto c, auto i) {
      c[i + 1] = atomic_xchg(c[0], i + 1);
    });
    std::sort(seen.begin(), seen.end());
    std::vector<std::int64_t> all(n + 1);
    std::iota(all.begin(), all.end(), 0);
    CHECK(seen == all);

    // Compare-exchange: an increment loop that retries until its swap lands.
    CHECK(contend<std::uint32_t>("cas_u32", n, 0, 1, [](KernelBuilder& kb, auto c, auto) {
            auto done = kb.var(false);
            kb.while_([&] { return !done.get(); },
                      [&] {
                        Val<std::uint32_t> old = c[0];
                        done = atomic_cmpxchg(c[0], old, old + 1u) == old;
                      });
          })[0] == n);
  }
}

TEST_CASE("local-memory atomics: each group counts its own work-items") {
  KernelBuilder kb("local_count");
  auto out = kb.param<Global<std::int64_t>>("out");
  auto count = local_array<std::int64_t>(kb, {1}, "count");
  auto min_seen = local_array<std::int32_t>(kb, {1}, "min_seen");
  auto lid = kb.local_index();
  kb.if_(lid == 0, [&] {
    count(0) = std::int64_t{0};
    min_seen(0) = 1 << 30;
  });
  barrier(kb, Fence::Local);
  kb.if_(kb.in_ndrange(), [&] {
    atomic_add(count(0), std::int64_t{1});
    atomic_min(min_seen(0), cast<std::int32_t>(kb.global_index()));
  });
  barrier(kb, Fence::Local | Fence::Global);
  kb.if_(lid == 0, [&] {
    out[kb.group_index() * 2] = count(0).get();
    out[kb.group_index() * 2 + 1] = cast<std::int64_t>(min_seen(0).get());
  });
  Kernel k = test::compile_checked(kb.finish(), test::static_workgroup(WorkGroup{128}));
  auto& rt = test::runtime();
  for (std::size_t n : {1u, 128u, 1000u}) {
    CAPTURE(n);
    const std::size_t groups = (n + 127) / 128;
    auto buf = rt.zeros<std::int64_t>(groups * 2);
    k.launch(NDRange{n}, buf);
    rt.synchronize();
    auto got = buf.to_vector();
    for (std::size_t g = 0; g < groups; ++g) {
      CHECK(got[g * 2] == static_cast<std::int64_t>(std::min<std::size_t>(128, n - g * 128)));
      CHECK(got[g * 2 + 1] == static_cast<std::int64_t>(g * 128));
    }
  }
}

TEST_CASE("float atomic add: native where the device has it, a compare-exchange loop elsewhere") {
  KernelBuilder kb("float_adds");
  auto sums = kb.param<Global<double>>("sums");
  auto sum32 = kb.param<Global<float>>("sum32");
  auto local = local_array<float>(kb, {1}, "local_sum");
  auto lid = kb.local_index();
  kb.if_(lid == 0, [&] { local(0) = 0.0f; });
  barrier(kb, Fence::Local);
  kb.if_(kb.in_ndrange(), [&] {
    atomic_add(sums[0], 0.25);
    atomic_sub(sums[1], 1.0);
    atomic_add(local(0), 1.0f);
    atomic_xchg(sum32[1], cast<float>(kb.global_index()) + 0.5f);  // swaps the bits
  });
  barrier(kb, Fence::Local);
  kb.if_(lid == 0, [&] { atomic_add(sum32[0], local(0).get()); });
  auto def = kb.finish();

  auto& rt = test::runtime();
  JitOptions no_native;
  no_native.native_float_atomics = false;
  Jit cas_jit(rt, no_native);
  const std::string native_text = spirv_text(test::jit(), def);
  const std::string cas_text = spirv_text(cas_jit, def);
  CHECK(cas_text.find("OpAtomicFAddEXT") == std::string::npos);
  CHECK(cas_text.find("OpAtomicCompareExchange") != std::string::npos);
  if (rt.device().extensions.find("cl_ext_float_atomics") != std::string::npos) {
    CHECK(native_text.find("OpAtomicFAddEXT") != std::string::npos);
  }
  std::string out;
  CHECK_MESSAGE(test::spirv_valid(cas_jit.spirv(def), out), out);
  Kernel kernels[] = {test::compile_checked(def), cas_jit.compile(def)};
  for (Kernel& k : kernels) {
    for (std::size_t n : {1u, 1000u, 4099u}) {
      CAPTURE(n);
      auto s64 = rt.zeros<double>(2);
      auto s32 = rt.zeros<float>(2);
      k.launch(NDRange{n}, WorkGroup{128}, s64, s32);
      rt.synchronize();
      CHECK(s64.to_vector() ==
            std::vector<double>{0.25 * static_cast<double>(n), -static_cast<double>(n)});
      const auto got32 = s32.to_vector();
      CHECK(got32.at(0) == static_cast<float>(n));
      CHECK(got32.at(1) - std::floor(got32.at(1)) == 0.5f);  // some work-item's i + 0.5
      CHECK(got32.at(1) < static_cast<float>(n));
    }
  }
}
