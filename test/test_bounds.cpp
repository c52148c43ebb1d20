// Bounds checks: an access outside what a launch passed touches no memory, and the next
// synchronize (or Event::wait) throws BoundsError naming the kernel, the array, the index, its
// extent and the work-item. The runtime and later launches carry on.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/launch_state.hpp"
#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"
#include "test/coarsen_support.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {

// z[i] = 1 for every work-item, with no bounds check of its own: the scenario.
KernelDef fill_ones(bool inbounds_kernel = false) {
  KernelBuilder kb(inbounds_kernel ? "fill_ones_inbounds" : "fill_ones");
  auto z = kb.param<Global<float>>("Z");
  z[kb.global_index()] = 1.0f;
  if (inbounds_kernel) kb.inbounds();
  return kb.finish();
}

}  // namespace

TEST_CASE("an unguarded store past a buffer throws BoundsError at synchronize and writes nothing") {
  auto& rt = test::runtime();
  // The buffer is a view of 1000 floats at the start of a larger one whose tail is a canary.
  auto whole = rt.upload(std::vector<float>(1024 + 256, -7.0f));
  auto z = view(whole, 0, 1000);
  Kernel k = test::jit().compile(fill_ones());
  k.launch(NDRange{1100}, z);
  try {
    rt.synchronize();
    FAIL("no BoundsError");
  } catch (const BoundsError& e) {
    CHECK(e.kernel_name() == "fill_ones");
    CHECK(e.array_name() == "Z");
    CHECK(std::string(e.what()) ==
          "kernel 'fill_ones': Z[1000] is out of bounds: Z holds 1000 f32 (work-item 1000 of "
          "ndrange (1100))");
  }
  auto after = whole.to_vector();
  for (std::size_t i = 0; i < after.size(); ++i) {
    CAPTURE(i);
    REQUIRE(after[i] == (i < 1000 ? 1.0f : -7.0f));
  }
  // The error was reported once; the runtime and the kernel work on.
  rt.synchronize();
  auto ok = rt.zeros<float>(1100);
  k.launch(NDRange{1100}, ok);
  rt.synchronize();
  CHECK(ok.to_vector() == std::vector<float>(1100, 1.0f));
}

