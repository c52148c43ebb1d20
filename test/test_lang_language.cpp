// The rest of the kernel language: control flow with break/continue/early return, device
// functions, signature introspection, the SPIR-V disassembly, and bad input that must be a
// clear UserError while the kernel is built (or compiled, for device limits).
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

template <class R, class V>
concept assignable = requires(const R& r, V v) {
  r = v;
};

// Checks that `f` throws UserError whose message contains each of `parts`.
template <class F>
void check_user_error(F&& f, std::initializer_list<const char*> parts) {
  std::string message;
  try {
    f();
  } catch (const UserError& e) {
    message = e.what();
  }
  INFO("message: ", message);
  REQUIRE_FALSE(message.empty());
  for (const char* p : parts) CHECK(message.find(p) != std::string::npos);
}

}  // namespace

TEST_CASE("control flow: continue, break and early return") {
  KernelBuilder kb("control");
  auto out = kb.param<Global<std::int64_t>>("out");
  auto limit = kb.param<std::int64_t>("limit");
  auto i = kb.global_index();
  kb.if_(!kb.in_ndrange(), [&] { kb.return_(); });
  kb.if_(i == 5, [&] { kb.return_(); });  // out[5] keeps its initial value
  auto acc = kb.var<std::int64_t>(0);
  kb.for_(kb.lit<std::int64_t>(0), i + 10, kb.lit<std::int64_t>(1), [&](Val<std::int64_t> j) {
    kb.if_(j % 3 == 0, [&] { kb.continue_(); });
    kb.if_(j > limit, [&] { kb.break_(); });
    acc += j;
  });
  auto steps = kb.var<std::int64_t>(0);
  kb.while_([&] { return kb.lit(true); },
            [&] {
              steps += 1;
              kb.if_else(
                  steps >= i, [&] { kb.break_(); }, [&] { kb.continue_(); });
            });
  out[i] = acc * 1000 + steps;
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  for (std::size_t n : {1u, 20u, 70u}) {
    CAPTURE(n);
    std::vector<std::int64_t> init(n, -1);
    auto buf = rt.upload(init);
    const std::int64_t lim = 25;
    k.launch(NDRange{n}, WorkGroup{16}, buf, lim);
    rt.synchronize();
    auto got = buf.to_vector();
    for (std::size_t x = 0; x < n; ++x) {
      std::int64_t expected = -1;
      if (x != 5) {
        std::int64_t a = 0;
        for (std::int64_t j = 0; j < static_cast<std::int64_t>(x) + 10; ++j) {
          if (j % 3 == 0) continue;
          if (j > lim) break;
          a += j;
        }
        expected = a * 1000 + std::max<std::int64_t>(1, static_cast<std::int64_t>(x));
      }
      CHECK(got[x] == expected);
    }
  }
}

TEST_CASE("device functions: called from the kernel and from each other") {
  KernelBuilder kb("device_fns");
  auto out = kb.param<Global<float>>("out");
  auto x = kb.param<Const<float>>("x");
  auto square = device_function<float(float)>(kb, "square", [&](Val<float> v) { return v * v; });
  auto norm = device_function<float(float, float)>(
      kb, "norm", [&](Val<float> a, Val<float> b) { return sqrt(square(a) + square(b)); });
  auto ipow = device_function<std::int32_t(std::int32_t, std::int32_t)>(
      kb, "ipow", [&](Val<std::int32_t> base, Val<std::int32_t> e) {
        auto r = kb.var<std::int32_t>(1);
        kb.for_(kb.lit<std::int64_t>(0), cast<std::int64_t>(e), kb.lit<std::int64_t>(1),
                [&](Val<std::int64_t>) { r *= base; });
        return r.get();
      });
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    Val<float> v = x[i];
    out[i] = norm(v, 4.0f * v) + cast<float>(ipow(kb.lit(2), cast<std::int32_t>(i % 8)));
  });
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::size_t n = 100;
  std::vector<float> xs(n);
  for (std::size_t j = 0; j < n; ++j) xs[j] = static_cast<float>(j % 7);
  auto X = rt.upload(xs);
  auto O = rt.zeros<float>(n);
  k.launch(NDRange{n}, O, X);
  rt.synchronize();
  auto got = O.to_vector();
  for (std::size_t j = 0; j < n; ++j) {
    const float v = xs[j];
    const float expected = std::sqrt(v * v + (4 * v) * (4 * v)) + static_cast<float>(1 << (j % 8));
    CHECK(got[j] == doctest::Approx(expected).epsilon(1e-6));
  }
}

