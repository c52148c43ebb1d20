// Ready-made kernels: the ones the benchmark suite, the tests and the CLI share.
#pragma once

#include <cstddef>
#include <cstdint>

#include "spvjit/kernel_def.hpp"
#include "spvjit/ndrange.hpp"
#include "spvjit/types.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit::examples {

/// Z[i] = a * X[i] + Y[i] over the ndrange, for element type f16 (float arithmetic), f32 or
/// f64. Parameters: Z, X (const), Y (const), a (f32 for f16, else the element type).
KernelDef saxpy(Scalar element);

/// saxpy written with vectors by hand: each work-item computes `lanes` consecutive elements as
/// one Vec (2, 4, 8 or 16 lanes), and the last work-item the tail one element at a time. Launch
/// over ceil(n / lanes) work-items. Parameters: Z, X (const), Y (const), a, n (i64).
KernelDef saxpy_vector(Scalar element, unsigned lanes);

/// A[i] = 2 * B[i]: KernelAbstractions' launch-benchmark kernel. 1D, or 3D over a row-major
/// (x fastest) array when `dims` is 3. Parameters: A, B (const).
KernelDef scale(Scalar element, unsigned dims = 1);

/// C (n x m) = A (n x p) * B (p x m), row-major f32, one work-item per element of C (launch
/// over NDRange{m, n}); element-wise in dimension 0, so the Jit coarsens it on a CPU.
/// Parameters: C, A (const), B (const), n, p, m (i64).
KernelDef naive_matmul();

/// C (n x m) = A (n x p) * B (p x m), row-major f32, with tile x tile blocks of A and B staged
/// in local memory between barriers (KernelAbstractions' tiled matmul example). Launch over
/// NDRange{m, n}, specialized with the static workgroup WorkGroup{tile, tile}. Parameters: C,
/// A (const), B (const), n, p, m (i64).
KernelDef tiled_matmul(std::int64_t tile = 16);

/// The rows and columns of C one work-item of performant_matmul computes.
inline constexpr std::int64_t performant_matmul_rows = 6;
inline constexpr std::int64_t performant_matmul_cols = 16;

/// C (n x m) = A (n x p) * B (p x m), row-major f32, register-blocked for CPUs, in three
/// launches per product (the packing ones O(n p + p m), the product O(n p m)):
///   pack_a.launch(performant_matmul_pack_a_range(n, p), Ap, A, n, p);
///   pack_b.launch(performant_matmul_pack_b_range(p, m), Bp, B, p, m);
///   matmul.launch(performant_matmul_range(n, m), C, Ap, Bp, n, p, m);
/// Ap (performant_matmul_packed_a_size(n, p) floats) holds A in panels of 6 rows, each p x 6
/// with k outermost; Bp (performant_matmul_packed_b_size(p, m) floats) holds B in panels of 16
/// columns, each p x 16; both zero past A's and B's edges. So one work-item reads both of its
/// operands in order: per k, 6 broadcasts of A and 2 vector loads of B for the 6 x 16 block of
/// C it keeps in twelve 8-lane accumulators (AVX2's 16 ymm registers: 12 + 2 + 1). Every
/// element of C is the chain c = mul_add(A(i, k), B(k, j), c) over k = 0 .. p-1 from 0: where
/// the device fuses mul_add (PoCL on x86-64 with FMA does), what std::fma in a k loop gives.
/// Blocks that overhang C's edges compute the same chains and store only the elements inside
/// C. Any n, p, m >= 1. Parameters: C, Ap (const), Bp (const), n, p, m (i64).
KernelDef performant_matmul();

/// performant_matmul's packing of A (n x p, row-major) into Ap. Parameters: Ap, A (const), n,
/// p (i64).
KernelDef performant_matmul_pack_a();

/// performant_matmul's packing of B (p x m, row-major) into Bp. Parameters: Bp, B (const), p,
/// m (i64).
KernelDef performant_matmul_pack_b();

/// The floats of performant_matmul's packed A: n rounded up to a whole panel, times p.
inline std::size_t performant_matmul_packed_a_size(std::size_t n, std::size_t p) {
  const auto rows = static_cast<std::size_t>(performant_matmul_rows);
  return (n + rows - 1) / rows * rows * p;
}

/// The floats of performant_matmul's packed B: m rounded up to a whole panel, times p.
inline std::size_t performant_matmul_packed_b_size(std::size_t p, std::size_t m) {
  const auto cols = static_cast<std::size_t>(performant_matmul_cols);
  return (m + cols - 1) / cols * cols * p;
}

/// performant_matmul's launch for an n x m C: one work-item per block, blocks of rows in
/// dimension 0 (work-items in a row share one panel of B), panels in dimension 1.
inline NDRange performant_matmul_range(std::size_t n, std::size_t m) {
  const auto rows = static_cast<std::size_t>(performant_matmul_rows);
  const auto cols = static_cast<std::size_t>(performant_matmul_cols);
  return NDRange{(n + rows - 1) / rows, (m + cols - 1) / cols};
}

