// KernelAbstractions' memory examples and tests written with the builder: memcopy, transpose,
// naive and tiled matmul, the 3D index test and private memory; each against a C++ reference,
// on sizes that are and are not multiples of the workgroup.
#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include "common/group_stack.hpp"
#include "spvjit/examples.hpp"
#include "test/lang_support.hpp"
#include "test/matmul_reference.hpp"

using namespace spvjit;

namespace {

KernelDef memcopy() {
  KernelBuilder kb("memcopy");
  auto a = kb.param<Global<float>>("A");
  auto b = kb.param<Const<float>>("B");
  auto i = global_linear(kb);
  kb.if_(kb.in_ndrange(), [&] { a[i] = b[i]; });
  return kb.finish();
}

// B = transpose(A) for A of rows x cols, row-major; dimension 0 runs along A's columns.
KernelDef transpose() {
  KernelBuilder kb("transpose");
  auto out = kb.param<Global<float>>("B");
  auto in = kb.param<Const<float>>("A");
  auto rows = kb.param<std::int64_t>("rows");
  auto cols = kb.param<std::int64_t>("cols");
  auto [col, row] = global_indices<2>(kb);
  auto A = view(in, rows, cols);
  auto B = view(out, cols, rows);
  kb.if_(kb.in_ndrange(), [&] { B(col, row) = A(row, col); });
  return kb.finish();
}

constexpr std::int64_t tile = 16;

}  // namespace

TEST_CASE("memcopy with a static and a dynamic workgroup") {
  auto def = memcopy();
  auto& rt = test::runtime();
  for (bool static_wg : {false, true}) {
    Specialization spec;
    if (static_wg) spec.workgroup = WorkGroup{64};
    Kernel k = test::compile_checked(def, spec);
    for (std::size_t n : {1u, 63u, 64u, 1000u, 4099u}) {
      CAPTURE(static_wg);
      CAPTURE(n);
      auto src = test::small_ints(n, 1);
      auto B = rt.upload(src);
      auto A = rt.zeros<float>(n);
      k.launch(NDRange{n}, A, B);
      rt.synchronize();
      CHECK(A.to_vector() == src);
    }
  }
}

