#include "spvjit/examples.hpp"

#include "spvjit/builder.hpp"
#include "spvjit/index.hpp"
#include "spvjit/memory.hpp"
#include "spvjit/vector.hpp"

namespace spvjit::examples {

namespace {
template <class T>
KernelDef saxpy_of() {
  using A = arithmetic_t<T>;
  KernelBuilder kb(std::string("saxpy_") + std::string(name(scalar_of<T>)));
  auto z = kb.param<Global<T>>("Z");
  auto x = kb.param<Const<T>>("X");
  auto y = kb.param<Const<T>>("Y");
  auto a = kb.param<A>("a");
  kb.elementwise();  // coarsened on CPU devices, or compiling it says why not
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[i] = a * x[i] + y[i]; });
  return kb.finish();
}

template <class T, unsigned W>
KernelDef saxpy_vector_of() {
  using A = arithmetic_t<T>;
  KernelBuilder kb("saxpy_vector_" + std::string(name(scalar_of<T>)) + "x" + std::to_string(W));
  auto z = kb.param<Global<T>>("Z");
  auto x = kb.param<Const<T>>("X");
  auto y = kb.param<Const<T>>("Y");
  auto a = kb.param<A>("a");
  auto n = kb.param<std::int64_t>("n");
  auto first = kb.global_index() * std::int64_t{W};
  kb.if_else(
      first + std::int64_t{W} <= n,
      [&] { vstore(z, first, a * vload<W>(x, first) + vload<W>(y, first)); },
      [&] {
        kb.for_(first, n, kb.lit(std::int64_t{1}),
                [&](Val<std::int64_t> i) { z[i] = a * x[i] + y[i]; });
      });
  return kb.finish();
}

template <class T>
KernelDef saxpy_vector_lanes(unsigned lanes) {
  switch (lanes) {
    case 2:
      return saxpy_vector_of<T, 2>();
    case 4:
      return saxpy_vector_of<T, 4>();
    case 8:
      return saxpy_vector_of<T, 8>();
    case 16:
      return saxpy_vector_of<T, 16>();
  }
  throw UserError("examples::saxpy_vector: " + std::to_string(lanes) +
                  " lanes; expected 2, 4, 8 or 16");
}

template <class T>
KernelDef scale_of(unsigned dims) {
  using A = arithmetic_t<T>;
  KernelBuilder kb(std::string("scale") + std::to_string(dims) + "d_" +
                   std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<T>>("A");
  auto in = kb.param<Const<T>>("B");
  Val<std::int64_t> i = kb.global_index(0);
  if (dims == 3) {
    i = i + kb.ndrange(0) * (kb.global_index(1) + kb.ndrange(1) * kb.global_index(2));
  }
  kb.if_(kb.in_ndrange(), [&] { out[i] = A(2) * in[i]; });
  return kb.finish();
}
}  // namespace

KernelDef saxpy_vector(Scalar element, unsigned lanes) {
  switch (element) {
    case Scalar::F16:
      return saxpy_vector_lanes<half>(lanes);
    case Scalar::F32:
      return saxpy_vector_lanes<float>(lanes);
    case Scalar::F64:
      return saxpy_vector_lanes<double>(lanes);
    default:
      throw UserError("examples::saxpy_vector: element type " + std::string(name(element)) +
                      "; expected f16, f32 or f64");
  }
}

KernelDef naive_matmul() {
  KernelBuilder kb("naive_matmul");
  auto c = kb.param<Global<float>>("C");
  auto a = kb.param<Const<float>>("A");
  auto b = kb.param<Const<float>>("B");
  auto n = kb.param<std::int64_t>("n");
  auto p = kb.param<std::int64_t>("p");
  auto m = kb.param<std::int64_t>("m");
  const auto global = global_indices<2>(kb);  // not a structured binding: see tiled_matmul
  const Val<std::int64_t> col = global[0], row = global[1];
  auto A = view(a, n, p);
  auto B = view(b, p, m);
  auto C = view(c, n, m);
  kb.if_(kb.in_ndrange(), [&] {
    auto acc = kb.var(0.0f);
    kb.for_(kb.lit<std::int64_t>(0), p, kb.lit<std::int64_t>(1),
            [&](Val<std::int64_t> k) { acc += A(row, k) * B(k, col); });
    C(row, col) = acc.get();
  });
  return kb.finish();
}

