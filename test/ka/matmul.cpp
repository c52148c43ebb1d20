// KernelAbstractions' examples/matmul.jl ported line for line: size-generic (the inner loop's
// length comes from a's shape), column-major, on KA's sizes and on smaller odd ones.
//
// The KA kernel and its wrapper, quoted from JuliaGPU/KernelAbstractions.jl, examples/matmul.jl
// at commit 9bf8fd59 (MIT license, Copyright (c) 2018-2021: Valentin Churavy, and other
// contributors):
/*
@kernel function matmul_kernel!(output, a, b)
    i, j = @index(Global, NTuple)

    # creating a temporary sum variable for matrix multiplication
    tmp_sum = zero(eltype(output))
    for k in axes(a, 2)
        tmp_sum += a[i, k] * b[k, j]
    end

    output[i, j] = tmp_sum
end

function matmul!(output, a, b)
    if size(a, 2) != size(b, 1)
        println("Matrix size mismatch!")
        return nothing
    end
    backend = KernelAbstractions.get_backend(a)
    kernel! = matmul_kernel!(backend)
    kernel!(output, a, b, ndrange = size(output))
    return
end
*/
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "test/lang_support.hpp"
#include "test/matmul_reference.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;

KernelDef matmul_kernel() {
  KernelBuilder kb("matmul_kernel");
  auto output = kb.param<GlobalArray<float, 2, ColumnMajor>>("output");
  auto a = kb.param<GlobalArray<float, 2, ColumnMajor>>("a");
  auto b = kb.param<GlobalArray<float, 2, ColumnMajor>>("b");
  auto [i, j] = global_indices<2>(kb);  // @index(Global, NTuple), 0-based

  // creating a temporary sum variable for matrix multiplication
  auto tmp_sum = kb.var(0.0f);              // zero(eltype(output))
  kb.for_(0, size(a, 1), [&](Val<i64> k) {  // for k in axes(a, 2): 0 .. size(a, 2) - 1
    tmp_sum += a(i, k) * b(k, j);
  });

  output(i, j) = tmp_sum;
  return kb.finish();
}

// matmul!: output is n x m, a is n x p, b is p x m, column-major. A dynamic workgroup, as
// matmul_kernel!(backend): spvjit chooses one that divides size(output).
bool matmul(Kernel& kernel, Buffer<float>& output, const Buffer<float>& a, const Buffer<float>& b,
            std::array<std::size_t, 2> size_a, std::array<std::size_t, 2> size_b) {
  if (size_a[1] != size_b[0]) return false;  // "Matrix size mismatch!"
  kernel.launch(NDRange{size_a[0], size_b[1]}, shaped(output, {size_a[0], size_b[1]}),
                shaped(a, {size_a[0], size_a[1]}), shaped(b, {size_b[0], size_b[1]}));
  return true;
}

}  // namespace

TEST_CASE("KA port matmul.jl: KA's 256 x 123 times 123 x 45, and odd sizes") {
  auto& rt = test::runtime();
  Kernel kernel = test::compile_checked(matmul_kernel());
  for (auto [n, p, m] : {std::array<std::size_t, 3>{256, 123, 45}, {13, 7, 10}, {1, 1, 1}}) {
    CAPTURE(n);
    CAPTURE(p);
    CAPTURE(m);
    const auto host_a = test::small_ints(n * p, 1), host_b = test::small_ints(p * m, 2);
    auto a = rt.upload(host_a), b = rt.upload(host_b);
    auto output = rt.zeros<float>(n * m);
    REQUIRE(matmul(kernel, output, a, b, {n, p}, {p, m}));
    rt.synchronize();
    CHECK(output.to_vector() == test::matmul_reference(host_a, host_b, n, p, m, true));
  }
  auto a = rt.zeros<float>(6), b = rt.zeros<float>(6), output = rt.zeros<float>(4);
  CHECK_FALSE(matmul(kernel, output, a, b, {2, 3}, {2, 3}));  // the wrapper's size check
}