namespace {

// Runs `launch`, then synchronizes; returns the BoundsError's message ("" when none).
template <class F>
std::string bounds_message(F&& launch) {
  launch();
  try {
    test::runtime().synchronize();
  } catch (const BoundsError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("bounds: the first and the last work-item, reads and writes, negative indices") {
  auto& rt = test::runtime();
  KernelBuilder kb("bounds_shift");
  auto out = kb.param<Global<std::int32_t>>("out");
  auto in = kb.param<Const<std::int32_t>>("in");
  auto shift = kb.param<std::int64_t>("shift");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { out[i] = in[i + shift]; });
  Kernel k = test::jit().compile(kb.finish());
  auto in_buf = rt.upload(std::vector<std::int32_t>(64, 5));
  auto out_buf = rt.zeros<std::int32_t>(64);
  CHECK(bounds_message([&] { k.launch(NDRange{64}, out_buf, in_buf, std::int64_t{-1}); }) ==
        "kernel 'bounds_shift': in[-1] is out of bounds: in holds 64 i32 (work-item 0 of ndrange "
        "(64))");
  CHECK(bounds_message([&] { k.launch(NDRange{64}, out_buf, in_buf, std::int64_t{1}); }) ==
        "kernel 'bounds_shift': in[64] is out of bounds: in holds 64 i32 (work-item 63 of ndrange "
        "(64))");
  // The work-item whose read failed stopped there (a kernel without barriers: as Julia's
  // BoundsError ends it), so out[63] keeps the 5 the launch before wrote; the others ran.
  auto got = out_buf.to_vector();
  CHECK(got[63] == 5);
  CHECK(got[0] == 5);
  CHECK(got[62] == 5);
  CHECK(bounds_message([&] { k.launch(NDRange{65}, out_buf, in_buf, std::int64_t{0}); }) ==
        "kernel 'bounds_shift': in[64] is out of bounds: in holds 64 i32 (work-item 64 of ndrange "
        "(65))");
  CHECK(bounds_message([&] { k.launch(NDRange{64}, out_buf, in_buf, std::int64_t{0}); }).empty());
  CHECK(out_buf.to_vector() == std::vector<std::int32_t>(64, 5));
}

TEST_CASE("bounds: views check each index against its extent, then the offset against the memory") {
  auto& rt = test::runtime();
  KernelBuilder kb("bounds_view2d");
  auto out = kb.param<Global<float>>("out");
  auto rows = kb.param<std::int64_t>("rows");
  auto cols = kb.param<std::int64_t>("cols");
  auto dc = kb.param<std::int64_t>("dc");
  auto A = view(out, rows, cols);
  auto c = kb.global_index(0), r = kb.global_index(1);
  kb.if_(kb.in_ndrange(), [&] { A(r, c + dc) = 2.0f; });
  Kernel k = test::jit().compile(kb.finish());
  auto buf = rt.zeros<float>(12);
  // Column 4 of a 3 x 4 view is inside the memory (row 0, col 4 = element 4) but not the view.
  // One row, so one work-item fails: over 3, the coarsened launch's rows {0, 1} and {2} are
  // two work-groups, and which fails first is up to the cores.
  CHECK(bounds_message([&] {
          k.launch(NDRange{4, 1}, buf, std::int64_t{3}, std::int64_t{4}, std::int64_t{1});
        }) ==
        "kernel 'bounds_view2d': out(0, 4) is out of bounds: out is viewed as (3, 4) (work-item "
        "(3, 0) of ndrange (4, 1))");
  // A view larger than its memory: the offset fails.
  CHECK(bounds_message([&] {
          k.launch(NDRange{4, 4}, buf, std::int64_t{4}, std::int64_t{4}, std::int64_t{0});
        }) ==
        "kernel 'bounds_view2d': out(3, 0) is out of bounds: its offset 12 is past out, which "
        "holds 12 f32 (work-item (0, 3) of ndrange (4, 4))");
}

TEST_CASE("bounds: a 3-D read, local arrays, LocalMemory and private arrays") {
  auto& rt = test::runtime();
  {
    KernelBuilder kb("bounds_view3d");
    auto out = kb.param<Global<float>>("out");
    auto in = kb.param<Const<float>>("in");
    auto V = view(in, 2, 2, 2);
    auto x = kb.global_index(0), y = kb.global_index(1), z = kb.global_index(2);
    out[(z * 2 + y) * 2 + x] = V(z, y, x + 1).get();
    Kernel k = test::jit().compile(kb.finish());
    auto in_buf = rt.zeros<float>(8);
    auto out_buf = rt.zeros<float>(8);
    CHECK(bounds_message([&] {
            k.launch(NDRange{2, 2, 2}, WorkGroup{2, 2, 2}, out_buf, in_buf);
          }) ==
          "kernel 'bounds_view3d': in(0, 0, 2) is out of bounds: in is viewed as (2, 2, 2) "
          "(work-item (1, 0, 0) of ndrange (2, 2, 2))");
  }
  {
    KernelBuilder kb("bounds_local");
    auto out = kb.param<Global<float>>("out");
    auto scratch = kb.param<Local<float>>("scratch");
    auto reach = kb.param<std::int64_t>("reach");
    auto tile = local_array<float>(kb, {16}, "tile");
    auto l = kb.local_index();
    tile(l + reach) = 1.0f;
    scratch[l + reach] = 2.0f;
    barrier(kb, Fence::Local);
    out[kb.global_index()] = tile(l).get() + scratch[l].get();
    Kernel k = test::jit().compile(kb.finish());
    auto out_buf = rt.zeros<float>(16);
    CHECK(bounds_message([&] {
            k.launch(NDRange{16}, WorkGroup{16}, out_buf, LocalMemory{64}, std::int64_t{1});
          }) ==
          "kernel 'bounds_local': tile(16) is out of bounds: local array tile is viewed as (16) "
          "(work-item 15 of ndrange (16))");
    // LocalMemory of 15 floats: scratch[15] is past it (the local array now fits).
    auto k2 = k;
    CHECK(bounds_message([&] {
            k2.launch(NDRange{16}, WorkGroup{16}, out_buf, LocalMemory{60}, std::int64_t{0});
          }) ==
          "kernel 'bounds_local': scratch[15] is out of bounds: LocalMemory scratch holds 15 f32 "
          "(work-item 15 of ndrange (16))");
  }
  {
    KernelBuilder kb("bounds_private");
    auto out = kb.param<Global<std::int32_t>>("out");
    auto n = kb.param<std::int64_t>("n");
    auto acc = private_array<std::int32_t>(kb, {4});
    kb.for_(kb.lit<std::int64_t>(0), n, kb.lit<std::int64_t>(1),
            [&](Val<std::int64_t> j) { acc[j] = 1; });
    out[kb.global_index()] = acc[0].get();
    Kernel k = test::jit().compile(kb.finish());
    auto out_buf = rt.zeros<std::int32_t>(1);
    CHECK(bounds_message([&] { k.launch(NDRange{1}, out_buf, std::int64_t{5}); }) ==
          "kernel 'bounds_private': private[4] is out of bounds: private array holds 4 i32 "
          "(work-item 0 of ndrange (1))");
  }
}

TEST_CASE("bounds: inside a device function, through vectors, atomics and shared arrays") {
  auto& rt = test::runtime();
  {
    KernelBuilder kb("bounds_device_fn");
    auto y = kb.param<Global<float>>("Y");
    auto x = kb.param<Const<float>>("X");
    auto axpy = device_function<void(Global<float>, Const<float>, float, std::int64_t)>(
        kb, "axpy", [&](Global<float> yy, Const<float> xx, Val<float> a, Val<std::int64_t> i) {
          yy[i] = a * xx[i] + yy[i];
        });
    axpy(y, x, kb.lit(2.0f), kb.global_index());
    Kernel k = test::jit().compile(kb.finish());
    auto X = rt.zeros<float>(10);
    auto Y = rt.zeros<float>(12);
    CHECK(bounds_message([&] { k.launch(NDRange{12}, Y, X); }) ==
          "kernel 'bounds_device_fn': axpy.arg1[10] is out of bounds: argument 1 of device "
          "function axpy holds 10 f32 (work-item 10 of ndrange (12))");
  }
  {
    KernelBuilder kb("bounds_vector");
    auto z = kb.param<Global<float>>("Z");
    auto i = kb.global_index();
    vstore(z, i * 4, Vec<float, 4>::splat(kb.lit(1.0f)));
    Kernel k = test::jit().compile(kb.finish());
    auto Z = rt.zeros<float>(10);
    CHECK(bounds_message([&] { k.launch(NDRange{3}, Z); }) ==
          "kernel 'bounds_vector': Z[8..11] is out of bounds: Z holds 10 f32 (work-item 2 of "
          "ndrange (3))");
    CHECK(Z.to_vector() == std::vector<float>{1, 1, 1, 1, 1, 1, 1, 1, 0, 0});
  }
  {
    KernelBuilder kb("bounds_atomic");
    auto counts = kb.param<Global<std::int32_t>>("counts");
    atomic_add(counts[kb.global_index()], 1);
    Kernel k = test::jit().compile(kb.finish());
    auto C = rt.zeros<std::int32_t>(4);
    CHECK(bounds_message([&] { k.launch(NDRange{5}, C); }) ==
          "kernel 'bounds_atomic': counts[4] is out of bounds: counts holds 4 i32 (work-item 4 of "
          "ndrange (5))");
    CHECK(C.to_vector() == std::vector<std::int32_t>(4, 1));
  }
  {
    Kernel k = test::jit().compile(fill_ones());
    auto shared = zeros_shared<float>(rt, 8);
    CHECK(bounds_message([&] { k.launch(NDRange{9}, shared); }) ==
          "kernel 'fill_ones': Z[8] is out of bounds: Z holds 8 f32 (work-item 8 of ndrange (9))");
  }
}

TEST_CASE("bounds: coarsened kernels report the failing lane, in the vector body and in the tail") {
  auto& rt = test::runtime();
  KernelBuilder kb("bounds_coarse");
  auto z = kb.param<Global<float>>("Z");
  auto x = kb.param<Const<float>>("X");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[i] = x[i] * 2.0f; });
  const KernelDef def = kb.finish();
  for (unsigned width : {4u, 16u}) {
    CAPTURE(width);
    Kernel k = test::coarse_jit(width).compile(def);
    REQUIRE(detail::KernelAccess::state(k).facts.launch.coarsen == width);
    auto X = rt.upload(std::vector<float>(1000, 1.0f));
    // 1000 = 62 vectors of 16 + a tail of 8: Z of 995 fails in the tail, Z of 900 inside a vector.
    for (std::size_t size : {995, 900, 999}) {
      CAPTURE(size);
      auto Z = rt.zeros<float>(size);
      CHECK(bounds_message([&] { k.launch(NDRange{1000}, Z, X); }) ==
            "kernel 'bounds_coarse': Z[" + std::to_string(size) + "] is out of bounds: Z holds " +
                std::to_string(size) + " f32 (work-item " + std::to_string(size) +
                " of ndrange (1000))");
    }
    auto Z = rt.zeros<float>(1000);
    CHECK(bounds_message([&] { k.launch(NDRange{1000}, Z, X); }).empty());
    CHECK(Z.to_vector() == std::vector<float>(1000, 2.0f));
  }
}

