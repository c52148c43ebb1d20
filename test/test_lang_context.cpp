// The index space as KernelAbstractions passes it around (issue #51, item 4): device functions
// that read their kernel's indices and ndrange (KA's `f(@context, a)`), and Cartesian indices as
// values (`I = @index(Global, Cartesian)`, `A[I]`, `I + δ(1, I)`), each against a C++ reference,
// with the ndrange dynamic and static and the kernel coarsened or not.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "test/coarsen_support.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;

// out[i] = i + 1000 * ndrange(0): the index and the ndrange read inside device functions, one
// of them called through another, and the padding guard written inside one.
KernelDef context_kernel() {
  KernelBuilder kb("context_in_device_functions");
  kb.allow_padding();  // the device function below guards the padded work-items
  auto out = kb.param<Global<i64>>("out");
  auto total = device_function<i64()>(kb, "total", [&] { return kb.ndrange(0); });
  auto tag = device_function<i64(i64)>(kb, "tag", [&](Val<i64> scale) {
    return kb.global_index() + scale * total();  // @index(Global) + scale * @ndrange()[1]
  });
  auto store = device_function<void(Global<i64>)>(kb, "store", [&](Global<i64> o) {
    kb.if_(kb.in_ndrange(), [&] { o[kb.global_index()] = tag(kb.lit<i64>(1000)); });
  });
  store(out);
  return kb.finish();
}

// The linear global index from a device function (it reads ndrange(0) to linearize).
KernelDef linear_kernel() {
  KernelBuilder kb("linear_in_device_function");
  auto out = kb.param<Global<i64>>("out");
  auto linear = device_function<i64()>(kb, "linear", [&] { return global_linear(kb); });
  out[linear()] = linear();
  return kb.finish();
}

// WaterLily's mult (test/ka/waterlily_mult.cpp) with a Cartesian index, as the Julia reads:
//   s = x[I]*D[I]; for i in 1:d: s += x[I-δ(i,I)]*L[I,i] + x[I+δ(i,I)]*L[I+δ(i,I),i]
// over the interior of an n x m column-major field.
KernelDef cartesian_stencil() {
  KernelBuilder kb("cartesian_stencil");
  kb.inbounds();
  auto z = kb.param<GlobalArray<float, 2, ColumnMajor>>("z");
  auto L = kb.param<ConstArray<float, 3, ColumnMajor>>("L");
  auto D = kb.param<ConstArray<float, 2, ColumnMajor>>("D");
  auto x = kb.param<ConstArray<float, 2, ColumnMajor>>("x");
  kb.if_(kb.in_ndrange(), [&] {
    const CartesianIndex<2> I = global_indices<2>(kb) + delta<2>(0) + delta<2>(1);  // I += I0
    auto s = kb.var(x(I) * D(I));
    for (unsigned d = 0; d < 2; ++d) {
      s += x(I - delta<2>(d)) * L(I, d) + x(I + delta<2>(d)) * L(I + delta<2>(d), d);
    }
    z(I) = s;
  });
  return kb.finish();
}

std::vector<float> field(std::size_t size, std::uint32_t seed) {
  std::vector<float> v(size);
  for (float& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = static_cast<float>(seed >> 8) / static_cast<float>(1u << 24) - 0.5f;
  }
  return v;
}

}  // namespace

TEST_CASE("device functions read their kernel's index and ndrange, dynamic and static") {
  auto& rt = test::runtime();
  const KernelDef def = context_kernel();
  for (const std::size_t n : {std::size_t{1}, std::size_t{37}, std::size_t{1000}}) {
    CAPTURE(n);
    std::vector<i64> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = static_cast<i64>(i + 1000 * n);
    Specialization fixed;
    fixed.ndrange = NDRange{n};
    for (const Specialization& spec :
         {Specialization{}, test::static_workgroup(WorkGroup{16}), fixed}) {
      CAPTURE(spec.workgroup.has_value());
      CAPTURE(spec.ndrange.has_value());
      Kernel k = test::compile_checked(def, spec);
      auto out = rt.zeros<i64>(n);
      if (spec.ndrange) {
        k(out);
      } else {
        k.launch(NDRange{n}, out);  // padded to whole groups of 16 for the static workgroup
      }
      rt.synchronize();
      CHECK(out.to_vector() == expected);
    }
  }
}

