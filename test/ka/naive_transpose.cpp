// KernelAbstractions' examples/naive_transpose.jl ported line for line: column-major arrays keep
// KA's indices as written. Square, as KA's wrapper requires, on a size its static workgroup of
// 256 divides and on one it does not; and a rectangular pair.
//
// The KA kernel and its wrapper, quoted from JuliaGPU/KernelAbstractions.jl,
// examples/naive_transpose.jl at commit 9bf8fd59 (MIT license, Copyright (c) 2018-2021:
// Valentin Churavy, and other contributors):
/*
@kernel function naive_transpose_kernel!(a, b)
    i, j = @index(Global, NTuple)
    @inbounds a[i, j] = b[j, i]
end

function naive_transpose!(a, b)
    if size(a)[1] != size(b)[2] || size(a)[2] != size(b)[1]
        println("Matrix size mismatch!")
        return nothing
    end
    backend = get_backend(a)
    @assert get_backend(b) == backend
    kernel! = naive_transpose_kernel!(backend, 256)
    kernel!(a, b, ndrange = size(a))
    return
end
*/
#include <doctest/doctest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

KernelDef naive_transpose_kernel() {
  KernelBuilder kb("naive_transpose_kernel");
  auto a = kb.param<GlobalArray<float, 2, ColumnMajor>>("a");
  auto b = kb.param<GlobalArray<float, 2, ColumnMajor>>("b");
  auto [i, j] = global_indices<2>(kb);  // @index(Global, NTuple), 0-based
  // A @kernel skips the work-items a padded ndrange adds; spvjit says so with in_ndrange(), as
  // the static workgroup of 256 need not divide size(a).
  kb.if_(kb.in_ndrange(), [&] { inbounds(a)(i, j) = inbounds(b)(j, i); });
  return kb.finish();
}

// naive_transpose!: a is rows x cols, b is cols x rows, both column-major. KA instantiates
// kernel! = naive_transpose_kernel!(backend, 256), a static workgroup ((256, 1) in 2-d), on
// each call; the test compiles it once.
void naive_transpose(Kernel& kernel, Buffer<float>& a, const Buffer<float>& b, std::size_t rows,
                     std::size_t cols) {
  kernel.launch(NDRange{rows, cols}, shaped(a, {rows, cols}), shaped(b, {cols, rows}));
}

}  // namespace

TEST_CASE("KA port naive_transpose.jl: square and rectangular, column-major") {
  auto& rt = test::runtime();
  Kernel kernel =
      test::compile_checked(naive_transpose_kernel(), test::static_workgroup(WorkGroup{256, 1}));
  for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{256, 256}, {100, 100}, {19, 300}}) {
    CAPTURE(rows);
    CAPTURE(cols);
    std::vector<float> host_b(cols * rows);  // b is cols x rows
    for (std::size_t k = 0; k < host_b.size(); ++k) host_b[k] = static_cast<float>(k);
    auto b = rt.upload(host_b);
    auto a = rt.zeros<float>(rows * cols);
    naive_transpose(kernel, a, b, rows, cols);
    rt.synchronize();
    const auto got = a.to_vector();
    std::size_t wrong = 0;  // a == transpose(b): a[i, j] == b[j, i], column-major
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) wrong += got[i + j * rows] != host_b[j + i * cols];
    CHECK(wrong == 0);
  }
}
