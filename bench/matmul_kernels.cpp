#include "bench/matmul_kernels.hpp"

#include "spvjit/spvjit.hpp"

namespace spvjit::bench {

KernelDef naive_matmul_kernel() {
  KernelBuilder kb("naive_matmul");
  auto c = kb.param<Global<float>>("C");
  auto a = kb.param<Const<float>>("A");
  auto b = kb.param<Const<float>>("B");
  auto n = kb.param<std::int64_t>("n");
  auto p = kb.param<std::int64_t>("p");
  auto m = kb.param<std::int64_t>("m");
  auto [col, row] = global_indices<2>(kb);
  auto A = view(a, n, p);
  auto B = view(b, p, m);
  auto C = view(c, n, m);
  kb.if_(kb.in_bounds(), [&] {
    auto acc = kb.var(0.0f);
    kb.for_(kb.lit<std::int64_t>(0), p, kb.lit<std::int64_t>(1),
            [&](Val<std::int64_t> k) { acc += A(row, k) * B(k, col); });
    C(row, col) = acc.get();
  });
  return kb.finish();
}

KernelDef tiled_matmul_kernel() {
  constexpr std::int64_t tile = static_cast<std::int64_t>(matmul_tile);
  KernelBuilder kb("tiled_matmul");
  auto c = kb.param<Global<float>>("C");
  auto a = kb.param<Const<float>>("A");
  auto b = kb.param<Const<float>>("B");
  auto n = kb.param<std::int64_t>("n");
  auto p = kb.param<std::int64_t>("p");
  auto m = kb.param<std::int64_t>("m");
  auto [tx, ty] = local_indices<2>(kb);
  auto [col, row] = global_indices<2>(kb);
  auto A = view(a, n, p);
  auto B = view(b, p, m);
  auto C = view(c, n, m);
  auto As = local_array<float>(kb, {tile, tile}, "As");
  auto Bs = local_array<float>(kb, {tile, tile}, "Bs");
  auto acc = kb.var(0.0f);
  auto tiles = (p + (tile - 1)) / tile;
  kb.for_(kb.lit<std::int64_t>(0), tiles, kb.lit<std::int64_t>(1), [&](Val<std::int64_t> t) {
    auto ak = t * tile + tx;
    auto bk = t * tile + ty;
    auto av = kb.var(0.0f), bv = kb.var(0.0f);
    kb.if_(row < n && ak < p, [&] { av = A(row, ak); });
    kb.if_(bk < p && col < m, [&] { bv = B(bk, col); });
    As(ty, tx) = av.get();
    Bs(ty, tx) = bv.get();
    barrier(kb, Fence::Local);
    kb.for_(kb.lit<std::int64_t>(0), kb.lit(tile), kb.lit<std::int64_t>(1),
            [&](Val<std::int64_t> k) { acc += As(ty, k) * Bs(k, tx); });
    barrier(kb, Fence::Local);
  });
  kb.if_(row < n && col < m, [&] { C(row, col) = acc.get(); });
  return kb.finish();
}

}  // namespace spvjit::bench
