// PolyBench/ACC's OpenCL kernels (test/corpus/polybench, ORIGIN there): each benchmark's kernels
// run in the order, with the work-group sizes and the ceil-to-a-multiple global sizes, of its host
// code, on smaller problems (64 instead of 1024..4096) with seeded random data.
#include <doctest/doctest.h>

#include "test/corpus_case.hpp"

using namespace spvjit::corpus;

namespace {

constexpr int n = 64;  // every extent: matrices are n x n
constexpr std::size_t nn = static_cast<std::size_t>(n) * n;

// The hosts' global sizes: the extent rounded up to a multiple of the work-group.
constexpr std::size_t up(long extent, std::size_t group) {
  return extent <= 0 ? group : (static_cast<std::size_t>(extent) + group - 1) / group * group;
}
HostData data(std::size_t count, unsigned seed) { return random<float>(count, -1.0f, 1.0f, seed); }
// Values kept away from 0, for the kernels that divide by them.
HostData divisors(std::size_t count, unsigned seed) {
  return random<float>(count, 0.5f, 1.5f, seed);
}

}  // namespace

CORPUS_CASE(polybench_2mm, "polybench 2mm: mm2_kernel1, mm2_kernel2") {
  Case c("polybench/2mm/2mm.cl");
  c.buffer("tmp", zeros<float>(nn)).buffer("A", data(nn, 1)).buffer("B", data(nn, 2));
  c.buffer("C", data(nn, 3)).buffer("D", data(nn, 4));
  c.launch("mm2_kernel1", {up(n, 32), up(n, 8)}, {32, 8},
           {"tmp", "A", "B", n, n, n, n, 32412.0f, 2123.0f});
  c.launch("mm2_kernel2", {up(n, 32), up(n, 8)}, {32, 8},
           {"tmp", "C", "D", n, n, n, n, 32412.0f, 2123.0f});
  return c.compare({"tmp", "D"});
}

CORPUS_CASE(polybench_3mm, "polybench 3mm: mm3_kernel1..3") {
  Case c("polybench/3mm/3mm.cl");
  c.buffer("A", data(nn, 1))
      .buffer("B", data(nn, 2))
      .buffer("C", data(nn, 3))
      .buffer("D", data(nn, 4));
  c.buffer("E", zeros<float>(nn)).buffer("F", zeros<float>(nn)).buffer("G", zeros<float>(nn));
  c.launch("mm3_kernel1", {up(n, 32), up(n, 8)}, {32, 8}, {"A", "B", "E", n, n, n});
  c.launch("mm3_kernel2", {up(n, 32), up(n, 8)}, {32, 8}, {"C", "D", "F", n, n, n});
  c.launch("mm3_kernel3", {up(n, 32), up(n, 8)}, {32, 8}, {"E", "F", "G", n, n, n});
  return c.compare({"E", "F", "G"});
}

CORPUS_CASE(polybench_atax, "polybench atax: atax_kernel1, atax_kernel2") {
  Case c("polybench/atax/atax.cl");
  c.buffer("A", data(nn, 1))
      .buffer("x", data(n, 2))
      .buffer("y", zeros<float>(n))
      .buffer("tmp", zeros<float>(n));
  c.launch("atax_kernel1", {up(n, 32)}, {32}, {"A", "x", "tmp", n, n});
  c.launch("atax_kernel2", {up(n, 32)}, {32}, {"A", "y", "tmp", n, n});
  return c.compare({"tmp", "y"});
}

CORPUS_CASE(polybench_bicg, "polybench bicg: bicgKernel1, bicgKernel2") {
  Case c("polybench/bicg/bicg.cl");
  c.buffer("A", data(nn, 1)).buffer("r", data(n, 2)).buffer("s", zeros<float>(n));
  c.buffer("p", data(n, 3)).buffer("q", zeros<float>(n));
  c.launch("bicgKernel1", {up(n, 256)}, {256}, {"A", "p", "q", n, n});
  c.launch("bicgKernel2", {up(n, 256)}, {256}, {"A", "r", "s", n, n});
  return c.compare({"q", "s"});
}