namespace {

// Launches `k` (z[i] = one, coarsened to `width`) on a view of `size` elements at the start of
// a buffer of canaries, over whole vectors up to the one that reaches past the view: the report
// names Z[size], and exactly the elements before it are written. One vector fails, so the
// report is the same whatever order the cores run the work-groups in.
template <class T>
void check_straddling_store(Kernel& k, unsigned width, std::size_t size, T one, T canary) {
  auto& rt = test::runtime();
  auto whole = rt.upload(std::vector<T>(1280, canary));
  const std::size_t items = (size / width + 1) * width;
  const std::string message =
      bounds_message([&] { k.launch(NDRange{items}, view(whole, 0, size)); });
  CHECK(message.find("Z[" + std::to_string(size) + "] is out of bounds") != std::string::npos);
  const auto after = whole.to_vector();
  for (std::size_t i = 0; i < after.size(); ++i) {
    CAPTURE(i);
    REQUIRE(after[i] == (i < size ? one : canary));
  }
}

}  // namespace

TEST_CASE(
    "bounds: a coarsened store straddling an array's end stores the lanes before it, as "
    "the scalar kernel does") {
  auto& rt = test::runtime();
  // z[i] = 1 for floats, half values (vstore_half) and bools (widened to a byte in the access).
  KernelBuilder floats("bounds_straddle_f32");
  floats.param<Global<float>>("Z")[floats.global_index()] = 1.0f;
  KernelBuilder halves("bounds_straddle_f16");
  halves.param<Global<half>>("Z")[halves.global_index()] = 1.0f;
  KernelBuilder bools("bounds_straddle_bool");
  bools.param<Global<bool>>("Z")[bools.global_index()] = true;
  const KernelDef defs[] = {floats.finish(), halves.finish(), bools.finish()};
  for (unsigned width : {4u, 16u}) {
    CAPTURE(width);
    JitOptions options;
    options.coarsen_width = width;
    Jit jit(rt, options);
    for (unsigned d = 0; d < 3; ++d) {
      CAPTURE(defs[d].name());
      Kernel k = jit.compile(defs[d]);
      REQUIRE(detail::KernelAccess::state(k).facts.launch.coarsen == width);
      // The end inside a vector (997, 1003), at a vector's end (1000), inside the first (3).
      for (std::size_t size : {997, 1000, 1003, 3}) {
        CAPTURE(size);
        if (d == 0) check_straddling_store(k, width, size, 1.0f, -7.0f);
        if (d == 1) check_straddling_store(k, width, size, to_half(1.0f), to_half(-7.0f));
        if (d == 2) check_straddling_store(k, width, size, true, false);
      }
    }
  }
}

