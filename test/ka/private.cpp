// KernelAbstractions' test/private.jl ported line for line: stmt_form, private, forloop,
// reduce_private and typetest, with KA's launches, against the values KA's test expects.
//
// The KA kernels, quoted from JuliaGPU/KernelAbstractions.jl, test/private.jl at commit
// 9bf8fd59 (MIT license, Copyright (c) 2018-2021: Valentin Churavy, and other contributors):
/*
@kernel function stmt_form()
    @uniform bs = @groupsize()[1]
    @private s = bs ÷ 2
    @synchronize
end

@kernel function typetest(A, B)
    priv = @private eltype(A) (1,)
    I = @index(Global, Linear)
    @inbounds begin
        B[I] = eltype(priv) === eltype(A)
    end
end

@kernel function private(A)
    @uniform N = prod(@groupsize())
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    priv = @private Int (1,)
    @inbounds begin
        priv[1] = N - i + 1
        @synchronize
        A[I] = priv[1]
    end
end

# This is horrible don't write code like this
@kernel function forloop(A, ::Val{N}) where {N}
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    priv = @private Int (N,)
    for j in 1:N
        priv[j] = A[I, j]
    end
    A[I, 1] = 0
    @synchronize
    for j in 1:N
        k = mod1(j + i - 1, N)
        A[k, 1] += priv[j]
        @synchronize
    end
end

@kernel function reduce_private(out, A)
    I = @index(Global, NTuple)
    i = @index(Local)

    priv = @private eltype(A) (1,)
    @inbounds begin
        priv[1] = zero(eltype(A))
        for k in 1:size(A, ndims(A))
            priv[1] += A[I..., k]
        end
        out[I...] = priv[1]
    end
end
*/
// Indices are 0-based (i, j, k and I are KA's less one); values stay KA's.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;

// Julia's eltype for spvjit arrays.
template <class A>
struct Eltype;
template <class T, AddressSpace S>
struct Eltype<Array<T, S>> {
  using type = std::remove_const_t<T>;
};
template <class A>
using eltype = typename Eltype<A>::type;

KernelDef stmt_form() {
  KernelBuilder kb("stmt_form");
  auto bs = kb.group_size(0);  // @uniform bs = @groupsize()[1]
  auto s = kb.var(bs / 2);     // @private s = bs ÷ 2: a private variable
  (void)s;                     // unused, as in KA
  barrier(kb, Fence::Local);
  return kb.finish();
}

template <class T>
KernelDef typetest() {
  KernelBuilder kb("typetest");
  kb.inbounds();  // @inbounds begin ... end
  auto A = kb.param<GlobalArray<T, 2, ColumnMajor>>("A");
  auto B = kb.param<GlobalArray<bool, 2, ColumnMajor>>("B");
  auto priv = private_array<eltype<decltype(A)>>(kb, {1});  // @private eltype(A) (1,)
  auto I = global_linear(kb);
  B[I] = std::is_same_v<eltype<decltype(priv)>, eltype<decltype(A)>>;  // known when building
  return kb.finish();
}

KernelDef private_kernel() {
  KernelBuilder kb("private");
  kb.inbounds();
  auto A = kb.param<GlobalArray<i64, 1>>("A");
  auto N =
      kb.group_size(0) * kb.group_size(1) * kb.group_size(2);  // @uniform N = prod(@groupsize())
  auto I = global_linear(kb);
  auto i = local_linear(kb);
  auto priv = private_array<i64>(kb, {1});  // @private Int (1,)
  priv(0) = N - i;                          // priv[1] = N - i + 1
  barrier(kb, Fence::Local);
  A(I) = priv(0);
  return kb.finish();
}

// This is horrible don't write code like this (KA's words). ::Val{N} is static: a C++ number.
KernelDef forloop(i64 N) {
  KernelBuilder kb("forloop");
  auto A = kb.param<GlobalArray<i64, 2, ColumnMajor>>("A");
  auto I = global_linear(kb);
  auto i = local_linear(kb);
  auto priv = private_array<i64>(kb, {N});  // @private Int (N,)
  kb.for_(0, N, [&](Val<i64> j) {           // for j in 1:N
    priv(j) = A(I, j);
  });
  A(I, 0) = 0;
  // @synchronize: the work-items exchange values through A, global memory, so both fences.
  barrier(kb, Fence::Local | Fence::Global);
  kb.for_(0, N, [&](Val<i64> j) {
    auto k = (j + i) % N;  // mod1(j + i - 1, N), 0-based
    A(k, 0) += priv(j);
    barrier(kb, Fence::Local | Fence::Global);
  });
  return kb.finish();
}