CORPUS_CASE(polybench_doitgen, "polybench doitgen: doitgen_kernel1, doitgen_kernel2") {
  constexpr int nr = 8, nq = 16, np = 32;  // r runs on the host, as in doitgen.c
  Case c("polybench/doitgen/doitgen.cl");
  c.buffer("A", data(nr * nq * np, 1))
      .buffer("C4", data(np * np, 2))
      .buffer("sum", zeros<float>(nr * nq * np));
  for (int r = 0; r < nr; ++r) {
    c.launch("doitgen_kernel1", {up(np, 32), up(nq, 8)}, {32, 8},
             {nr, nq, np, "A", "C4", "sum", r});
    c.launch("doitgen_kernel2", {up(np, 32), up(nq, 8)}, {32, 8},
             {nr, nq, np, "A", "C4", "sum", r});
  }
  return c.compare({"A", "sum"});
}

CORPUS_CASE(polybench_gemm, "polybench gemm: gemm") {
  Case c("polybench/gemm/gemm.cl");
  c.buffer("a", data(nn, 1)).buffer("b", data(nn, 2)).buffer("c", data(nn, 3));
  c.launch("gemm", {up(n, 32), up(n, 8)}, {32, 8}, {"a", "b", "c", 32412.0f, 2123.0f, n, n, n});
  return c.compare({"c"});
}

CORPUS_CASE(polybench_gemver, "polybench gemver: gemver_kernel1..3") {
  Case c("polybench/gemver/gemver.cl");
  c.buffer("A", data(nn, 1))
      .buffer("u1", data(n, 2))
      .buffer("v1", data(n, 3))
      .buffer("u2", data(n, 4));
  c.buffer("v2", data(n, 5)).buffer("w", zeros<float>(n)).buffer("x", zeros<float>(n));
  c.buffer("y", data(n, 6)).buffer("z", data(n, 7));
  c.launch("gemver_kernel1", {up(n, 32), up(n, 8)}, {32, 8}, {"A", "v1", "v2", "u1", "u2", n});
  c.launch("gemver_kernel2", {up(n, 256)}, {256}, {"A", "x", "y", "z", 12313.0f, n});
  c.launch("gemver_kernel3", {up(n, 256)}, {256}, {"A", "x", "w", 43532.0f, n});
  return c.compare({"A", "x", "w"});
}

CORPUS_CASE(polybench_gesummv, "polybench gesummv: gesummv_kernel") {
  Case c("polybench/gesummv/gesummv.cl");
  c.buffer("a", data(nn, 1)).buffer("b", data(nn, 2)).buffer("x", data(n, 3));
  c.buffer("y", zeros<float>(n)).buffer("tmp", zeros<float>(n));
  c.launch("gesummv_kernel", {up(n, 256)}, {256},
           {"a", "b", "x", "y", "tmp", 43532.0f, 12313.0f, n});
  return c.compare({"y", "tmp"});
}

CORPUS_CASE(polybench_mvt, "polybench mvt: mvt_kernel1, mvt_kernel2") {
  Case c("polybench/mvt/mvt.cl");
  c.buffer("a", data(nn, 1)).buffer("x1", data(n, 2)).buffer("x2", data(n, 3));
  c.buffer("y1", data(n, 4)).buffer("y2", data(n, 5));
  c.launch("mvt_kernel1", {up(n, 32)}, {32}, {"a", "x1", "y1", n});
  c.launch("mvt_kernel2", {up(n, 32)}, {32}, {"a", "x2", "y2", n});
  return c.compare({"x1", "x2"});
}

CORPUS_CASE(polybench_syr2k, "polybench syr2k: syr2k_kernel") {
  Case c("polybench/syr2k/syr2k.cl");
  c.buffer("a", data(nn, 1)).buffer("b", data(nn, 2)).buffer("c", data(nn, 3));
  c.launch("syr2k_kernel", {up(n, 32), up(n, 8)}, {32, 8},
           {"a", "b", "c", 12435.0f, 4546.0f, n, n});
  return c.compare({"c"});
}