TEST_CASE("bounds: Event::wait throws too, and failures of several kernels are told at once") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(fill_ones());
  auto small = rt.zeros<float>(4);
  Event e = k.launch_event(NDRange{5}, small);
  CHECK_THROWS_WITH_AS(e.wait(), doctest::Contains("Z[4] is out of bounds"), BoundsError);
  rt.synchronize();  // reported once

  KernelBuilder kb("bounds_other");
  auto w = kb.param<Global<float>>("W");
  w[kb.global_index() + 1] = 0.0f;
  Kernel other = test::jit().compile(kb.finish());
  k.launch(NDRange{5}, small);
  other.launch(NDRange{4}, small);
  CHECK_THROWS_WITH_AS(rt.synchronize(), doctest::Contains("1 more kernel failed bounds checks"),
                       BoundsError);
  rt.synchronize();
}

TEST_CASE("bounds: checks on and off give the same bits for kernels that stay inside") {
  auto& rt = test::runtime();
  JitOptions off;
  off.bounds_checks = false;
  Jit unchecked(rt, off);
  for (Scalar t : {Scalar::F32, Scalar::F64}) {
    const KernelDef def = examples::saxpy(t);
    for (std::size_t n : {1, 17, 1000, 4099}) {
      CAPTURE(n);
      std::vector<double> xs(n), ys(n);
      for (std::size_t i = 0; i < n; ++i) {
        xs[i] = std::sin(double(i)) * 1e3;
        ys[i] = std::cos(double(i) * 0.7);
      }
      auto run = [&](Jit& jit) {
        if (t == Scalar::F32) {
          auto X = rt.upload(std::vector<float>(xs.begin(), xs.end()));
          auto Y = rt.upload(std::vector<float>(ys.begin(), ys.end()));
          auto Z = rt.zeros<float>(n);
          jit.compile(def).launch(NDRange{n}, Z, X, Y, 1.7f);
          rt.synchronize();
          auto z = Z.to_vector();
          return std::vector<double>(z.begin(), z.end());
        }
        auto X = rt.upload(xs);
        auto Y = rt.upload(ys);
        auto Z = rt.zeros<double>(n);
        jit.compile(def).launch(NDRange{n}, Z, X, Y, 1.7);
        rt.synchronize();
        return Z.to_vector();
      };
      const auto checked = run(test::jit());
      const auto plain = run(unchecked);
      CHECK(std::memcmp(checked.data(), plain.data(), n * sizeof(double)) == 0);
    }
  }
}

