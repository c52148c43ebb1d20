// The register-blocked matmul (examples.hpp says how to launch it). Packed, both operands are
// read in order, one pointer each: unpacked, B's rows lay a page apart at N = 1024 (no
// prefetch across pages: the vector load of B took half the loop's time) and the six row
// pointers of A did not fit the general registers beside the loop's own (reloaded from the
// stack every k). The inner loop PoCL compiles: 2 vmovups, 6 vbroadcastss, 12 vfmadd231ps.
#include "spvjit/examples.hpp"

#include <vector>

#include "spvjit/builder.hpp"
#include "spvjit/index.hpp"
#include "spvjit/math.hpp"
#include "spvjit/vector.hpp"

namespace spvjit::examples {

namespace {
constexpr std::int64_t rows = performant_matmul_rows;
constexpr std::int64_t cols = performant_matmul_cols;
constexpr unsigned lanes = 8;
constexpr unsigned per_row = static_cast<unsigned>(cols) / lanes;  // vectors per row of a block
using V = Vec<float, lanes>;
using Acc = VecVar<float, lanes>;

Val<std::int64_t> zero(KernelBuilder& kb) { return kb.lit<std::int64_t>(0); }
Val<std::int64_t> one(KernelBuilder& kb) { return kb.lit<std::int64_t>(1); }
}  // namespace

KernelDef performant_matmul_pack_b() {
  KernelBuilder kb("performant_matmul_pack_b");
  kb.allow_padding();  // every access below is guarded by p and m
  auto packed = kb.param<Global<float>>("Bp");
  auto b = kb.param<Const<float>>("B");
  auto p = kb.param<std::int64_t>("p");
  auto m = kb.param<std::int64_t>("m");
  const auto global = global_indices<2>(kb);
  const Val<std::int64_t> k = global[0], panel = global[1];
  kb.if_(k < p && panel * cols < m, [&] {
    const auto from = k * m + panel * cols;
    const auto to = (panel * p + k) * cols;
    kb.if_else(
        panel * cols + cols <= m,
        [&] {
          for (unsigned v = 0; v < per_row; ++v)
            vstore(packed, to + v * lanes, vload<lanes>(b, from + v * lanes));
        },
        [&] {
          // The last panel: the columns past m are zeros, so the product's padding lanes are too.
          kb.for_(zero(kb), kb.lit(cols), one(kb), [&](Val<std::int64_t> c) {
            packed[to + c] = kb.ternary(
                panel * cols + c < m, [&] { return b[from + c]; }, [] { return 0.0f; });
          });
        });
  });
  return kb.finish();
}

KernelDef performant_matmul_pack_a() {
  KernelBuilder kb("performant_matmul_pack_a");
  kb.allow_padding();  // every access below is guarded by n and p
  auto packed = kb.param<Global<float>>("Ap");
  auto a = kb.param<Const<float>>("A");
  auto n = kb.param<std::int64_t>("n");
  auto p = kb.param<std::int64_t>("p");
  const auto global = global_indices<2>(kb);
  const Val<std::int64_t> k = global[0], panel = global[1];
  kb.if_(k < p && panel * rows < n, [&] {
    const auto to = (panel * p + k) * rows;
    for (std::int64_t r = 0; r < rows; ++r) {
      const auto i = panel * rows + r;
      // The last panel: the rows past n are zeros.
      packed[to + r] = kb.ternary(
          i < n, [&] { return a[i * p + k]; }, [] { return 0.0f; });
    }
  });
  return kb.finish();
}

KernelDef performant_matmul() {
  KernelBuilder kb("performant_matmul");
  kb.allow_padding();  // every access below is guarded by n, p and m
  // A work-item computes a 6 x 16 block of C over all p terms: 96 p multiply-adds, against one
  // for a saxpy index. Counted as 1024 indices (p = 11 and up), a product of 512 x 512 (2752
  // work-items) runs split over the cores instead of inline on one.
  kb.work_per_item(1024);
  auto c = kb.param<Global<float>>("C");
  auto a = kb.param<Const<float>>("Ap");
  auto packed = kb.param<Const<float>>("Bp");
  auto n = kb.param<std::int64_t>("n");
  auto p = kb.param<std::int64_t>("p");
  auto m = kb.param<std::int64_t>("m");
  const auto global = global_indices<2>(kb);  // not a structured binding: clang 15 lambdas
  const Val<std::int64_t> i0 = global[0] * rows, panel = global[1], j0 = panel * cols;
  kb.if_(i0 < n && j0 < m, [&] {
    const auto a_panel = global[0] * p * rows;
    const auto b_panel = panel * p * cols;
    std::vector<Acc> acc;
    for (unsigned x = 0; x < rows * per_row; ++x)
      acc.push_back(vec_var(kb, V::splat(kb.lit(0.0f))));
    kb.for_(zero(kb), p, one(kb), [&](Val<std::int64_t> k) {
      V bk[per_row];
      for (unsigned v = 0; v < per_row; ++v)
        bk[v] = vload<lanes>(packed, b_panel + k * cols + v * lanes);
      for (std::int64_t r = 0; r < rows; ++r) {
        const V ar = V::splat(Val<float>(a[a_panel + k * rows + r]));
        for (unsigned v = 0; v < per_row; ++v) {
          const Acc& x = acc[r * per_row + v];
          x = mul_add(ar, bk[v], x.get());
        }
      }
    });
    for (std::int64_t r = 0; r < rows; ++r) {
      kb.if_(i0 + r < n, [&] {
        const auto out = (i0 + r) * m + j0;
        kb.if_else(
            j0 + cols <= m,
            [&] {
              for (unsigned v = 0; v < per_row; ++v)
                vstore(c, out + v * lanes, acc[r * per_row + v].get());
            },
            [&] {
              // The last panel: only the columns inside C.
              for (unsigned x = 0; x < cols; ++x) {
                kb.if_(j0 + x < m,
                       [&] { c[out + x] = acc[r * per_row + x / lanes].get()[x % lanes]; });
              }
            });
      });
    }
  });
  return kb.finish();
}

}  // namespace spvjit::examples