KernelDef tiled_matmul(std::int64_t tile) {
  if (tile < 1 || tile > 64) {
    throw UserError("examples::tiled_matmul: tile " + std::to_string(tile) + "; expected 1 to 64");
  }
  KernelBuilder kb("tiled_matmul" + std::to_string(tile));
  kb.allow_padding();  // every access below is guarded by n, p and m
  auto c = kb.param<Global<float>>("C");
  auto a = kb.param<Const<float>>("A");
  auto b = kb.param<Const<float>>("B");
  auto n = kb.param<std::int64_t>("n");
  auto p = kb.param<std::int64_t>("p");
  auto m = kb.param<std::int64_t>("m");
  // Plain variables, not structured bindings: clang 15 cannot capture those in the lambdas below.
  const auto local = local_indices<2>(kb);
  const auto global = global_indices<2>(kb);
  const Val<std::int64_t> tx = local[0], ty = local[1];
  const Val<std::int64_t> col = global[0], row = global[1];
  auto A = view(a, n, p);
  auto B = view(b, p, m);
  auto C = view(c, n, m);
  auto As = local_array<float>(kb, {tile, tile}, "As");
  auto Bs = local_array<float>(kb, {tile, tile}, "Bs");
  auto acc = kb.var(0.0f);
  auto tiles = (p + (tile - 1)) / tile;
  kb.for_(kb.lit<std::int64_t>(0), tiles, kb.lit<std::int64_t>(1), [&](Val<std::int64_t> t) {
    // Every work-item stages one element (zero outside the matrices) and reaches each barrier.
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

// The heat steps as a KernelAbstractions user writes them (Julia below, 0-based here):
//   @kernel function heat2d_step!(unew, @Const(u), alpha)
//       i, j = @index(Global, NTuple)
//       n, m = size(u)
//       if 1 < i < n && 1 < j < m
//           unew[i, j] = u[i, j] + alpha * (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4u[i,
//           j])
//       end
//   end
// The bindings go into the body by init-capture: clang 15 cannot capture structured bindings.
KernelDef heat2d_step() {
  KernelBuilder kb("heat2d_step");
  kb.allow_padding();  // the interior check guards every access
  auto unew = kb.param<GlobalArray<float, 2, ColumnMajor>>("unew");
  auto u = kb.param<ConstArray<float, 2, ColumnMajor>>("u");
  auto alpha = kb.param<float>("alpha");
  auto [i, j] = global_indices<2>(kb);
  auto n = size(u, 0), m = size(u, 1);
  kb.if_(0 < i && i < n - 1 && 0 < j && j < m - 1, [&, i = i, j = j] {
    unew(i, j) =
        u(i, j) + alpha * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) - 4.0f * u(i, j));
  });
  return kb.finish();
}

KernelDef heat3d_step() {
  KernelBuilder kb("heat3d_step");
  kb.allow_padding();  // the interior check guards every access
  auto unew = kb.param<GlobalArray<float, 3, ColumnMajor>>("unew");
  auto u = kb.param<ConstArray<float, 3, ColumnMajor>>("u");
  auto alpha = kb.param<float>("alpha");
  auto [i, j, k] = global_indices<3>(kb);
  auto n = size(u, 0), m = size(u, 1), p = size(u, 2);
  kb.if_(0 < i && i < n - 1 && 0 < j && j < m - 1 && 0 < k && k < p - 1, [&, i = i, j = j, k = k] {
    unew(i, j, k) =
        u(i, j, k) + alpha * (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) + u(i, j + 1, k) +
                              u(i, j, k - 1) + u(i, j, k + 1) - 6.0f * u(i, j, k));
  });
  return kb.finish();
}