TEST_CASE("bounds: opting out is visible in the kernel and in the SPIR-V") {
  const std::string checked_ir = fill_ones().to_string();
  CHECK(checked_ir.find("__spvjit.bounds.check") != std::string::npos);
  CHECK(checked_ir.find("__spvjit_extent_Z") != std::string::npos);
  const std::string kernel_off = fill_ones(true).to_string();
  CHECK(kernel_off.find("__spvjit.bounds") == std::string::npos);
  CHECK(kernel_off.find("__spvjit_extent") == std::string::npos);

  KernelBuilder kb("bounds_one_unchecked");
  auto z = kb.param<Global<float>>("Z");
  auto x = kb.param<Const<float>>("X");
  auto i = kb.global_index();
  z[i] = inbounds(x)[i];  // the read is vouched for, the write still checked
  const std::string ir = kb.finish().to_string();
  std::size_t checks = 0;
  for (std::size_t at = ir.find("call i1 @__spvjit.bounds.check"); at != std::string::npos;
       at = ir.find("call i1 @__spvjit.bounds.check", at + 1)) {
    ++checks;
  }
  CHECK(checks == 1);

  JitOptions off;
  off.bounds_checks = false;
  off.disk_cache = false;
  Jit unchecked(test::runtime(), off);
  const auto words = unchecked.spirv(fill_ones());
  const std::string text(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  CHECK(text.find("out.of.bounds") == std::string::npos);
  const auto checked_words = test::jit().spirv(fill_ones());
  const std::string checked_text(reinterpret_cast<const char*>(checked_words.data()),
                                 checked_words.size() * 4);
  CHECK(checked_text.find("out.of.bounds") != std::string::npos);
}

TEST_CASE(
    "bounds: a loop's checks are tested once before it, and a failing loop still reports the "
    "access") {
  auto& rt = test::runtime();
  const KernelDef def = examples::naive_matmul();
  // Versioned: the loop without checks, and its copy with them (jit/bounds/hoist_bounds.hpp).
  const auto words = test::jit().spirv(def);
  const std::string text(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  CHECK(text.find(".checked") != std::string::npos);

  // C (1 x 16) = A (1 x 4) * B (4 x 16), with B one element short: only column 15 at k = 3
  // reaches past it.
  Kernel k = test::jit().compile(def);
  auto A = rt.upload(std::vector<float>(4, 1.0f));
  auto C = rt.zeros<float>(16);
  const std::int64_t n = 1, p = 4, m = 16;
  auto short_b = rt.upload(std::vector<float>(63, 2.0f));
  CHECK(bounds_message([&] {
          k.launch(NDRange{16, 1}, C, A, short_b, n, p, m);
        }) ==
        "kernel 'naive_matmul': B(3, 15) is out of bounds: its offset 63 is past B, which holds 63 "
        "f32 (work-item (15, 0) of ndrange (16, 1))");
  auto B = rt.upload(std::vector<float>(64, 2.0f));
  CHECK(bounds_message([&] { k.launch(NDRange{16, 1}, C, A, B, n, p, m); }).empty());
  CHECK(C.to_vector() == std::vector<float>(16, 8.0f));

  // Checked and unchecked give the same bits, on sizes that leave coarsening tails.
  JitOptions off;
  off.bounds_checks = false;
  Jit unchecked(rt, off);
  const std::int64_t rows = 37, inner = 29, cols = 45;
  std::vector<float> a(rows * inner), b(inner * cols);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::sin(float(i));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::cos(float(i) * 0.3f);
  auto run = [&](Jit& jit) {
    auto A2 = rt.upload(a), B2 = rt.upload(b);
    auto C2 = rt.zeros<float>(rows * cols);
    jit.compile(def).launch(NDRange{std::size_t(cols), std::size_t(rows)}, C2, A2, B2, rows, inner,
                            cols);
    rt.synchronize();
    return C2.to_vector();
  };
  const auto with = run(test::jit()), without = run(unchecked);
  CHECK(std::memcmp(with.data(), without.data(), with.size() * sizeof(float)) == 0);
}

TEST_CASE("bounds: a record whose seal does not match its words is told as overlapping reports") {
  // Two work-items failing at the same moment may interleave their plain stores (no atomics in
  // the report: jit/bounds/bounds_lowering.cpp); the host must not tell a mixed record as one
  // access.
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(fill_ones());
  auto Z = rt.zeros<float>(8);
  k.launch(NDRange{8}, Z);
  rt.synchronize();
  std::uint64_t* slot = detail::KernelAccess::state(k).bounds_slot;
  REQUIRE(slot != nullptr);
  slot[detail::record::site] = 0;
  slot[detail::record::work_item] = 9;
  slot[detail::record::pairs] = 9;
  slot[detail::record::pairs + 1] = 8;
  slot[detail::record::pair_count] = 1;
  slot[detail::record::flag] = detail::bounds_seal(slot);
  CHECK_THROWS_WITH_AS(
      rt.synchronize(),
      "kernel 'fill_ones': Z[9] is out of bounds: Z holds 8 f32 (work-item 9 of ndrange (8))",
      BoundsError);
  slot[detail::record::pairs] = 9;
  slot[detail::record::pair_count] = 1;
  slot[detail::record::flag] = detail::bounds_seal(slot) ^ 2;  // a word changed after sealing
  CHECK_THROWS_WITH_AS(rt.synchronize(),
                       doctest::Contains("out-of-bounds accesses in several work-items at once"),
                       BoundsError);
  rt.synchronize();  // both told once
}

TEST_CASE(
    "bounds: a coarsened kernel's fast vectors still check view extents that are no buffer's") {
  // A(0, c) with c = get_global_id(0) over a 1 x 8 view of 16 floats: columns 8..15 are inside
  // the memory, so only the view's own extent (a scalar parameter) catches them. The fast vector
  // body leaves that check out only for work-items whose last column the dispatcher found below
  // `cols` (jit/coarsen/vector.hpp, FastEntry).
  auto& rt = test::runtime();
  KernelBuilder kb("bounds_fast_view");
  auto out = kb.param<Global<float>>("out");
  auto cols = kb.param<std::int64_t>("cols");
  auto A = view(out, kb.lit<std::int64_t>(1), cols);
  auto c = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { A(0, c) = 2.0f; });
  JitOptions wide;
  wide.coarsen_width = 16;
  Jit jit(rt, wide);
  Kernel k = jit.compile(kb.finish());
  REQUIRE(detail::KernelAccess::state(k).facts.launch.coarsen == 16);
  auto buf = rt.zeros<float>(16);
  CHECK(bounds_message([&] { k.launch(NDRange{16}, buf, std::int64_t{8}); }) ==
        "kernel 'bounds_fast_view': out(0, 8) is out of bounds: out is viewed as (1, 8) (work-item "
        "8 of ndrange (16))");
}

TEST_CASE(
    "bounds: a coarsened 2-D array store past either extent is reported by the failing "
    "work-item, and one inside writes every element") {
  // out(i, j) = i + 100 j with no guard. A work-item's fast body skips the store's checks where
  // the dispatcher finds its last i below out.size0 and its j below out.size1 (the offset then
  // lies inside: the launch checks out's extents against the elements passed). One vector of
  // each launch fails, so the report does not depend on the order work-groups run in.
  auto& rt = test::runtime();
  KernelBuilder kb("bounds_grid");
  auto out = kb.param<GlobalArray<float, 2, ColumnMajor>>("out");
  auto [i, j] = global_indices<2>(kb);
  out(i, j) = cast<float>(i) + 100.0f * cast<float>(j);
  const KernelDef def = kb.finish();
  for (unsigned width : {4u, 16u}) {
    CAPTURE(width);
    Kernel k = test::coarse_jit(width).compile(def);
    REQUIRE(detail::KernelAccess::state(k).facts.launch.coarsen == width);
    const std::size_t n = 2 * width;
    auto inside = rt.zeros<float>(n * 3);
    CHECK(bounds_message([&] { k.launch(NDRange{n, 3}, shaped(inside, {n, 3})); }).empty());
    const std::vector<float> grid = inside.to_vector();
    for (std::size_t c = 0; c < 3; ++c) {
      for (std::size_t r = 0; r < n; ++r) {
        CAPTURE(r);
        CAPTURE(c);
        REQUIRE(grid[c * n + r] == static_cast<float>(r) + 100.0f * static_cast<float>(c));
      }
    }
    // Dimension 0: the last lane of the last vector is past out's n - 1 rows.
    auto rows = rt.upload(std::vector<float>(n - 1, -7.0f));
    CHECK(bounds_message([&] {
            k.launch(NDRange{n, 1}, shaped(rows, {n - 1, 1}));
          }) == "kernel 'bounds_grid': out(" + std::to_string(n - 1) +
                    ", 0) is out of bounds: out is viewed as (" + std::to_string(n - 1) +
                    ", 1) (work-item (" + std::to_string(n - 1) + ", 0) of ndrange (" +
                    std::to_string(n) + ", 1))");
    const std::vector<float> row = rows.to_vector();
    for (std::size_t r = 0; r < n - 1; ++r) REQUIRE(row[r] == static_cast<float>(r));
    // Dimension 1: the one vector of column 2 is past out's 2 columns, from its first lane.
    auto columns = rt.upload(std::vector<float>(width * 2, -7.0f));
    CHECK(bounds_message([&] {
            k.launch(NDRange{width, 3}, shaped(columns, {width, 2}));
          }) == "kernel 'bounds_grid': out(0, 2) is out of bounds: out is viewed as (" +
                    std::to_string(width) + ", 2) (work-item (0, 2) of ndrange (" +
                    std::to_string(width) + ", 3))");
    const std::vector<float> two = columns.to_vector();
    for (std::size_t e = 0; e < two.size(); ++e) {
      REQUIRE(two[e] == static_cast<float>(e % width) + 100.0f * static_cast<float>(e / width));
    }
  }
}

namespace {

// unew(i, j) = u(i + 1, j) + v(i, j - 1) inside `0 < i < size(u, 0) - 1 + slack` and
// `0 < j < size(u, 1) - 1`: with slack 0 every read of u is proven inside and its check dropped
// (jit/bounds/proven_bounds.hpp); v's and unew's checks stay, as v may be smaller than u.
KernelDef guarded_neighbours(std::int64_t slack) {
  KernelBuilder kb("guarded_neighbours_" + std::to_string(slack));
  kb.allow_padding();
  auto unew = kb.param<GlobalArray<float, 2, ColumnMajor>>("unew");
  auto u = kb.param<ConstArray<float, 2, ColumnMajor>>("u");
  auto v = kb.param<ConstArray<float, 2, ColumnMajor>>("v");
  auto [i, j] = global_indices<2>(kb);
  auto n = size(u, 0), m = size(u, 1);
  kb.if_(0 < i && i < n - 1 + slack && 0 < j && j < m - 1,
         [&, i = i, j = j] { unew(i, j) = u(i + 1, j) + v(i, j - 1); });
  return kb.finish();
}

}  // namespace

TEST_CASE(
    "bounds: checks the kernel's own conditions prove are dropped, and every other still reports") {
  auto& rt = test::runtime();
  JitOptions scalar;
  scalar.coarsen = false;
  Jit scalar_jit(rt, scalar);
  // Two 16-lane vectors and a partial one per row. Three rows, so one is interior and each
  // failing launch below fails in one work-item only: with several failing work-groups the
  // report is the first in time, and the split launch runs them on both cores in no set order.
  const std::size_t n = 37, m = 3;
  std::vector<float> host(n * m);
  for (std::size_t k = 0; k < host.size(); ++k) host[k] = static_cast<float>(k);
  auto u = rt.upload(host), v = rt.upload(host);
  for (Jit* jit : {&test::jit(), &scalar_jit}) {
    CAPTURE(jit == &scalar_jit);
    // Proven: the result is the loop's, and nothing is reported.
    Kernel exact = jit->compile(guarded_neighbours(0));
    auto out = rt.zeros<float>(n * m);
    CHECK(bounds_message([&] {
            exact.launch(NDRange{n, m}, shaped(out, {n, m}), shaped(u, {n, m}), shaped(v, {n, m}));
          }).empty());
    const auto got = out.to_vector();
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < m; ++j)
      for (std::size_t i = 0; i < n; ++i) {
        const bool inside = i > 0 && i + 1 < n && j > 0 && j + 1 < m;
        const float want = inside ? host[(i + 1) + j * n] + host[i + (j - 1) * n] : 0.0f;
        wrong += got[i + j * n] != want;
      }
    CHECK(wrong == 0);
    // v smaller than u: its read at the last interior column of a row fails and is reported.
    auto small = rt.zeros<float>((n - 2) * m);
    CHECK(bounds_message([&] {
            exact.launch(NDRange{n, m}, shaped(out, {n, m}), shaped(u, {n, m}),
                         shaped(small, {n - 2, m}));
          }) ==
          "kernel 'guarded_neighbours_0': v(35, 0) is out of bounds: v is viewed as (35, 3) "
          "(work-item (35, 1) of ndrange (37, 3))");
    // One past the interior: u(i + 1, j) reaches u(n, j), which no condition rules out.
    Kernel past = jit->compile(guarded_neighbours(1));
    CHECK(bounds_message([&] {
            past.launch(NDRange{n, m}, shaped(out, {n, m}), shaped(u, {n, m}), shaped(v, {n, m}));
          }) ==
          "kernel 'guarded_neighbours_1': u(37, 1) is out of bounds: u is viewed as (37, 3) "
          "(work-item (36, 1) of ndrange (37, 3))");
  }
}

