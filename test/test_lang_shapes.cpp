// Arrays that carry their shape (GlobalArray<T, N>, shaped(buffer, {n, m}), size, length),
// column-major layouts, and vectors as arguments and results of device functions; each against
// a C++ reference. KA's transpose and matmuls, ported with their indices as written, are in
// test/ka/.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "test/coarsen_support.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;

// Writes every extent, the length of each array and the length of the plain output.
KernelDef sizes_kernel(bool inbounds) {
  KernelBuilder kb(inbounds ? "sizes_inbounds" : "sizes");
  if (inbounds) kb.inbounds();
  auto out = kb.param<Global<i64>>("out");
  auto a = kb.param<ConstArray<float, 1>>("a");
  auto b = kb.param<GlobalArray<float, 2>>("b");
  auto c = kb.param<ConstArray<double, 3, ColumnMajor>>("c");
  kb.if_(kb.global_index() == 0, [&] {
    out[0] = size(a, 0);
    out[1] = length(a);
    out[2] = size(b, 0);
    out[3] = size(b, 1);
    out[4] = length(b);
    out[5] = c.extent(0);
    out[6] = c.extent(1);
    out[7] = c.extent(2);
    out[8] = length(c);
    out[9] = length(out);
    out[10] = length(a.data());
  });
  return kb.finish();
}

// B(i, j) = 10 * A(i, j) + i, guarded by B's own extents: the ndrange may be larger.
KernelDef scale_2d(Layout layout) {
  const bool cm = layout == Layout::ColumnMajor;
  KernelBuilder kb(cm ? "scale_2d_cm" : "scale_2d");
  kb.allow_padding();
  Array<float, AddressSpace::Global> B;
  Array<const float, AddressSpace::Global> A;
  if (cm) {
    B = kb.param<GlobalArray<float, 2, ColumnMajor>>("B");
    A = kb.param<ConstArray<float, 2, ColumnMajor>>("A");
  } else {
    B = kb.param<GlobalArray<float, 2>>("B");
    A = kb.param<ConstArray<float, 2>>("A");
  }
  const auto i = kb.global_index(0), j = kb.global_index(1);
  kb.if_(i < size(B, 0) && j < size(B, 1), [&] { B(i, j) = A(i, j) * 10.0f + cast<float>(i); });
  return kb.finish();
}

std::vector<float> iota_floats(std::size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 1.0f);
  return v;
}

// out[i] = 2 * in[i] for i < length(in): the kernel's own guard, no size parameter.
KernelDef doubled(bool inbounds) {
  KernelBuilder kb(inbounds ? "doubled_inbounds" : "doubled");
  if (inbounds) kb.inbounds();
  kb.allow_padding();
  auto out = kb.param<Global<float>>("out");
  auto in = kb.param<Const<float>>("in");
  const auto i = kb.global_index();
  kb.if_(i < length(in), [&] { out[i] = in[i] * 2.0f; });
  return kb.finish();
}

}  // namespace

TEST_CASE("size and length of array parameters in 1 to 3 dimensions, and length of a pointer") {
  auto& rt = test::runtime();
  for (bool inbounds : {false, true}) {
    CAPTURE(inbounds);
    Kernel k = test::compile_checked(sizes_kernel(inbounds));
    CHECK(k.params()[1].describe() == "global const f32[1-d]");
    CHECK(k.params()[2].describe() == "global f32[2-d]");
    CHECK(k.params()[3].describe() == "global const f64[3-d column-major]");
    auto out = rt.zeros<i64>(11);
    auto a = rt.zeros<float>(7);
    auto b = rt.zeros<float>(15);
    auto c = rt.zeros<double>(24);
    k.launch(NDRange{4}, out, a, shaped(b, {3, 5}), shaped(c, 2, 3, 4));
    rt.synchronize();
    CHECK(out.to_vector() == std::vector<i64>{7, 7, 3, 5, 15, 2, 3, 4, 24, 11, 7});
    // A rank-1 array also takes a shaped view of one extent; the same kernel, new shapes.
    auto a2 = rt.zeros<float>(9);
    k.launch(NDRange{1}, out, shaped(a2, {9}), shaped(b, {5, 3}), shaped(c, 4, 3, 2));
    rt.synchronize();
    CHECK(out.to_vector() == std::vector<i64>{9, 9, 5, 3, 15, 4, 3, 2, 24, 11, 9});
  }
}

