// The stencils beside heat2d/heat3d (issue #65): the shapes KernelAbstractions users write most
// after the 5-point and 7-point steps, each as such a user writes it (the interior test around
// the formula, every access checked), for the benchmark suite's apps/* cases and their tests.
// The arithmetic is written in one fixed order (include/spvjit/examples.hpp gives it), so a C++
// loop in the same order computes the same bits.
#include <array>
#include <optional>

#include "spvjit/builder.hpp"
#include "spvjit/examples.hpp"
#include "spvjit/index.hpp"
#include "spvjit/memory.hpp"

namespace spvjit::examples {

KernelDef stencil9_2d_step() {
  KernelBuilder kb("stencil9_2d_step");
  kb.allow_padding();  // the interior check guards every access
  auto unew = kb.param<GlobalArray<float, 2, ColumnMajor>>("unew");
  auto u = kb.param<ConstArray<float, 2, ColumnMajor>>("u");
  auto centre = kb.param<float>("centre");
  auto edge = kb.param<float>("edge");
  auto corner = kb.param<float>("corner");
  auto [i, j] = global_indices<2>(kb);
  auto n = size(u, 0), m = size(u, 1);
  kb.if_(0 < i && i < n - 1 && 0 < j && j < m - 1, [&, i = i, j = j] {
    auto edges = u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1);
    auto corners = u(i - 1, j - 1) + u(i + 1, j - 1) + u(i - 1, j + 1) + u(i + 1, j + 1);
    unew(i, j) = centre * u(i, j) + edge * edges + corner * corners;
  });
  return kb.finish();
}

KernelDef stencil27_3d_step() {
  KernelBuilder kb("stencil27_3d_step");
  kb.allow_padding();  // the interior check guards every access
  auto unew = kb.param<GlobalArray<float, 3, ColumnMajor>>("unew");
  auto u = kb.param<ConstArray<float, 3, ColumnMajor>>("u");
  // The weight of the neighbours at each distance: 0 (the cell), 1 (faces), 2 (edges), 3
  // (corners), in the order examples.hpp gives.
  const std::array<Val<float>, 4> weight = {kb.param<float>("centre"), kb.param<float>("face"),
                                            kb.param<float>("edge"), kb.param<float>("corner")};
  auto [i, j, k] = global_indices<3>(kb);
  auto n = size(u, 0), m = size(u, 1), p = size(u, 2);
  kb.if_(0 < i && i < n - 1 && 0 < j && j < m - 1 && 0 < k && k < p - 1, [&, i = i, j = j, k = k] {
    // Each distance's neighbours summed in memory order: k outermost, i innermost.
    std::array<std::optional<Val<float>>, 4> sums;
    for (int dk = -1; dk <= 1; ++dk) {
      for (int dj = -1; dj <= 1; ++dj) {
        for (int di = -1; di <= 1; ++di) {
          Val<float> value = u(i + di, j + dj, k + dk);
          auto& sum = sums[(di != 0) + (dj != 0) + (dk != 0)];
          sum = sum ? *sum + value : value;
        }
      }
    }
    unew(i, j, k) =
        weight[0] * *sums[0] + weight[1] * *sums[1] + weight[2] * *sums[2] + weight[3] * *sums[3];
  });
  return kb.finish();
}

KernelDef upwind1d_step() {
  KernelBuilder kb("upwind1d_step");
  kb.allow_padding();  // the interior check guards every access
  auto unew = kb.param<Global<float>>("unew");
  auto u = kb.param<Const<float>>("u");
  auto v = kb.param<Const<float>>("v");
  auto courant = kb.param<float>("c");
  auto i = kb.global_index();
  auto n = length(u);
  kb.if_(0 < i && i < n - 1, [&] {
    auto vi = v[i];
    // The side the flow comes from: a branch on the data, lanes of one vector taking both.
    auto flux = kb.ternary(
        vi > 0.0f, [&] { return vi * (u[i] - u[i - 1]); }, [&] { return vi * (u[i + 1] - u[i]); });
    unew[i] = u[i] - courant * flux;
  });
  return kb.finish();
}

KernelDef heat2d_row_major_step() {
  KernelBuilder kb("heat2d_row_major_step");
  kb.allow_padding();  // the interior check guards every access
  auto unew = kb.param<GlobalArray<float, 2, RowMajor>>("unew");
  auto u = kb.param<ConstArray<float, 2, RowMajor>>("u");
  auto alpha = kb.param<float>("alpha");
  // OpenCL C's habit: dimension 0 walks the rows, dimension 1 the contiguous columns.
  auto [row, col] = global_indices<2>(kb);
  auto rows = size(u, 0), cols = size(u, 1);
  kb.if_(0 < row && row < rows - 1 && 0 < col && col < cols - 1, [&, row = row, col = col] {
    unew(row, col) = u(row, col) + alpha * (u(row, col - 1) + u(row, col + 1) + u(row - 1, col) +
                                            u(row + 1, col) - 4.0f * u(row, col));
  });
  return kb.finish();
}

KernelDef rows_damping_step() {
  KernelBuilder kb("rows_damping_step");
  auto unew = kb.param<GlobalArray<float, 2, RowMajor>>("unew");
  auto u = kb.param<ConstArray<float, 2, RowMajor>>("u");
  auto terms = kb.param<std::int64_t>("terms");
  auto [row, col] = global_indices<2>(kb);
  kb.if_(kb.in_ndrange(), [&, row = row, col = col] {
    auto w = kb.var(0.5f + 0.001f * cast<float>(row + col));
    kb.for_(kb.lit<std::int64_t>(0), terms, kb.lit<std::int64_t>(1),
            [&](Val<std::int64_t>) { w = w.get() * 0.75f + 0.03125f; });
    unew(row, col) = u(row, col) * w.get() + 0.0625f;
  });
  return kb.finish();
}

}  // namespace spvjit::examples