// merge-bounds-checks once gave each report arity its shared failure block in the order of the
// report functions' addresses, so one kernel compiled to differently named and placed blocks
// from one compile to the next (equal in value, not in what a cache or a diff sees).
TEST_CASE("bounds: a kernel whose checks report in several shapes compiles to the same SPIR-V") {
  auto make = [] {
    KernelBuilder kb("reports_of_three_shapes");
    auto out = kb.param<Global<float>>("out");
    auto in = kb.param<Const<float>>("in");
    auto n = kb.param<std::int64_t>("n");
    auto i = kb.global_index();
    auto grid = view(in, n, n);
    auto table = private_array<float>(kb, {4});
    kb.for_(0, 4, [&](Val<std::int64_t> k) { table(k) = in[k] + in[k + 1]; });
    out[i] = grid(i, i + 1) + grid(i + 1, i) + table(i % std::int64_t{4}) + in[i];
    return kb.finish();
  };
  const KernelDef def = make();
  Jit& jit = test::jit();
  const std::vector<std::uint32_t> first = jit.spirv(def);
  for (int again = 0; again < 6; ++again) {
    // Memory taken between compiles moves where the next one's functions land.
    std::vector<std::vector<char>> spacers(
        static_cast<std::size_t>(again + 1),
        std::vector<char>(static_cast<std::size_t>(again) * 56 + 8));
    CHECK(jit.spirv(make()) == first);
    CHECK(spacers.back().size() == static_cast<std::size_t>(again) * 56 + 8);
  }
}