TEST_CASE(
    "length of a pointer parameter guards a padded launch, checked, inbounds() and with "
    "checks off") {
  auto& rt = test::runtime();
  JitOptions off;
  off.disk_cache = false;
  off.bounds_checks = false;
  Jit unchecked(rt, off);
  const auto in = iota_floats(1000);
  std::vector<float> expected(1000);
  for (std::size_t i = 0; i < 1000; ++i) expected[i] = 2.0f * in[i];
  for (bool inbounds : {false, true}) {
    for (Jit* jit : {&test::jit(), &unchecked}) {
      CAPTURE(inbounds);
      CAPTURE(jit == &unchecked);
      Kernel k = jit->compile(doubled(inbounds));
      auto In = rt.upload(in);
      auto Out = rt.zeros<float>(1000);
      k.launch(NDRange{1024}, WorkGroup{256}, Out, In);
      rt.synchronize();
      CHECK(Out.to_vector() == expected);
    }
  }
}

TEST_CASE("length of a LocalMemory parameter is its elements") {
  auto& rt = test::runtime();
  KernelBuilder kb("local_length");
  auto out = kb.param<Global<i64>>("out");
  auto scratch = kb.param<Local<float>>("scratch");
  kb.if_(kb.global_index() == 0, [&] { out[0] = length(scratch); });
  Kernel k = test::compile_checked(kb.finish());
  auto Out = rt.zeros<i64>(1);
  k.launch(NDRange{1}, Out, LocalMemory{64 * sizeof(float)});
  rt.synchronize();
  CHECK(Out.to_vector() == std::vector<i64>{64});
}

TEST_CASE("a 2-d array parameter, row- and column-major, against the C++ reference") {
  auto& rt = test::runtime();
  const std::size_t rows = 37, cols = 21;
  const auto host = iota_floats(rows * cols);
  for (Layout layout : {Layout::RowMajor, Layout::ColumnMajor}) {
    const bool cm = layout == Layout::ColumnMajor;
    CAPTURE(cm);
    Kernel k = test::compile_checked(scale_2d(layout));
    auto A = rt.upload(host);
    auto B = rt.zeros<float>(rows * cols);
    k.launch(NDRange{40, 24}, WorkGroup{8, 8}, shaped(B, {rows, cols}), shaped(A, {rows, cols}));
    rt.synchronize();
    const auto b = B.to_vector();
    for (std::size_t i = 0; i < rows; ++i) {
      for (std::size_t j = 0; j < cols; ++j) {
        const std::size_t at = cm ? i + j * rows : i * cols + j;
        CAPTURE(i);
        CAPTURE(j);
        REQUIRE(b[at] == host[at] * 10.0f + static_cast<float>(i));
      }
    }
  }
}

