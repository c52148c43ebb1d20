// What a line-for-line KernelAbstractions port writes (issue #68): `abs` of a float, `c ? 4f0 :
// 2f0` as select() with numbers, private arrays of SPVJIT_STRUCT types and of Vec (Julia's
// `MArray` of structs and of `SVector`s), `for atom in ligand` as kb.for_each and a struct's
// members at once with members(); each against the host, bounds checked per index.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "test/coarsen_support.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace porting_test {

struct Atom {
  float x, y, z;
  std::int32_t type;
};
SPVJIT_STRUCT(Atom, x, y, z, type)

struct Pose {
  float angle[3];
  Atom anchor;
};
SPVJIT_STRUCT(Pose, angle, anchor)

// Runs `launch` and synchronizes; the BoundsError's message, or "" when none.
template <class F>
std::string bounds_error(F&& launch) {
  try {
    launch();
    test::runtime().synchronize();
  } catch (const BoundsError& e) {
    return e.what();
  }
  return "";
}

}  // namespace porting_test

using namespace porting_test;

TEST_CASE("porting: abs of a float is fabs, bit for bit, special values included") {
  auto& rt = test::runtime();
  auto run = [&]<class T>() {
    KernelBuilder kb("abs_float");
    auto z = kb.param<Global<T>>("z");
    auto x = kb.param<Const<T>>("x");
    auto i = kb.global_index();
    kb.if_(kb.in_ndrange(), [&] { z[i] = -abs(x[i]); });  // KA's `-abs(x)`
    std::vector<T> xs = spvjit::test::random_data<T>(200, 4);
    xs[0] = T(-0.0);
    xs[1] = std::numeric_limits<T>::infinity();
    xs[2] = -std::numeric_limits<T>::quiet_NaN();
    xs[3] = -std::numeric_limits<T>::denorm_min();
    auto X = rt.upload(xs);
    auto Z = rt.zeros<T>(xs.size());
    test::scalar_jit().compile(kb.finish()).launch(NDRange{xs.size()}, Z, X);
    rt.synchronize();
    const auto zs = Z.to_vector();
    for (std::size_t k = 0; k < xs.size(); ++k) {
      CAPTURE(k);
      const T want = -std::fabs(xs[k]);
      CHECK(std::memcmp(&zs[k], &want, sizeof want) == 0);
    }
  };
  run.operator()<float>();
  run.operator()<double>();
}

TEST_CASE("porting: select takes C++ numbers on either side, as the arithmetic operators do") {
  auto& rt = test::runtime();
  KernelBuilder kb("select_numbers");
  auto z = kb.param<Global<float>>("z");
  auto w = kb.param<Global<std::int32_t>>("w");
  auto d = kb.param<Global<double>>("d");
  auto x = kb.param<Const<float>>("x");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto c = x[i] > 0.0f;
    auto v = kb.var(x[i].get());
    z[i] = select(c, 4.0f, 2.0f) + select(c, x[i], 0) + select(!c, 1.5f, v);  // element, Var
    w[i] = select(c, 7, -7);                                                  // two ints
    d[i] = select(c, cast<double>(x[i].get()), 0.25);
  });
  const auto xs = spvjit::test::random_data<float>(100, 5);
  auto X = rt.upload(xs);
  auto Z = rt.zeros<float>(xs.size());
  auto W = rt.zeros<std::int32_t>(xs.size());
  auto D = rt.zeros<double>(xs.size());
  test::scalar_jit().compile(kb.finish()).launch(NDRange{xs.size()}, Z, W, D, X);
  rt.synchronize();
  const auto zs = Z.to_vector();
  const auto ws = W.to_vector();
  const auto ds = D.to_vector();
  for (std::size_t k = 0; k < xs.size(); ++k) {
    CAPTURE(k);
    const bool c = xs[k] > 0.0f;
    const float want = (c ? 4.0f : 2.0f) + (c ? xs[k] : 0.0f) + (!c ? 1.5f : xs[k]);
    CHECK((std::memcmp(&zs[k], &want, sizeof want) == 0 || (want != want && zs[k] != zs[k])));
    CHECK(ws[k] == (c ? 7 : -7));
    const double dwant = c ? double{xs[k]} : 0.25;
    CHECK((std::memcmp(&ds[k], &dwant, sizeof dwant) == 0 || (dwant != dwant && ds[k] != ds[k])));
  }
}