/// performant_matmul_pack_a's launch: one work-item per k of a panel.
inline NDRange performant_matmul_pack_a_range(std::size_t n, std::size_t p) {
  const auto rows = static_cast<std::size_t>(performant_matmul_rows);
  return NDRange{p, (n + rows - 1) / rows};
}

/// performant_matmul_pack_b's launch: one work-item per k of a panel.
inline NDRange performant_matmul_pack_b_range(std::size_t p, std::size_t m) {
  const auto cols = static_cast<std::size_t>(performant_matmul_cols);
  return NDRange{p, (m + cols - 1) / cols};
}

/// One explicit step of 2D heat diffusion, written as a KernelAbstractions user writes it: a
/// 5-point stencil over column-major n x m grids (dimension 0 = i contiguous, as in Julia),
/// unew(i, j) = u(i, j) + alpha * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - 4 u(i, j))
/// on interior cells only; boundary cells of unew are left as they are (give both grids the
/// same boundary). The interior check guards every access, so padded ndranges are allowed.
/// Launch over NDRange{n, m}. Parameters: unew (GlobalArray<float, 2, ColumnMajor>), u
/// (ConstArray<float, 2, ColumnMajor>), alpha (f32): `launch(NDRange{n, m}, shaped(unew, {n,
/// m}), shaped(u, {n, m}), alpha)`. Stable for alpha <= 1/4.
KernelDef heat2d_step();

/// The 3D variant of heat2d_step: a 7-point stencil over column-major n x m x p grids,
/// `... + u(i, j, k-1) + u(i, j, k+1) - 6 u(i, j, k)`, interior cells only. Launch over
/// NDRange{n, m, p} with shaped(unew, {n, m, p}), shaped(u, {n, m, p}), alpha. Stable for
/// alpha <= 1/6.
KernelDef heat3d_step();

/// A 9-point stencil step over column-major n x m grids, interior cells only (boundary cells of
/// unew are left as they are): unew(i, j) = centre * u(i, j) + edge * (u(i-1, j) + u(i+1, j) +
/// u(i, j-1) + u(i, j+1)) + corner * (u(i-1, j-1) + u(i+1, j-1) + u(i-1, j+1) + u(i+1, j+1)),
/// each sum and product rounded in that order. Launch over NDRange{n, m}. Parameters: unew
/// (GlobalArray<float, 2, ColumnMajor>), u (ConstArray<float, 2, ColumnMajor>), centre, edge,
/// corner (f32).
KernelDef stencil9_2d_step();

/// A 27-point stencil step over column-major n x m x p grids, interior cells only: unew(i, j,
/// k) = centre * s0 + face * s1 + edge * s2 + corner * s3, where s_d sums the neighbours (i+a,
/// j+b, k+c), a, b, c in {-1, 0, 1}, with d of a, b, c nonzero, in the order c, then b, then a
/// from -1 to 1 (c outermost). Launch over NDRange{n, m, p}. Parameters: unew
/// (GlobalArray<float, 3, ColumnMajor>), u (ConstArray<float, 3, ColumnMajor>), centre, face,
/// edge, corner (f32).
KernelDef stencil27_3d_step();

/// A first-order upwind step of 1D advection with a velocity per cell, a branch on the data:
/// for 0 < i < n - 1 (n = the elements passed for u), unew[i] = u[i] - c * flux with flux =
/// v[i] * (u[i] - u[i-1]) where v[i] > 0, else v[i] * (u[i+1] - u[i]); unew[0] and unew[n-1]
/// are left as they are. Launch over NDRange{n}. Parameters: unew (Global<float>), u, v
/// (Const<float>), c (f32, the Courant number dt / dx).
KernelDef upwind1d_step();

/// heat2d_step as OpenCL C codes often write it: row-major rows x cols grids (element row * cols
/// + col), dimension 0 of the launch walking the rows and dimension 1 the contiguous columns.
/// unew(r, c) = u(r, c) + alpha * (u(r, c-1) + u(r, c+1) + u(r-1, c) + u(r+1, c) - 4 u(r, c))
/// on interior cells. Launch over NDRange{rows, cols}. Parameters: unew (GlobalArray<float, 2,
/// RowMajor>), u (ConstArray<float, 2, RowMajor>), alpha (f32): `launch(NDRange{rows, cols},
/// shaped(unew, {rows, cols}), shaped(u, {rows, cols}), alpha)`.
KernelDef heat2d_row_major_step();

/// A row-major step with a loop of arithmetic per cell, dimension 0 of the launch walking the
/// rows (OpenCL C's habit) as in heat2d_row_major_step: w = 0.5 + 0.001 (r + c), then `terms`
/// times w = 0.75 w + 0.03125, and unew(r, c) = u(r, c) w + 0.0625 on every cell. Its dimension
/// 0 can be coarsened (one element per lane, the loop paying for them) and so can dimension 1
/// (contiguous): the plan chosen by cost takes dimension 1, the order dimension 0 (issue #65,
/// step 2). Launch over NDRange{rows, cols}. Parameters: unew (GlobalArray<float, 2,
/// RowMajor>), u (ConstArray<float, 2, RowMajor>), terms (i64).
KernelDef rows_damping_step();