TEST_CASE("device functions taking pointers: global, read-only, local and private") {
  KernelBuilder kb("device_ptrs");
  auto y = kb.param<Global<float>>("y");
  auto x = kb.param<Const<float>>("x");
  auto a = kb.param<float>("a");
  auto axpy = device_function<void(Global<float>, Const<float>, float, std::int64_t)>(
      kb, "axpy", [&](Global<float> out, Const<float> in, Val<float> s, Val<std::int64_t> i) {
        out[i] += s * in[i];
      });
  auto sum2 = device_function<float(Local<float>, std::int64_t)>(
      kb, "sum2", [&](Local<float> p, Val<std::int64_t> i) { return p[i] + p[i + 1]; });
  auto first = device_function<float(Ptr<float, AddressSpace::Private>)>(
      kb, "first", [&](Ptr<float, AddressSpace::Private> p) { return p[0].get(); });
  auto i = kb.global_index();
  auto lid = kb.local_index();
  auto staged = local_array<float>(kb, {65}, "staged");
  auto priv = private_array<float>(kb, {2});
  staged(lid) = cast<float>(lid);
  kb.if_(lid == 0, [&] { staged(64) = 64.0f; });
  barrier(kb, Fence::Local);
  kb.if_(kb.in_ndrange(), [&] {
    axpy(y, x, a, i);
    priv(0) = sum2(staged.data(), lid);
    y[i] = y[i] + first(priv.data());
  });
  // A read-only pointer where a writable one is expected.
  check_user_error([&] { axpy(Global<float>(Const<float>(y)), x, a, i); },
                   {"argument 0", "global const f32*", "expected global f32*"});
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::size_t n = 100;
  std::vector<float> xs(n), ys(n);
  for (std::size_t j = 0; j < n; ++j) {
    xs[j] = static_cast<float>(j % 9);
    ys[j] = static_cast<float>(j % 4);
  }
  auto X = rt.upload(xs);
  auto Y = rt.upload(ys);
  k.launch(NDRange{n}, WorkGroup{64}, Y, X, 2.0f);
  rt.synchronize();
  auto got = Y.to_vector();
  for (std::size_t j = 0; j < n; ++j) {
    const float l = static_cast<float>(j % 64);
    CHECK(got[j] == 2.0f * xs[j] + ys[j] + (l + (l + 1)));
  }
}

TEST_CASE("the signature is introspectable: names, types, address spaces") {
  KernelBuilder kb("sig");
  kb.param<Global<float>>("out");
  kb.param<Const<half>>("in");
  kb.param<std::uint16_t>("count");
  kb.pointer_param("scratch", Scalar::I32, AddressSpace::Local, false);
  auto def = kb.finish();
  auto p = def.params();
  REQUIRE(p.size() == 4);
  CHECK(p[0].name == "out");
  CHECK(p[0].describe() == "global f32*");
  CHECK(p[1].describe() == "global const f16*");
  CHECK(p[1].read_only);
  CHECK(p[2].kind == ParamKind::Scalar);
  CHECK(p[2].type == Scalar::U16);
  CHECK(p[3].kind == ParamKind::LocalArray);
  CHECK(p[3].space == AddressSpace::Local);
}

TEST_CASE("dump: LLVM IR and SPIR-V disassembly") {
  KernelBuilder kb("dumped");
  auto out = kb.param<Global<float>>("out");
  out[kb.global_index()] = sqrt(kb.lit(2.0f));
  auto def = kb.finish();
  const std::string spirv = spirv_text(test::jit(), def);
  CHECK(spirv.find("OpEntryPoint Kernel") != std::string::npos);
  CHECK(spirv.find("\"dumped\"") != std::string::npos);
  CHECK(spirv.find("sqrt") != std::string::npos);
  std::ostringstream os;
  dump(def, os, &test::jit());
  CHECK(os.str().find("define spir_kernel void @dumped") != std::string::npos);
  CHECK(os.str().find("OpEntryPoint Kernel") != std::string::npos);
  const std::vector<std::uint32_t> junk = {1, 2, 3};
  check_user_error([&] { disassemble_spirv(junk); }, {"disassemble_spirv", "not a SPIR-V module"});
}