TEST_CASE("porting: private arrays of Vec read, assign and index lanes, in either layout") {
  auto& rt = test::runtime();
  auto run = [&]<class L>() {
    KernelBuilder kb("private_vec");
    auto z = kb.param<Global<float>>("z");
    auto x = kb.param<Const<float>>("x");
    auto i = kb.global_index();
    auto t = private_array<Vec<float, 4>, L>(kb, {2, 3});  // MArray{Tuple{2, 3}, Vec4f32}
    auto u = private_array<Vec<float, 3>, L>(kb, {2});
    kb.if_(kb.in_ndrange(), [&] {
      const Val<float> xi = x[i];
      kb.for_(0, 2, [&](Val<std::int64_t> j) {
        kb.for_(0, 3, [&](Val<std::int64_t> r) {
          const auto base = xi + cast<float>(4 * (3 * j + r));
          t(j, r) = make_vec(base, base + 1.0f, base + 2.0f, base + 3.0f);
        });
      });
      t(1, 2)[3] = -xi;  // one lane, as `.w`
      const Val<float> twice = xi * 2.0f;
      u(1) = make_vec(twice, twice, twice);
      u(0) = u(1);
      const Vec<float, 4> a = t(0, 1), b = t(1, 2);
      const Vec<float, 3> c = u(0);
      z[i] = a[0] + a[1] + a[2] + a[3] + b[3] + b[0] + c[2];
    });
    const auto xs = spvjit::test::random_data<float>(50, 6);
    auto X = rt.upload(xs);
    auto Z = rt.zeros<float>(xs.size());
    test::scalar_jit().compile(kb.finish()).launch(NDRange{xs.size()}, Z, X);
    rt.synchronize();
    const auto zs = Z.to_vector();
    for (std::size_t k = 0; k < xs.size(); ++k) {
      CAPTURE(k);
      const float x0 = xs[k], a0 = x0 + 4.0f;  // t(0, 1): base 4 * (3 * 0 + 1)
      const float sum = ((a0 + (a0 + 1.0f)) + (a0 + 2.0f)) + (a0 + 3.0f);
      const float want = sum + -x0 + (x0 + 20.0f) + x0 * 2.0f;  // t(1, 2): base 4 * 5
      CHECK((std::memcmp(&zs[k], &want, sizeof want) == 0 || (want != want && zs[k] != zs[k])));
    }
  };
  run.operator()<RowMajor>();
  run.operator()<ColumnMajor>();
}

TEST_CASE("porting: a private array of Vec checks each index against its own extent") {
  auto& rt = test::runtime();
  KernelBuilder kb("private_vec_bounds");
  auto z = kb.param<Global<float>>("z");
  auto k = kb.param<std::int64_t>("k");
  auto t = private_array<Vec<float, 4>>(kb, {2, 3});
  kb.if_(kb.global_index() == std::int64_t{0}, [&] {
    t(0, k) = Vec<float, 4>::splat(kb.lit(1.0f));  // t(0, 3): inside 24 floats, outside 3
    z[0] = Val<float>(t(0, 0)[0]);
  });
  Kernel kernel = test::scalar_jit().compile(kb.finish());
  auto Z = rt.zeros<float>(1);
  CHECK(bounds_error([&] { kernel.launch(NDRange{1}, Z, std::int64_t{2}); }) == "");
  const std::string message = bounds_error([&] { kernel.launch(NDRange{1}, Z, std::int64_t{3}); });
  CHECK(message.find("out of bounds") != std::string::npos);
  auto three_dimensions = [&] { (void)private_array<Vec<float, 4>>(kb, {2, 3, 4}); };
  CHECK_THROWS_WITH_AS(three_dimensions(), doctest::Contains("an array of Vec has 1 or 2"),
                       UserError);
}