CORPUS_CASE(polybench_syrk, "polybench syrk: syrk_kernel") {
  Case c("polybench/syrk/syrk.cl");
  c.buffer("a", data(nn, 1)).buffer("c", data(nn, 2));
  c.launch("syrk_kernel", {up(n, 32), up(n, 8)}, {32, 8}, {"a", "c", 12435.0f, 4546.0f, n, n});
  return c.compare({"c"});
}

CORPUS_CASE(polybench_gramschmidt, "polybench gramschmidt: gramschmidt_kernel1..3") {
  Case c("polybench/gramschmidt/gramschmidt.cl");
  c.buffer("a", divisors(nn, 1)).buffer("r", zeros<float>(nn)).buffer("q", zeros<float>(nn));
  for (int k = 0; k < n; ++k) {
    c.launch("gramschmidt_kernel1", {256}, {256}, {"a", "r", "q", k, n, n});
    c.launch("gramschmidt_kernel2", {up(n, 256)}, {256}, {"a", "r", "q", k, n, n});
    c.launch("gramschmidt_kernel3", {up(n - k - 1, 256)}, {256}, {"a", "r", "q", k, n, n});
  }
  return c.compare({"a", "r", "q"});
}

CORPUS_CASE(polybench_lu, "polybench lu: lu_kernel1, lu_kernel2") {
  Case c("polybench/lu/lu.cl");
  c.buffer("A", divisors(nn, 1));
  for (int k = 0; k < n; ++k) {
    c.launch("lu_kernel1", {up(n - k - 1, 256), 1}, {256, 1}, {"A", k, n});
    c.launch("lu_kernel2", {up(n - k - 1, 32), up(n - k - 1, 8)}, {32, 8}, {"A", k, n});
  }
  return c.compare({"A"});
}

CORPUS_CASE(polybench_correlation, "polybench correlation: mean, std, reduce, corr") {
  constexpr int m = n;
  Case c("polybench/correlation/correlation.cl");
  c.buffer("data", data(static_cast<std::size_t>(m) * n, 1)).buffer("mean", zeros<float>(m));
  c.buffer("stddev", zeros<float>(m))
      .buffer("symmat", zeros<float>(static_cast<std::size_t>(m) * m));
  const float float_n = 3214212.01f, eps = 0.005f;
  c.launch("mean_kernel", {up(m, 256)}, {256}, {"mean", "data", float_n, m, n});
  c.launch("std_kernel", {up(m, 256)}, {256}, {"mean", "stddev", "data", float_n, eps, m, n});
  c.launch("reduce_kernel", {up(m, 32), up(n, 8)}, {32, 8},
           {"mean", "stddev", "data", float_n, m, n});
  c.launch("corr_kernel", {up(m, 256)}, {256}, {"symmat", "data", m, n});
  return c.compare({"mean", "stddev", "data", "symmat"});
}

CORPUS_CASE(polybench_covariance, "polybench covariance: mean, reduce, covar") {
  constexpr int m = n;
  Case c("polybench/covariance/covariance.cl");
  c.buffer("data", data(static_cast<std::size_t>(m) * n, 1)).buffer("mean", zeros<float>(m));
  c.buffer("symmat", zeros<float>(static_cast<std::size_t>(m) * m));
  c.launch("mean_kernel", {up(m, 256)}, {256}, {"mean", "data", 3214212.01f, m, n});
  c.launch("reduce_kernel", {up(m, 32), up(n, 8)}, {32, 8}, {"mean", "data", m, n});
  c.launch("covar_kernel", {up(m, 256)}, {256}, {"symmat", "data", m, n});
  return c.compare({"mean", "data", "symmat"});
}