TEST_CASE("2D naive transpose") {
  auto def = transpose();
  auto& rt = test::runtime();
  for (bool static_wg : {false, true}) {
    Specialization spec;
    if (static_wg) spec.workgroup = WorkGroup{8, 8};
    Kernel k = test::compile_checked(def, spec);
    for (auto [rows, cols] :
         {std::pair<std::size_t, std::size_t>{1, 1}, {16, 16}, {17, 33}, {100, 7}}) {
      CAPTURE(static_wg);
      CAPTURE(rows);
      CAPTURE(cols);
      auto src = test::small_ints(rows * cols, 2);
      for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
      auto A = rt.upload(src);
      auto B = rt.zeros<float>(rows * cols);
      k.launch(NDRange{cols, rows}, B, A, static_cast<std::int64_t>(rows),
               static_cast<std::int64_t>(cols));
      rt.synchronize();
      auto got = B.to_vector();
      std::size_t wrong = 0;
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) wrong += got[c * rows + r] != src[r * cols + c];
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("naive and tiled matmul match the C++ reference") {
  auto& rt = test::runtime();
  Kernel naive = test::compile_checked(examples::naive_matmul());
  Kernel tiled = test::compile_checked(examples::tiled_matmul(tile),
                                       test::static_workgroup(WorkGroup{tile, tile}));
  struct Size {
    std::size_t n, p, m;
  };
  for (Size s : {Size{1, 1, 1}, Size{16, 16, 16}, Size{37, 45, 29}, Size{64, 32, 48}}) {
    CAPTURE(s.n);
    CAPTURE(s.p);
    CAPTURE(s.m);
    auto a = test::small_ints(s.n * s.p, 3), b = test::small_ints(s.p * s.m, 4);
    const auto expected = test::matmul_reference(a, b, s.n, s.p, s.m, false);
    auto A = rt.upload(a), B = rt.upload(b);
    auto C1 = rt.zeros<float>(s.n * s.m), C2 = rt.zeros<float>(s.n * s.m);
    const auto n = static_cast<std::int64_t>(s.n), p = static_cast<std::int64_t>(s.p),
               m = static_cast<std::int64_t>(s.m);
    naive.launch(NDRange{s.m, s.n}, C1, A, B, n, p, m);
    tiled.launch(NDRange{s.m, s.n}, C2, A, B, n, p, m);
    rt.synchronize();
    CHECK(C1.to_vector() == expected);
    CHECK(C2.to_vector() == expected);
  }
}

TEST_CASE("3D index test: every work-item writes its Cartesian global, local and group index") {
  KernelBuilder kb("index3d");
  auto out = kb.param<Global<std::int64_t>>("out");
  constexpr std::int64_t fields = 14;
  auto g = global_indices<3>(kb);
  auto l = local_indices<3>(kb);
  auto w = group_indices<3>(kb);
  auto lin = global_linear(kb);
  auto local_lin = local_linear(kb);
  auto group_lin = group_linear(kb);
  auto groups = num_groups(kb, 0) * num_groups(kb, 1) * num_groups(kb, 2);
  kb.if_(kb.in_ndrange(), [&] {
    auto row = view(out, kb.ndrange(0) * kb.ndrange(1) * kb.ndrange(2), fields);
    for (unsigned d = 0; d < 3; ++d) {
      row(lin, d) = g[d];
      row(lin, 3 + d) = l[d];
      row(lin, 6 + d) = w[d];
    }
    row(lin, 9) = local_lin;
    row(lin, 10) = group_lin;
    row(lin, 11) = groups;
    row(lin, 12) = kb.group_size(0) * kb.group_size(1) * kb.group_size(2);
    row(lin, 13) = lin;
  });
  auto def = kb.finish();
  auto& rt = test::runtime();
  struct Case {
    NDRange nd;
    WorkGroup wg;
  };
  for (const Case& c :
       {Case{NDRange{5, 3, 2}, WorkGroup{2, 2, 2}}, Case{NDRange{8, 4, 4}, WorkGroup{4, 2, 2}},
        Case{NDRange{7, 1, 3}, WorkGroup{4, 1, 2}}}) {
    CAPTURE(c.nd.to_string());
    Kernel k = test::compile_checked(def, test::static_workgroup(c.wg));
    const std::size_t total = c.nd.total();
    auto out_buf = rt.zeros<std::int64_t>(total * fields);
    k.launch(c.nd, out_buf);
    rt.synchronize();
    auto got = out_buf.to_vector();
    std::size_t groups[3];
    for (unsigned d = 0; d < 3; ++d) groups[d] = (c.nd[d] + c.wg[d] - 1) / c.wg[d];
    std::size_t wrong = 0;
    for (std::size_t z = 0; z < c.nd[2]; ++z)
      for (std::size_t y = 0; y < c.nd[1]; ++y)
        for (std::size_t x = 0; x < c.nd[0]; ++x) {
          const std::size_t id[3] = {x, y, z};
          const std::size_t lin_ref = x + c.nd[0] * (y + c.nd[1] * z);
          std::int64_t expected[fields];
          for (unsigned d = 0; d < 3; ++d) {
            expected[d] = static_cast<std::int64_t>(id[d]);
            expected[3 + d] = static_cast<std::int64_t>(id[d] % c.wg[d]);
            expected[6 + d] = static_cast<std::int64_t>(id[d] / c.wg[d]);
          }
          expected[9] =
              expected[3] + static_cast<std::int64_t>(c.wg[0]) *
                                (expected[4] + static_cast<std::int64_t>(c.wg[1]) * expected[5]);
          expected[10] =
              expected[6] + static_cast<std::int64_t>(groups[0]) *
                                (expected[7] + static_cast<std::int64_t>(groups[1]) * expected[8]);
          expected[11] = static_cast<std::int64_t>(groups[0] * groups[1] * groups[2]);
          expected[12] = static_cast<std::int64_t>(c.wg.total());
          expected[13] = static_cast<std::int64_t>(lin_ref);
          for (std::size_t f = 0; f < fields; ++f)
            wrong += got[lin_ref * fields + f] != expected[f];
        }
    CHECK(wrong == 0);
  }
}

TEST_CASE("private memory: per-work-item arrays in 1 and 2 dimensions") {
  KernelBuilder kb("private_mem");
  auto out = kb.param<Global<std::int32_t>>("out");
  auto i = cast<std::int32_t>(kb.global_index());
  auto a = private_array<std::int32_t>(kb, {4});
  auto grid = private_array<std::int32_t>(kb, {2, 3});
  kb.for_(kb.lit<std::int64_t>(0), kb.lit<std::int64_t>(4), kb.lit<std::int64_t>(1),
          [&](Val<std::int64_t> j) { a(j) = i * cast<std::int32_t>(j + 1); });
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) grid(r, c) = i + (r * 3 + c);
  // Read back in reverse so stores and loads cannot be folded into one register each.
  auto sum = kb.var<std::int32_t>(0);
  kb.for_(kb.lit<std::int64_t>(0), kb.lit<std::int64_t>(4), kb.lit<std::int64_t>(1),
          [&](Val<std::int64_t> j) { sum = sum * 3 + a(kb.lit<std::int64_t>(3) - j); });
  sum = sum + grid(1, 2) - grid(0, 1);
  kb.if_(kb.in_ndrange(), [&] { out[kb.global_index()] = sum.get(); });
  auto def = kb.finish();
  Kernel k = test::compile_checked(def);
  auto& rt = test::runtime();
  for (std::size_t n : {1u, 100u, 257u}) {
    CAPTURE(n);
    auto buf = rt.zeros<std::int32_t>(n);
    k.launch(NDRange{n}, WorkGroup{64}, buf);
    rt.synchronize();
    auto got = buf.to_vector();
    std::size_t wrong = 0;
    for (std::size_t x = 0; x < n; ++x) {
      const std::int32_t v = static_cast<std::int32_t>(x);
      std::int32_t s = 0;
      for (int j = 3; j >= 0; --j) s = s * 3 + v * (j + 1);
      s += (v + 5) - (v + 1);
      wrong += got[x] != s;
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("large private arrays: chosen workgroups fit, oversized ones are a UserError") {
  // 8 KiB per work-item: a 4096-item group would need 32 MiB of PoCL's worker stack (8 MiB
  // here; common/group_stack.hpp).
  constexpr std::int64_t len = 2048;
  KernelBuilder kb("big_private");
  auto out = kb.param<Global<float>>("out");
  auto a = private_array<float>(kb, {len});
  auto i = kb.global_index();
  kb.for_(kb.lit<std::int64_t>(0), kb.lit(len), kb.lit<std::int64_t>(1),
          [&](Val<std::int64_t> j) { a(j) = cast<float>(j % 7 + i % 3); });
  auto sum = kb.var(0.0f);
  kb.for_(kb.lit<std::int64_t>(0), kb.lit(len), kb.lit<std::int64_t>(1),
          [&](Val<std::int64_t> j) { sum += a(kb.lit(len - 1) - j); });
  kb.if_(kb.in_ndrange(), [&] { out[i] = sum.get(); });
  auto def = kb.finish();
  Kernel k = test::compile_checked(def);
  CHECK(k.workgroup_for(NDRange{4096}).total() * len * 4 <=
        detail::default_thread_stack_bytes() / 2);
  auto& rt = test::runtime();
  const std::size_t n = 1000;
  auto buf = rt.zeros<float>(n);
  k.launch(NDRange{n}, buf);
  rt.synchronize();
  auto got = buf.to_vector();
  float base = 0;
  for (std::int64_t j = 0; j < len; ++j) base += static_cast<float>(j % 7);
  std::size_t wrong = 0;
  for (std::size_t x = 0; x < n; ++x)
    wrong += got[x] != base + static_cast<float>(len * static_cast<std::int64_t>(x % 3));
  CHECK(wrong == 0);
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{n}, WorkGroup{4096}, buf),
      doctest::Contains("workgroup (4096,) would keep 4096 x 8192 = 33554432 bytes"), UserError);
  CHECK_THROWS_WITH_AS(test::jit().compile(def, test::static_workgroup(WorkGroup{4096})),
                       doctest::Contains("static workgroup (4096,) would keep 4096 x 8192"),
                       UserError);
  KernelBuilder huge("huge_private");
  auto o = huge.param<Global<float>>("out");
  auto h = private_array<float>(huge, {std::int64_t{2} << 20});
  h(0) = 1.0f;
  o[0] = h(0);
  CHECK_THROWS_WITH_AS(test::jit().compile(huge.finish()),
                       doctest::Contains("one work-item alone would keep 8388608 bytes"),
                       UserError);
}