TEST_CASE("a wrong shape at launch is a UserError naming the parameter") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(scale_2d(Layout::RowMajor));
  auto A = rt.zeros<float>(12);
  auto B = rt.zeros<float>(12);
  const NDRange nd{4, 3};
  CHECK_THROWS_WITH_AS(
      k.launch(nd, shaped(B, {4, 4}), shaped(A, {4, 3})),
      doctest::Contains("argument 0 'B': the shape (4, 4) does not match the 12 f32 passed"),
      UserError);
  CHECK_THROWS_WITH_AS(
      k.launch(nd, shaped(B, {4, 3}), A),
      doctest::Contains("argument 1 'A': expected global const f32[2-d], memory with 2 "
                        "extents (shaped(memory, {n0, n1})), got memory without a shape"),
      UserError);
  CHECK_THROWS_WITH_AS(k.launch(nd, shaped(B, {4, 3}), shaped(A, 2, 2, 3)),
                       doctest::Contains("argument 1 'A'"), UserError);
  CHECK_THROWS_WITH_AS(k.launch(nd, shaped(B, {4, 3}), shaped(A, 4, -3)),
                       doctest::Contains("argument 1 'A': the shape"), UserError);
  // A negative extent beside a zero one: the product (0) matches no memory's elements but an
  // empty one's, and the kernel would read the extent as -1.
  auto empty = rt.zeros<float>(0);
  CHECK_THROWS_WITH_AS(k.launch(nd, shaped(B, {4, 3}), shaped(empty, 0, -1)),
                       doctest::Contains("argument 1 'A': the shape (0, 18446744073709551615)"),
                       UserError);
  // Unshaped memory for a plain pointer stays as it was; a shaped one must still add up.
  Kernel plain = test::jit().compile(doubled(false));
  CHECK_THROWS_WITH_AS(plain.launch(NDRange{12}, B, shaped(A, {5, 2})),
                       doctest::Contains("argument 1 'in': the shape (5, 2)"), UserError);
  plain.launch(NDRange{12}, B, shaped(A, {6, 2}));
  rt.synchronize();
}

TEST_CASE("an index past an array parameter's extent is a BoundsError naming the array") {
  auto& rt = test::runtime();
  KernelBuilder kb("shape_overrun");
  auto A = kb.param<GlobalArray<float, 2>>("A");
  const auto i = kb.global_index(0);
  A(i, size(A, 1)) = 1.0f;  // column past the end, though within the memory for i = 0
  Kernel k = test::jit().compile(kb.finish());
  auto buffer = rt.zeros<float>(12);
  k.launch(NDRange{1}, shaped(buffer, {3, 4}));
  CHECK_THROWS_WITH_AS(rt.synchronize(),
                       doctest::Contains("A(0, 4) is out of bounds: A is viewed as (3, 4)"),
                       BoundsError);
  CHECK(buffer.to_vector() == std::vector<float>(12, 0.0f));
}

TEST_CASE("length() of something that is no kernel parameter is a UserError") {
  KernelBuilder kb("bad_length");
  auto p = kb.param<Global<float>>("p");
  auto priv = private_array<float>(kb, {4});
  CHECK_THROWS_WITH_AS(
      length(priv.data()),
      doctest::Contains("length of kernel 'bad_length': the pointer is no parameter of the kernel"),
      UserError);
  CHECK_NOTHROW(length(priv));  // an array knows its own length
  auto f = device_function<i64(Global<float>)>(kb, "len", [&](Global<float> q) {
    CHECK_THROWS_WITH_AS(length(q), doctest::Contains("inside device function 'len'"), UserError);
    return kb.lit<i64>(0);
  });
  (void)f;
  (void)p;
}

TEST_CASE("column-major views, local and private arrays put the first index fastest") {
  auto& rt = test::runtime();
  KernelBuilder kb("column_major_views");
  auto out = kb.param<Global<i64>>("out");
  auto n = kb.param<i64>("n");
  auto m = kb.param<i64>("m");
  auto V = view<ColumnMajor>(out, n, m);
  auto tile = local_array<i64, ColumnMajor>(kb, {2, 3}, "tile");
  auto priv = private_array<i64, ColumnMajor>(kb, {2, 3});
  auto row_major = private_array<i64>(kb, {2, 3});
  kb.if_(kb.global_index() == 0, [&] {
    for (i64 j = 0; j < 3; ++j)
      for (i64 i = 0; i < 2; ++i) {
        tile(i, j) = kb.lit<i64>(10 * i + j);
        priv(i, j) = kb.lit<i64>(10 * i + j);
        row_major(i, j) = kb.lit<i64>(10 * i + j);
      }
    // Linear offsets read back the layouts: tile[1] is (1, 0) column-major, (0, 1) row-major.
    V(0, 0) = tile[1];
    V(1, 0) = priv[2];
    V(0, 1) = row_major[1];
    V(1, 1) = tile.length();
  });
  Kernel k = test::compile_checked(kb.finish());
  auto Out = rt.zeros<i64>(6);
  k.launch(NDRange{1}, Out, i64{2}, i64{3});
  rt.synchronize();
  CHECK(Out.to_vector() == std::vector<i64>{10, 1, 1, 6, 0, 0});
}

