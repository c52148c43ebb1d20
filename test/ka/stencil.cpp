// A 5-point Jacobi stencil in KernelAbstractions' style, ported line for line: a 2-d index,
// the array's own size, an interior check, a static 16 x 16 workgroup over an ndrange it need
// not divide; several sweeps against the C++ reference.
//
// KernelAbstractions.jl (commit 9bf8fd59) has no stencil example to quote. The Julia below is
// a KA-style sketch written for this test, not a quotation:
/*
@kernel function jacobi_step!(unew, @Const(u))
    i, j = @index(Global, NTuple)
    n, m = size(u)
    if 1 < i < n && 1 < j < m
        unew[i, j] = (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]) / 4
    else
        unew[i, j] = u[i, j]
    end
end

kernel! = jacobi_step!(backend, (16, 16))
for _ in 1:iterations
    kernel!(unew, u, ndrange = size(u))
    u, unew = unew, u
end
*/
// Indices are 0-based: `1 < i < n` (i is KA's i) is `0 < i && i < n - 1`.
#include <doctest/doctest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

KernelDef jacobi_step() {
  KernelBuilder kb("jacobi_step");
  auto unew = kb.param<GlobalArray<float, 2, ColumnMajor>>("unew");
  auto u = kb.param<ConstArray<float, 2, ColumnMajor>>("u");  // @Const(u)
  auto [i, j] = global_indices<2>(kb);                        // @index(Global, NTuple)
  auto n = size(u, 0), m = size(u, 1);                        // n, m = size(u)
  // A @kernel skips the work-items a padded ndrange adds: in_ndrange() says so here.
  kb.if_(kb.in_ndrange(), [&] {
    kb.if_else(
        0 < i && i < n - 1 && 0 < j && j < m - 1,  // 1 < i < n && 1 < j < m
        [&] { unew(i, j) = (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1)) / 4.0f; },
        [&] { unew(i, j) = u(i, j); });
  });
  return kb.finish();
}

std::vector<float> reference_step(const std::vector<float>& u, std::size_t n, std::size_t m) {
  std::vector<float> unew(u.size());
  for (std::size_t j = 0; j < m; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = i + j * n;
      unew[at] = (0 < i && i < n - 1 && 0 < j && j < m - 1)
                     ? (u[at - 1] + u[at + 1] + u[at - n] + u[at + n]) / 4.0f
                     : u[at];
    }
  return unew;
}

}  // namespace

TEST_CASE("KA-style 5-point Jacobi stencil: interior check, padded ndrange, several sweeps") {
  auto& rt = test::runtime();
  // jacobi_step!(backend, (16, 16)): a static workgroup.
  Kernel kernel = test::compile_checked(jacobi_step(), test::static_workgroup(WorkGroup{16, 16}));
  constexpr int iterations = 5;
  for (auto [n, m] : {std::pair<std::size_t, std::size_t>{32, 32}, {37, 23}, {3, 50}}) {
    CAPTURE(n);
    CAPTURE(m);
    // Integers 0..7 averaged 5 times: quarters of quarters, exact in float whatever the order.
    std::vector<float> host(n * m);
    for (std::size_t k = 0; k < host.size(); ++k) host[k] = static_cast<float>((k * 5 + k / 7) % 8);
    auto u = rt.upload(host);
    auto unew = rt.zeros<float>(n * m);
    for (int it = 0; it < iterations; ++it) {
      kernel.launch(NDRange{n, m}, shaped(unew, {n, m}), shaped(u, {n, m}));
      std::swap(u, unew);  // u, unew = unew, u
      host = reference_step(host, n, m);
    }
    rt.synchronize();
    CHECK(u.to_vector() == host);
  }
}