// WaterLily's Poisson product, ported line for line. Quoted from WaterLily-jl/WaterLily.jl at
// commit 084b6ecc (MIT "Expat" license, Copyright (c) 2020: Gabriel Weymouth), src/Poisson.jl:
//   function mult!(p::Poisson,x)
//       @assert axes(p.z)==axes(x)
//       perBC!(x,p.perdir)
//       fill!(p.z,0)
//       @inside p.z[I] = mult(I,p.L,p.D,x)
//       return p.z
//   end
//   @fastmath @inline function mult(I::CartesianIndex{d},L,D,x) where {d}
//       s = @inbounds(x[I]*D[I])
//       for i in 1:d
//           s += @inbounds(x[I-δ(i,I)]*L[I,i]+x[I+δ(i,I)]*L[I+δ(i,I),i])
//       end
//       return s
//   end
// and src/core.jl: `@inside ex` is `@loop ex over I ∈ inside(p.z)` (inside: all but one layer
// of cells on every side), which with the KernelAbstractions backend becomes (arguments in the
// order @loop grabs them from the expression):
//   @kernel function kern_(z,L,D,x,@Const(I0))
//       I = @index(Global,Cartesian)
//       I += I0
//       @fastmath @inbounds z[I] = mult(I,L,D,x)
//   end
//   kern_(get_backend(z),64)(z,L,D,x,R[1]-oneunit(R[1]),ndrange=size(R))
// Only the kernel is ported; perBC! and fill! are separate steps of mult!. 0-based here: I =
// @index + I0 with I0 = R's first cell, (1, 1) for inside(); δ(i, I) is delta<2>(i - 1).
// `@inbounds` over the whole statement is kb.inbounds(). `@fastmath` lets Julia reassociate and
// fuse; builder kernels compute in the written order, so results may differ from Julia's in
// the last bits, never between spvjit and a C++ loop in the same order.
KernelDef waterlily_mult() {
  KernelBuilder kb("waterlily_mult");
  kb.inbounds();  // @inbounds
  auto z = kb.param<GlobalArray<float, 2, ColumnMajor>>("z");
  auto L = kb.param<GlobalArray<float, 3, ColumnMajor>>("L");  // L[I, i]: face i of cell I
  auto D = kb.param<GlobalArray<float, 2, ColumnMajor>>("D");
  auto x = kb.param<GlobalArray<float, 2, ColumnMajor>>("x");
  auto i0 = kb.param<std::int64_t>("i0");  // @Const(I0), one value per dimension
  auto j0 = kb.param<std::int64_t>("j0");
  // KernelAbstractions skips the work-items a static workgroup (64) adds past size(R).
  kb.if_(kb.in_ndrange(), [&] {
    const CartesianIndex<2> I = global_indices<2>(kb) + CartesianIndex(i0, j0);  // I += I0
    // mult(I, L, D, x) with d = 2: s = x[I]*D[I]; for i in 1:d: s += ...
    auto s = kb.var(x(I) * D(I));
    for (unsigned d = 0; d < 2; ++d) {
      s += x(I - delta<2>(d)) * L(I, d) + x(I + delta<2>(d)) * L(I + delta<2>(d), d);
    }
    z(I) = s;  // z[I] = mult(I, L, D, x)
  });
  return kb.finish();
}

KernelDef saxpy(Scalar element) {
  switch (element) {
    case Scalar::F16:
      return saxpy_of<half>();
    case Scalar::F32:
      return saxpy_of<float>();
    case Scalar::F64:
      return saxpy_of<double>();
    default:
      throw UserError("examples::saxpy: element type " + std::string(name(element)) +
                      "; expected f16, f32 or f64");
  }
}

KernelDef scale(Scalar element, unsigned dims) {
  if (dims != 1 && dims != 3) {
    throw UserError("examples::scale: " + std::to_string(dims) + " dimensions; expected 1 or 3");
  }
  switch (element) {
    case Scalar::F16:
      return scale_of<half>(dims);
    case Scalar::F32:
      return scale_of<float>(dims);
    case Scalar::F64:
      return scale_of<double>(dims);
    default:
      throw UserError("examples::scale: element type " + std::string(name(element)) +
                      "; expected f16, f32 or f64");
  }
}

KernelDef straight_line(std::size_t statements) {
  KernelBuilder kb("statements_" + std::to_string(statements));
  auto z = kb.param<Global<float>>("z");
  auto x = kb.param<Const<float>>("x");
  auto c = kb.param<float>("c");
  auto i = kb.global_index();
  auto acc = kb.var(0.0f);
  for (std::size_t k = 0; k < statements; ++k) acc = acc + x[i] * c;
  kb.if_(kb.in_ndrange(), [&] { z[i] = acc; });
  return kb.finish();
}

}  // namespace spvjit::examples
