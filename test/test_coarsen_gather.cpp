// Coarsening kernels that read and write memory at indices other than get_global_id(0) plus a
// uniform value: a structure's fields (x[4 * i + c], z[3 * i + c]), a table lookup (y[(7 * i) %
// n]) — one element per lane, under lane masks too — each compared byte for byte with the scalar
// kernel's output, and a strided index outside its buffer raising the scalar kernel's
// BoundsError. Each kernel also runs a loop every work-item runs alike (a sum over Y): coarsening
// takes per-lane accesses only where such a loop pays for them; without one the kernel is left
// as written.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "spvjit/spvjit.hpp"
#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

// Z (nz elements, written), X, Y (read) and n; `body` gets the builder, the three arrays, n,
// global_index(0) and the sum over Y of a loop every work-item runs alike (0 `without_loop`).
template <class T, class Body>
KernelDef kernel(const std::string& name, Body body, bool without_loop = false) {
  KernelBuilder kb(name + "_" + std::string(spvjit::name(scalar_of<T>)));
  auto z = kb.param<Global<T>>("Z");
  auto x = kb.param<Const<T>>("X");
  auto y = kb.param<Const<T>>("Y");
  auto n = kb.param<std::int64_t>("n");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto sum = kb.var(T(0));
    if (!without_loop) {
      kb.for_(0, n, [&](Val<std::int64_t> k) { sum = sum.get() + Val<T>(y[k]); });
    }
    body(kb, z, x, y, n, i, sum.get());
  });
  return kb.finish();
}

// Runs `def` over n work-items with both Jits on the same inputs (X: nx, Y: ny elements) and
// compares every byte of Z (nz elements, random before the launch: what no lane writes must
// stay).
template <class T>
void compare(const KernelDef& def, std::size_t n, std::size_t nx, std::size_t ny, std::size_t nz,
             Jit& coarse) {
  auto& rt = test::runtime();
  const auto x = spvjit::test::random_data<T>(nx, 1), y = spvjit::test::random_data<T>(ny, 2),
             z = spvjit::test::random_data<T>(nz, 3);
  std::vector<T> outputs[2];
  Jit* jits[2] = {&scalar_jit(), &coarse};
  for (int k = 0; k < 2; ++k) {
    auto X = rt.upload(x), Y = rt.upload(y), Z = rt.upload(z);
    jits[k]->compile(def).launch(NDRange{n}, Z, X, Y, static_cast<std::int64_t>(n));
    rt.synchronize();
    outputs[k] = Z.to_vector();
  }
  CAPTURE(def.name());
  CAPTURE(n);
  check_same_bits(outputs[0], outputs[1]);
}

// Structure-of-arrays fields: four in, three out.
template <class T>
KernelDef fields_kernel() {
  return kernel<T>("gather_fields",
                   [](KernelBuilder&, auto z, auto x, auto y, auto, auto i, Val<T> sum) {
                     Val<T> a = x[4 * i], b = x[4 * i + 1], c = x[4 * i + 2], d = x[4 * i + 3];
                     z[3 * i] = a + Val<T>(y[i]) + sum;
                     z[3 * i + 1] = b * c;
                     z[3 * i + 2] = d - a;
                   });
}

// A table lookup and a scatter, both under a data-dependent branch.
template <class T>
KernelDef masked_kernel() {
  return kernel<T>(
      "gather_masked", [](KernelBuilder& kb, auto z, auto x, auto y, auto n, auto i, Val<T> sum) {
        Val<T> xi = x[i];
        kb.if_(xi > Val<T>(y[i]), [&] { z[2 * i + 1] = Val<T>(y[(7 * i) % n]) - xi + sum; });
      });
}

template <class T>
void fields_and_masks() {
  const std::string type(name(scalar_of<T>));
  CAPTURE(type);
  const KernelDef fields = fields_kernel<T>(), masked = masked_kernel<T>();
  for (unsigned width : {0u, 4u, 8u}) {
    CAPTURE(width);
    CHECK(is_coarsened(coarse_jit(width), fields));
    CHECK(is_coarsened(coarse_jit(width), masked));
    for (std::size_t n : {std::size_t{1}, std::size_t{37}, std::size_t{1029}}) {
      compare<T>(fields, n, 4 * n, n, 3 * n, coarse_jit(width));
      compare<T>(masked, n, n, n, 2 * n, coarse_jit(width));
    }
  }
}

}  // namespace

TEST_CASE("coarsened gathers and scatters (fields, lookups, under masks) are bit-identical") {
  fields_and_masks<float>();
  fields_and_masks<double>();
  fields_and_masks<std::int32_t>();
  fields_and_masks<std::int8_t>();
}

TEST_CASE("per-lane accesses without a loop to pay for them leave the kernel as written") {
  const KernelDef def = kernel<float>(
      "gather_loopless",
      [](KernelBuilder&, auto z, auto x, auto, auto, auto i, Val<float>) {
        z[3 * i + 1] = Val<float>(x[4 * i + 2]);
      },
      /*without_loop=*/true);
  CHECK_FALSE(is_coarsened(coarse_jit(), def));
  compare<float>(def, 37, 4 * 37, 37, 3 * 37, coarse_jit());
  // The kernel qualifies, coarsening it would not pay: declared elementwise(), it still compiles.
  KernelBuilder kb("gather_loopless_declared");
  auto z = kb.param<Global<float>>("Z");
  auto x = kb.param<Const<float>>("X");
  kb.elementwise();
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[3 * i + 1] = Val<float>(x[4 * i + 2]); });
  const KernelDef declared = kb.finish();
  CHECK_NOTHROW((void)coarse_jit().compile(declared));
  CHECK_FALSE(is_coarsened(coarse_jit(), declared));
}

TEST_CASE("a coarsened strided index outside its buffer raises the scalar kernel's BoundsError") {
  // x[2 * i] for n work-items over 2 n - 2 elements: the last work-item alone reads outside (with
  // several failing work-items, which one reports first would depend on the threads' order).
  const KernelDef def =
      kernel<float>("gather_outside", [](KernelBuilder&, auto z, auto x, auto, auto, auto i,
                                         Val<float> sum) { z[i] = Val<float>(x[2 * i]) + sum; });
  REQUIRE(is_coarsened(coarse_jit(), def));
  auto& rt = test::runtime();
  for (std::size_t n : {std::size_t{40}, std::size_t{1029}}) {
    CAPTURE(n);
    std::string messages[2];
    Jit* jits[2] = {&scalar_jit(), &coarse_jit()};
    for (int k = 0; k < 2; ++k) {
      auto X = rt.upload(spvjit::test::random_data<float>(2 * n - 2, 4)),
           Y = rt.upload(spvjit::test::random_data<float>(n, 5));
      auto Z = rt.upload(spvjit::test::random_data<float>(n, 6));
      try {
        jits[k]->compile(def).launch(NDRange{n}, Z, X, Y, static_cast<std::int64_t>(n));
        rt.synchronize();
      } catch (const BoundsError& e) {
        messages[k] = e.what();
      }
    }
    CHECK(!messages[0].empty());
    CHECK(messages[1] == messages[0]);
  }
}