TEST_CASE("a view of an array parameter with other extents (KA's reshape)") {
  auto& rt = test::runtime();
  KernelBuilder kb("reshaped");
  auto A = kb.param<GlobalArray<float, 2>>("A");
  auto flat = view(A, length(A));
  const auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { flat(i) = cast<float>(i); });
  Kernel k = test::compile_checked(kb.finish());
  auto buffer = rt.zeros<float>(12);
  k.launch(NDRange{12}, shaped(buffer, {3, 4}));
  rt.synchronize();
  std::vector<float> expected(12);
  std::iota(expected.begin(), expected.end(), 0.0f);
  CHECK(buffer.to_vector() == expected);
}

TEST_CASE("an element-wise kernel over array parameters coarsens and gives the scalar result") {
  auto& rt = test::runtime();
  KernelBuilder kb("shaped_axpy");
  kb.elementwise();
  auto Y = kb.param<GlobalArray<float, 2>>("Y");
  auto X = kb.param<ConstArray<float, 2>>("X");
  const auto col = kb.global_index(0), row = kb.global_index(1);
  kb.if_(kb.in_ndrange(), [&] { Y(row, col) = X(row, col) * 3.0f + Y(row, col); });
  const auto def = kb.finish();
  const std::size_t rows = 5, cols = 203;
  const auto x = iota_floats(rows * cols);
  std::vector<float> expected(rows * cols);
  for (std::size_t e = 0; e < x.size(); ++e) expected[e] = x[e] * 3.0f + 1.0f;
  for (Jit* jit : {&test::scalar_jit(), &test::coarse_jit(8)}) {
    auto Xb = rt.upload(x);
    auto Yb = rt.upload(std::vector<float>(rows * cols, 1.0f));
    Kernel k = jit->compile(def);
    k.launch(NDRange{cols, rows}, shaped(Yb, {rows, cols}), shaped(Xb, {rows, cols}));
    rt.synchronize();
    CHECK(Yb.to_vector() == expected);
  }
  CHECK(test::is_coarsened(test::coarse_jit(8), def));
}