TEST_CASE("global_linear inside a device function, coarsened or not") {
  auto& rt = test::runtime();
  const KernelDef def = linear_kernel();
  CHECK(test::is_coarsened(test::coarse_jit(), def, {}));
  for (Jit* jit : {&test::scalar_jit(), &test::coarse_jit()}) {
    Kernel k = jit->compile(def);
    for (const std::size_t n : {std::size_t{5}, std::size_t{1024}, std::size_t{1027}}) {
      CAPTURE(n);
      auto out = rt.zeros<i64>(3 * n);
      k.launch(NDRange{n, 3}, out);
      rt.synchronize();
      std::vector<i64> expected(3 * n);
      for (std::size_t i = 0; i < 3 * n; ++i) expected[i] = static_cast<i64>(i);
      CHECK(out.to_vector() == expected);
    }
  }
}

TEST_CASE("CartesianIndex: construction, unpacking, offsets and indexing arrays whole") {
  KernelBuilder kb("cartesian_values");
  auto out = kb.param<GlobalArray<i64, 2>>("out");
  const CartesianIndex<2> I = global_indices<2>(kb);
  auto [i, j] = I;  // unpacks like the tuple global_indices always returned
  const CartesianIndex J(i, j);
  static_assert(std::is_same_v<decltype(J), const CartesianIndex<2>>);
  static_assert(CartesianIndex<3>::size() == 3);
  static_assert(delta<3>(1) == std::array<i64, 3>{0, 1, 0});
  static_assert(delta<2>(0, -2) == std::array<i64, 2>{-2, 0});
  CHECK_THROWS_WITH_AS(delta<2>(2), doctest::Contains("delta<2>(2): no such dimension"), UserError);
  CHECK_THROWS_WITH_AS(I[2], doctest::Contains("CartesianIndex<2>: dimension 2; expected 0 to 1"),
                       UserError);
  unsigned walked = 0;
  for (const Val<i64>& index : I) walked += index.valid();  // iterates like the std::array
  CHECK(walked == 2);
  const Val<i64> i0 = i, j0 = j;  // clang 15 lambdas cannot capture bindings
  kb.if_(kb.in_ndrange(), [&] {
    const CartesianIndex<2> K = (J + delta<2>(1, 3)) - (I - delta<2>(0));  // (1, 3)
    out(I) = i0 * 100 + j0 + K[0] * 10000 + K.get<1>() * 100000;
  });
  auto& rt = test::runtime();
  Kernel k = test::compile_checked(kb.finish());
  auto buffer = rt.zeros<i64>(4 * 6);
  k.launch(NDRange{4, 6}, shaped(buffer, {4, 6}));
  rt.synchronize();
  std::vector<i64> expected(4 * 6);
  for (i64 a = 0; a < 4; ++a) {
    for (i64 b = 0; b < 6; ++b)
      expected[static_cast<std::size_t>(a * 6 + b)] = a * 100 + b + 310000;
  }
  CHECK(buffer.to_vector() == expected);
}

TEST_CASE("CartesianIndex stencil (WaterLily's mult, as the Julia reads) equals the C++ loop") {
  auto& rt = test::runtime();
  const KernelDef def = cartesian_stencil();
  const std::size_t n = 37, m = 23, faces = n * m;
  const auto L = field(2 * faces, 1), D = field(faces, 2), x = field(faces, 3);
  std::vector<float> expected(faces, 0.0f);
  for (std::size_t j = 1; j + 1 < m; ++j) {
    for (std::size_t i = 1; i + 1 < n; ++i) {
      const std::size_t at = i + n * j;
      float s = x[at] * D[at];
      s += x[at - 1] * L[at] + x[at + 1] * L[at + 1];
      s += x[at - n] * L[faces + at] + x[at + n] * L[faces + at + n];
      expected[at] = s;
    }
  }
  CHECK(test::is_coarsened(test::coarse_jit(), def, {}));
  for (Jit* jit : {&test::scalar_jit(), &test::coarse_jit()}) {
    Kernel k = jit->compile(def);
    auto z = rt.zeros<float>(faces);
    auto bL = rt.upload(L), bD = rt.upload(D), bx = rt.upload(x);
    k.launch(NDRange{n - 2, m - 2}, shaped(z, {n, m}), shaped(bL, {n, m, 2}), shaped(bD, {n, m}),
             shaped(bx, {n, m}));
    rt.synchronize();
    CHECK(z.to_vector() == expected);
  }
}