/// WaterLily.jl's Poisson matrix-vector product, the kernel of `mult!` (src/Poisson.jl), as
/// WaterLily's `@loop` macro generates it for KernelAbstractions: z(I) = x(I) D(I) + sum over
/// d of (x(I - e_d) L(I, d) + x(I + e_d) L(I + e_d, d)) in 2D, float, column-major n x m fields
/// (dimension 0 contiguous, as in Julia); L holds the two face coefficients per cell (n x m x
/// 2). The work-item at (gi, gj) computes cell (gi + i0, gj + j0): launch over the range's size
/// with its first cell as (i0, j0), e.g. WaterLily's `inside(z)`: NDRange{n - 2, m - 2}, i0 =
/// j0 = 1. Cells outside the range are left as they are. Unchecked (WaterLily's `@inbounds`):
/// the range and its neighbours must lie inside the fields. KernelAbstractions' skip of padding
/// work-items is kept (in_ndrange()), so a static workgroup such as WaterLily's WorkGroup{64, 1}
/// need not divide the range. Parameters: z, L, D, x (GlobalArray<float, 2 or 3, ColumnMajor>),
/// i0, j0 (i64): `launch(NDRange{n - 2, m - 2}, shaped(z, {n, m}), shaped(L, {n, m, 2}),
/// shaped(D, {n, m}), shaped(x, {n, m}), std::int64_t{1}, std::int64_t{1})`.
KernelDef waterlily_mult();

/// A kernel of `statements` straight-line statements `acc = acc + x[i] * c` (a load, a
/// multiply and an add each, every load checked), then z[i] = acc behind in_ndrange(): how a
/// kernel's compile cost grows with its size (issue #34). z[i] = statements * x[i] * c up to
/// rounding (exact when x[i] * c is a small integer). Named "statements_<n>". Parameters: z,
/// x (const), c (f32).
KernelDef straight_line(std::size_t statements);

/// The STREAM kernels on f64 as a KernelAbstractions user writes them (KA's `@index(Global)`
/// unguarded: the workgroup must divide the ndrange; bounds checks as the Jit compiles them):
/// copy c[i] = a[i] (parameters c, a), scale b[i] = s * c[i] (b, c, s), add c[i] = a[i] + b[i]
/// (c, a, b), triad a[i] = b[i] + s * c[i] (a, b, c, s); the read-only arrays are Const.
KernelDef stream_copy();
KernelDef stream_scale();
KernelDef stream_add();
KernelDef stream_triad();

/// STREAM's dot product as KA users write it: each work-group of `group` work-items (a power
/// of two, compiled with the static WorkGroup{group}) sums a[i] * b[i] over its elements by a
/// tree reduction in local memory with a barrier per level, and work-item 0 writes the sum to
/// partial[group_index]; the host adds the partials. Launch over n (a multiple of `group`).
/// Parameters: partial, a (const), b (const). Named "stream_dot<group>".
KernelDef stream_dot(std::int64_t group = 1024);

/// The other common shape of a KA reduction, the grid-stride dot: launched over a fixed number
/// of work-groups of `group` work-items (a power of two, static WorkGroup{group}), whatever n
/// is; each work-item sums a[j] * b[j] for j = its global index, + ndrange(0), + 2 ndrange(0), ...
/// below n, then the group reduces the sums as stream_dot does and work-item 0 writes
/// partial[group_index]. Parameters: partial, a (const), b (const), n (int64). Named
/// "stream_dot_grid_stride<group>".
KernelDef stream_dot_grid_stride(std::int64_t group = 1024);

/// The grid-stride sum of one array, as stream_dot_grid_stride is the dot: each work-item sums
/// a[j] for j = its global index, + ndrange(0), ... below n, then its group's tree. Parameters:
/// partial, a (const), n (int64). Named "stream_sum_grid_stride<group>".
KernelDef stream_sum_grid_stride(std::int64_t group = 1024);

/// STREAM's triad a[j] = b[j] + s * c[j] written grid-stride, the element-wise kernel of CUDA
/// and OpenCL codes launched over a fixed number of work-items: each work-item does j = its
/// global index, + ndrange(0), ... below n. No barrier, any workgroup. Parameters: a, b (const),
/// c (const), s (f64), n (int64). Named "stream_triad_grid_stride".
KernelDef stream_triad_grid_stride();

/// KA's `mapreduce(abs2, +, A; dims = 1)` of a column-major rows x columns array as KA's GPU
/// backends run it: one work-group of `group` work-items (a power of two, static
/// WorkGroup{group}) per column, each work-item summing a[i, column]^2 for i = its local index,
/// + group, ... below rows, then the group's tree as stream_dot's; work-item 0 writes
/// out[column]. Launch over columns * group. Parameters: out, a (const), rows (int64). Named
/// "sum_squares_columns<group>".
KernelDef sum_squares_columns(std::int64_t group = 256);

}  // namespace spvjit::examples

SPVJIT_API_END