TEST_CASE("vectors as arguments and results of device functions") {
  auto& rt = test::runtime();
  KernelBuilder kb("vector_functions");
  auto out = kb.param<Global<float>>("out");
  auto in = kb.param<Const<float>>("in");
  auto dout = kb.param<Global<double>>("dout");
  auto scale = device_function<Vec<float, 4>(Vec<float, 4>, float)>(
      kb, "scale", [&](Vec<float, 4> v, Val<float> a) { return v * a; });
  auto dot3 = device_function<float(Vec<float, 3>, Vec<float, 3>)>(
      kb, "dot3", [&](Vec<float, 3> a, Vec<float, 3> b) { return reduce_add(a * b); });
  auto wide = device_function<Vec<double, 8>(Vec<double, 8>, Vec<double, 8>)>(
      kb, "wide", [&](Vec<double, 8> a, Vec<double, 8> b) { return a * b + a; });
  auto ints = device_function<Vec<std::int32_t, 16>(Vec<std::int32_t, 16>)>(
      kb, "ints", [&](Vec<std::int32_t, 16> v) { return v + 1; });
  const auto i = kb.global_index();
  kb.if_(i == 0, [&] {
    vstore(out, 0, scale(vload<4>(in, 0), kb.lit(2.0f)));
    out[4] = dot3(vload<3>(in, 0), vload<3>(in, 4));
    auto d = cast<double>(vload<8>(in, 0));
    vstore(dout, 0, wide(d, d));
    auto n = ints(cast<std::int32_t>(vload<16>(in, 0)));
    out[5] = cast<float>(reduce_add(n));
  });
  Kernel k = test::compile_checked(kb.finish());
  const auto host = iota_floats(16);
  auto In = rt.upload(host);
  auto Out = rt.zeros<float>(6);
  auto DOut = rt.zeros<double>(8);
  k.launch(NDRange{1}, Out, In, DOut);
  rt.synchronize();
  const auto o = Out.to_vector();
  CHECK(std::vector<float>(o.begin(), o.begin() + 4) == std::vector<float>{2, 4, 6, 8});
  CHECK(o[4] == 1.0f * 5 + 2.0f * 6 + 3.0f * 7);
  CHECK(o[5] == 136.0f + 16.0f);
  const auto d = DOut.to_vector();
  for (std::size_t e = 0; e < 8; ++e) CHECK(d[e] == double(host[e]) * host[e] + host[e]);
}

TEST_CASE("device functions on vectors check their arguments and results") {
  static_assert(std::is_same_v<decltype(std::declval<Function<Vec<float, 4>(Vec<float, 4>)>>()(
                                   std::declval<Vec<float, 4>>())),
                               Vec<float, 4>>);
  static_assert(!std::is_invocable_v<Function<Vec<float, 4>(Vec<float, 4>)>, Vec<float, 8>>);
  KernelBuilder kb("vector_function_errors");
  auto in = kb.param<Const<float>>("in");
  CHECK_THROWS_WITH_AS((device_function<Vec<float, 4>(Vec<float, 4>)>(
                           kb, "widens",
                           [&](Vec<float, 4> v) {
                             return make_vec(v[0], v[1], v[2], v[3], v[0], v[1], v[2], v[3]);
                           })),
                       doctest::Contains("expected f32x4, got f32x8"), UserError);
  const auto outside = vload<4>(in, 0);
  CHECK_THROWS_WITH_AS((device_function<Vec<float, 4>(Vec<float, 4>)>(
                           kb, "captures", [&](Vec<float, 4>) { return outside; })),
                       doctest::Contains("another function"), UserError);
  // The failed functions left the kernel buildable.
  auto twice = device_function<Vec<float, 2>(Vec<float, 2>)>(
      kb, "twice", [&](Vec<float, 2> v) { return v + v; });
  CHECK(twice(vload<2>(in, 0)).lanes() == 2);
  CHECK_NOTHROW(kb.finish());
}

TEST_CASE("device functions take and return vectors of bool") {
  auto& rt = test::runtime();
  KernelBuilder kb("bool_vector_function");
  auto out = kb.param<Global<std::int32_t>>("out");
  auto in = kb.param<Const<float>>("in");
  auto flip =
      device_function<Vec<bool, 4>(Vec<bool, 4>)>(kb, "flip", [&](Vec<bool, 4> v) { return !v; });
  kb.if_(kb.global_index() == 0, [&] {
    auto mask = flip(vload<4>(in, 0) > 2.0f);
    vstore(out, 0,
           select(mask, Vec<std::int32_t, 4>::splat(kb.lit(1)),
                  Vec<std::int32_t, 4>::splat(kb.lit(0))));
  });
  Kernel k = test::compile_checked(kb.finish());
  auto In = rt.upload(iota_floats(4));
  auto Out = rt.zeros<std::int32_t>(4);
  k.launch(NDRange{1}, Out, In);
  rt.synchronize();
  CHECK(Out.to_vector() == std::vector<std::int32_t>{1, 1, 0, 0});
}