CORPUS_CASE(polybench_adi, "polybench adi: adi_kernel1..6") {
  constexpr int tsteps = 2;
  Case c("polybench/adi/adi.cl");
  c.buffer("A", divisors(nn, 1)).buffer("B", divisors(nn, 2)).buffer("X", data(nn, 3));
  for (int t = 0; t < tsteps; ++t) {
    c.launch("adi_kernel1", {up(n, 256)}, {256}, {"A", "B", "X", n});
    c.launch("adi_kernel2", {up(n, 256)}, {256}, {"A", "B", "X", n});
    c.launch("adi_kernel3", {up(n, 256)}, {256}, {"A", "B", "X", n});
    for (int i1 = 1; i1 < n; ++i1)
      c.launch("adi_kernel4", {up(n, 256)}, {256}, {"A", "B", "X", i1, n});
    c.launch("adi_kernel5", {up(n, 256)}, {256}, {"A", "B", "X", n});
    for (int i1 = 0; i1 < n - 2; ++i1)
      c.launch("adi_kernel6", {up(n, 256)}, {256}, {"A", "B", "X", i1, n});
  }
  return c.compare({"B", "X"});
}

CORPUS_CASE(polybench_convolution_2d, "polybench convolution-2d: Convolution2D_kernel") {
  Case c("polybench/convolution-2d/2DConvolution.cl");
  c.buffer("A", data(nn, 1)).buffer("B", zeros<float>(nn));
  c.launch("Convolution2D_kernel", {up(n, 32), up(n, 8)}, {32, 8}, {"A", "B", n, n});
  return c.compare({"B"});
}

CORPUS_CASE(polybench_convolution_3d, "polybench convolution-3d: Convolution3D_kernel") {
  constexpr int m = 32;  // m^3 elements
  Case c("polybench/convolution-3d/3DConvolution.cl");
  c.buffer("A", data(m * m * m, 1)).buffer("B", zeros<float>(m * m * m));
  for (int i = 1; i < m - 1; ++i)
    c.launch("Convolution3D_kernel", {up(m, 32), up(m, 8)}, {32, 8}, {"A", "B", m, m, m, i});
  return c.compare({"B"});
}

CORPUS_CASE(polybench_fdtd_2d, "polybench fdtd-2d: fdtd_kernel1..3") {
  constexpr int tmax = 4;
  Case c("polybench/fdtd-2d/fdtd2d.cl");
  c.buffer("fict", data(tmax, 1))
      .buffer("ex", data(nn, 2))
      .buffer("ey", data(nn, 3))
      .buffer("hz", data(nn, 4));
  for (int t = 0; t < tmax; ++t) {
    c.launch("fdtd_kernel1", {up(n, 32), up(n, 8)}, {32, 8}, {"fict", "ex", "ey", "hz", t, n, n});
    c.launch("fdtd_kernel2", {up(n, 32), up(n, 8)}, {32, 8}, {"ex", "ey", "hz", n, n});
    c.launch("fdtd_kernel3", {up(n, 32), up(n, 8)}, {32, 8}, {"ex", "ey", "hz", n, n});
  }
  return c.compare({"ex", "ey", "hz"});
}

CORPUS_CASE(polybench_jacobi_1d, "polybench jacobi-1d-imper: runJacobi1D_kernel1, kernel2") {
  constexpr int len = 512, tsteps = 4;
  Case c("polybench/jacobi-1d-imper/jacobi1D.cl");
  c.buffer("A", data(len, 1)).buffer("B", data(len, 2));
  for (int t = 0; t < tsteps; ++t) {
    c.launch("runJacobi1D_kernel1", {len}, {256}, {"A", "B", len});
    c.launch("runJacobi1D_kernel2", {len}, {256}, {"A", "B", len});
  }
  return c.compare({"A", "B"});
}

CORPUS_CASE(polybench_jacobi_2d, "polybench jacobi-2d-imper: runJacobi2D_kernel1, kernel2") {
  constexpr int tsteps = 4;
  Case c("polybench/jacobi-2d-imper/jacobi2D.cl");
  c.buffer("A", data(nn, 1)).buffer("B", data(nn, 2));
  for (int t = 0; t < tsteps; ++t) {
    c.launch("runJacobi2D_kernel1", {up(n, 32), up(n, 8)}, {32, 8}, {"A", "B", n});
    c.launch("runJacobi2D_kernel2", {up(n, 32), up(n, 8)}, {32, 8}, {"A", "B", n});
  }
  return c.compare({"A", "B"});
}