KernelDef reduce_private() {
  KernelBuilder kb("reduce_private");
  kb.inbounds();
  auto out = kb.param<GlobalArray<float, 1>>("out");
  auto A = kb.param<GlobalArray<float, 2, ColumnMajor>>("A");
  auto [I] = global_indices<1>(kb);  // @index(Global, NTuple): a 1-tuple for a 1-d ndrange
  auto i = kb.local_index(0);        // @index(Local), unused as in KA
  (void)i;

  auto priv = private_array<eltype<decltype(A)>>(kb, {1});
  priv(0) = 0.0f;                                      // zero(eltype(A))
  kb.for_(0, size(A, A.rank() - 1), [&](Val<i64> k) {  // for k in 1:size(A, ndims(A))
    priv(0) += A(I, k);                                // A[I..., k]: the rank is C++'s
  });
  out(I) = priv(0);
  return kb.finish();
}

// KA's check for private: each block of 16 holds 16:-1:1.
std::vector<i64> reversed_blocks(std::size_t n) {
  std::vector<i64> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = 16 - static_cast<i64>(k % 16);
  return v;
}

}  // namespace

TEST_CASE("KA port private.jl: stmt_form and private with a static group of 16") {
  auto& rt = test::runtime();
  // stmt_form(backend(), 16)(ndrange = 16): it runs, and writes nothing.
  test::compile_checked(stmt_form(), test::static_workgroup(WorkGroup{16})).launch(NDRange{16});
  Kernel priv = test::compile_checked(private_kernel(), test::static_workgroup(WorkGroup{16}));
  auto A = rt.zeros<i64>(64);
  priv.launch(NDRange{64}, A);
  rt.synchronize();
  CHECK(A.to_vector() == reversed_blocks(64));
}

TEST_CASE("KA port private.jl: forloop exchanges private values through global memory") {
  auto& rt = test::runtime();
  const std::size_t n = 64;
  auto A = rt.upload(std::vector<i64>(n * n, 1));                       // A .= 1
  Kernel kernel = test::compile_checked(forloop(static_cast<i64>(n)));  // forloop(backend())
  // (A, Val(size(A, 2)), ndrange = size(A, 1), workgroupsize = size(A, 1))
  kernel.launch(NDRange{n}, WorkGroup{n}, shaped(A, {n, n}));
  rt.synchronize();
  const auto got = A.to_vector();
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < n; ++r) {
    wrong += got[r] != 64;                                             // A[:, 1] .== 64
    for (std::size_t c = 1; c < n; ++c) wrong += got[r + c * n] != 1;  // A[:, 2:end] .== 1
  }
  CHECK(wrong == 0);
}

TEST_CASE("KA port private.jl: typetest and reduce_private") {
  auto& rt = test::runtime();
  const std::size_t n = 64;
  {
    auto A = rt.zeros<i64>(n * n);
    auto B = rt.zeros<bool>(n * n);  // ArrayT{Bool}(undef, size(A)...)
    Kernel kernel =
        test::compile_checked(typetest<i64>(), test::static_workgroup(WorkGroup{16, 1}));
    kernel.launch(NDRange{n, n}, shaped(A, {n, n}), shaped(B, {n, n}));  // ndrange = size(A)
    rt.synchronize();
    auto got = std::make_unique<bool[]>(n * n);  // not std::vector<bool>: no contiguous storage
    B.read(std::span<bool>(got.get(), n * n));
    CHECK(std::all_of(got.get(), got.get() + n * n, [](bool b) { return b; }));  // all(B)
  }
  {
    // KA sums ones(Float32, 64, 3); distinct values also show which elements are summed.
    std::vector<float> host_a(n * 3);
    for (std::size_t k = 0; k < host_a.size(); ++k) host_a[k] = static_cast<float>(k % 97);
    auto A = rt.upload(host_a);
    auto out = rt.zeros<float>(n);
    Kernel kernel = test::compile_checked(reduce_private(), test::static_workgroup(WorkGroup{8}));
    kernel.launch(NDRange{n}, out, shaped(A, {n, 3}));  // ndrange = size(out)
    rt.synchronize();
    std::vector<float> expected(n);
    for (std::size_t r = 0; r < n; ++r) expected[r] = host_a[r] + host_a[r + n] + host_a[r + 2 * n];
    CHECK(out.to_vector() == expected);
  }
}