TEST_CASE("bad input is a clear UserError at build time") {
  KernelBuilder kb("bad");
  auto out = kb.param<Global<float>>("out");
  auto ro = kb.param<Const<std::int32_t>>("ro");
  auto n = kb.param<std::int32_t>("n");
  auto x = kb.param<float>("x");

  // Mixing types without a cast names the operation and both types.
  check_user_error([&] { binary(BinaryOp::Add, x, n); }, {"add", "f32", "i32", "cast"});
  check_user_error([&] { math(MathFn::Pow, {x, n}); }, {"pow", "f32", "i32"});
  check_user_error([&] { math(MathFn::Sqrt, {n}); }, {"sqrt", "i32", "f32 or f64"});
  // A store through a read-only pointer: does not compile typed, throws untyped.
  static_assert(!assignable<Ref<const std::int32_t>, Val<std::int32_t>>);
  static_assert(assignable<Ref<std::int32_t>, Val<std::int32_t>>);
  check_user_error([&] { store(ro, kb.lit<std::int64_t>(0), n); }, {"store", "read-only"});
  check_user_error([&] { atomic_add(Ref<const std::int32_t>(ro, kb.lit<std::int64_t>(0)), n); },
                   {"atomic_add", "read-only"});
  check_user_error([&] { atomic(AtomicOp::Min, out, kb.lit<std::int64_t>(0), x); },
                   {"atomic_min", "f32"});
  // A wrong number of indices.
  auto tile = local_array<float>(kb, {4, 4}, "tile");
  check_user_error([&] { tile(kb.lit<std::int64_t>(1)) = x; }, {"1 indices", "2-dimensional"});
  check_user_error([&] { tile(1, 2, 3) = x; }, {"3 indices", "expected 2"});
  check_user_error([&] { tile(x, 1) = x; }, {"index 0", "f32", "integer"});
  check_user_error([&] { tile.extent(2); },
                   {"array extent of kernel 'bad': dimension 2; the array has 2 dimensions"});
  check_user_error([&] { view(out, x, 4); }, {"view", "extent 0", "f32", "integer"});
  CHECK(tile.rank() == 2);
  check_user_error(
      [] {
        KernelBuilder k2("k2");
        local_array<float>(k2, {0});
      },
      {"local_array", "positive"});
  // Barriers, local arrays, parameters and kernel values do not belong in device functions.
  check_user_error([&] { device_function<void()>(kb, "syncs", [&] { barrier(kb); }); },
                   {"barrier", "device function 'syncs'"});
  check_user_error(
      [&] { device_function<float(float)>(kb, "captures", [&](Val<float> v) { return v + x; }); },
      {"another function", "pass it in as an argument"});
  check_user_error(
      [&] { device_function<void()>(kb, "locals", [&] { local_array<float>(kb, {4}); }); },
      {"local_array", "kernel body"});
  check_user_error(
      [&] {
        device_function<float(float)>(kb, "returns", [&](Val<float> v) {
          kb.return_();
          return v;
        });
      },
      {"return_", "returns a value"});
  check_user_error([&] { barrier(kb, static_cast<Fence>(4)); }, {"barrier", "fence"});
  // The failed device functions left nothing behind: the kernel still finishes and runs.
  out[kb.global_index()] = x;
  auto def = kb.finish();
  check_user_error([&] { barrier(kb); }, {"barrier", "already finished"});
  test::compile_checked(def);
}

TEST_CASE("a local array too large for the device is a UserError when compiled") {
  const std::uint64_t limit = test::runtime().device().local_mem_size;
  REQUIRE(limit > 0);
  KernelBuilder kb("too_much_local");
  auto out = kb.param<Global<double>>("out");
  auto big = local_array<double>(kb, {static_cast<std::int64_t>(limit / 8 + 1)}, "big");
  big(0) = 1.0;
  out[0] = big(0);
  auto def = kb.finish();
  check_user_error([&] { test::jit().compile(def); },
                   {"too_much_local", std::to_string(limit / 8 * 8 + 8).c_str(), "local memory"});
}