TEST_CASE("porting: private arrays of structs copy whole structs and members, checked") {
  auto& rt = test::runtime();
  KernelBuilder kb("private_structs");
  auto z = kb.param<Global<float>>("z");
  auto atoms = kb.param<Const<Atom>>("atoms");
  auto k = kb.param<std::int64_t>("k");
  auto i = kb.global_index();
  auto held = private_array<Atom>(kb, {2, 2});
  auto poses = private_array<Pose>(kb, {3});
  kb.if_(kb.in_ndrange(), [&] {
    held(0, 1) = atoms[i];
    held(1, 0)[&Atom::x] = atoms[i][&Atom::y] * 2.0f;
    poses(2)[&Pose::anchor] = held(0, 1);
    poses(2)[&Pose::angle][1] = held(1, 0).get(&Atom::x);
    z[i] = poses(2)[&Pose::anchor].get(&Atom::z) + poses(2)[&Pose::angle][1] +
           cast<float>(held(0, 1).get(&Atom::type));
    held(k, 0)[&Atom::y] = 0.0f;  // checked: k < 2
  });
  std::vector<Atom> hs(20);
  for (int a = 0; a < 20; ++a) hs[a] = {0.5f * a, 1.0f + a, 2.0f - a, a % 5};
  auto A = rt.upload(hs);
  auto Z = rt.zeros<float>(hs.size());
  Kernel kernel = test::scalar_jit().compile(kb.finish());
  CHECK(bounds_error([&] { kernel.launch(NDRange{hs.size()}, Z, A, std::int64_t{1}); }) == "");
  const auto zs = Z.to_vector();
  for (std::size_t a = 0; a < hs.size(); ++a) {
    CAPTURE(a);
    CHECK(zs[a] == hs[a].z + hs[a].y * 2.0f + float(hs[a].type));
  }
  const std::string message =
      bounds_error([&] { kernel.launch(NDRange{1}, Z, A, std::int64_t{2}); });
  CHECK(message.find("out of bounds") != std::string::npos);
}

TEST_CASE("porting: for_each walks an array of structs and members() reads one whole") {
  auto& rt = test::runtime();
  KernelBuilder kb("for_each_atoms");
  auto z = kb.param<Global<float>>("z");
  auto ligand = kb.param<Const<Atom>>("ligand");
  auto weights = kb.param<ConstArray<float, 2>>("weights");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto sum = kb.var(0.0f);
    kb.for_each(ligand, [&](auto atom) {  // KA's `for atom in ligand`
      auto [x, y, zz, type] = members(atom);
      sum += x * cast<float>(i) + select(type > 2, zz, y);
    });
    kb.for_each(weights, [&](auto w) { sum += w; });
    z[i] = Val<float>(sum);
  });
  std::vector<Atom> hs(7);
  for (int a = 0; a < 7; ++a) hs[a] = {float(a), 1.0f + a, -2.0f * a, a};
  const std::vector<float> ws = {0.5f, 0.25f, 2.0f, 4.0f, 8.0f, 16.0f};
  auto L = rt.upload(hs);
  auto W = rt.upload(ws);
  auto Z = rt.zeros<float>(5);
  test::scalar_jit().compile(kb.finish()).launch(NDRange{5}, Z, L, shaped(W, {2, 3}));
  rt.synchronize();
  const auto zs = Z.to_vector();
  for (std::size_t e = 0; e < zs.size(); ++e) {
    CAPTURE(e);
    float want = 0.0f;
    for (const Atom& a : hs) want += a.x * float(e) + (a.type > 2 ? a.z : a.y);
    for (float w : ws) want += w;
    CHECK(zs[e] == want);
  }
}

TEST_CASE("porting: a private array of Vec used lane by lane in a short loop is coarsened") {
  // Its memory is scalars: the loop unrolled, each lane a register, nothing left in memory.
  // (Whole-Vec values keep a kernel as written: it computes with vectors already.)
  KernelBuilder kb("private_vec_lanes");
  auto z = kb.param<Global<float>>("z");
  auto x = kb.param<Const<float>>("x");
  auto i = kb.global_index();
  auto t = private_array<Vec<float, 4>>(kb, {3});
  kb.if_(kb.in_ndrange(), [&] {
    kb.for_(0, 3, [&](Val<std::int64_t> j) {
      t(j)[0] = x[i] * cast<float>(j);
      t(j)[3] = x[i] + cast<float>(j);
    });
    z[i] = Val<float>(t(2)[0]) + Val<float>(t(1)[3]);
  });
  const KernelDef def = kb.finish();
  CHECK(test::is_coarsened(test::coarse_jit(), def));
  auto& rt = test::runtime();
  const auto xs = spvjit::test::random_data<float>(37, 7);
  auto X = rt.upload(xs);
  auto Z = rt.zeros<float>(xs.size());
  test::coarse_jit().compile(def).launch(NDRange{xs.size()}, Z, X);
  rt.synchronize();
  const auto zs = Z.to_vector();
  for (std::size_t k = 0; k < xs.size(); ++k) {
    CAPTURE(k);
    const float want = xs[k] * 2.0f + (xs[k] + 1.0f);
    CHECK((std::memcmp(&zs[k], &want, sizeof want) == 0 || (want != want && zs[k] != zs[k])));
  }
}
