// KernelAbstractions' examples/memcopy.jl ported line for line: a 2-d array copied through its
// linear index, with a workgroup spvjit chooses (KA's dynamic one).
//
// The KA kernel and its wrapper, quoted from JuliaGPU/KernelAbstractions.jl, examples/memcopy.jl
// at commit 9bf8fd59 (MIT license, Copyright (c) 2018-2021: Valentin Churavy, and other
// contributors):
/*
@kernel function copy_kernel!(A, @Const(B))
    I = @index(Global)
    @inbounds A[I] = B[I]
end

function mycopy!(A, B)
    backend = get_backend(A)
    @assert size(A) == size(B)
    @assert get_backend(B) == backend

    kernel = copy_kernel!(backend)
    kernel(A, B, ndrange = length(A))
    return
end

A = KernelAbstractions.zeros(backend, f_type, 128, 128)
B = KernelAbstractions.ones(backend, f_type, 128, 128)
*/
// f_type is Float64 on KA's CPU backend (examples/utils.jl), and doubles here.
#include <doctest/doctest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

KernelDef copy_kernel() {
  KernelBuilder kb("copy_kernel");
  auto A = kb.param<GlobalArray<double, 2, ColumnMajor>>("A");
  auto B = kb.param<ConstArray<double, 2, ColumnMajor>>("B");  // @Const(B)
  auto I = global_linear(kb);  // @index(Global): the linear index, 0-based
  inbounds(A)[I] = inbounds(B)[I];
  return kb.finish();
}

// mycopy!: A and B are n x m, column-major. The workgroup is left to spvjit, which picks one
// that divides the ndrange, as KA's dynamic workgroup covers it exactly.
void mycopy(Kernel& kernel, Buffer<double>& A, const Buffer<double>& B, std::size_t n,
            std::size_t m) {
  REQUIRE(A.size() == B.size());  // @assert size(A) == size(B)
  kernel.launch(NDRange{n * m}, shaped(A, {n, m}), shaped(B, {n, m}));  // ndrange = length(A)
}

}  // namespace

TEST_CASE("KA port memcopy.jl: a 128 x 128 array and an odd one, dynamic workgroup") {
  auto& rt = test::runtime();
  Kernel kernel = test::compile_checked(copy_kernel());
  for (auto [n, m] : {std::pair<std::size_t, std::size_t>{128, 128}, {37, 11}}) {
    CAPTURE(n);
    CAPTURE(m);
    auto A = rt.zeros<double>(n * m);
    // KA copies ones; distinct values also show each element lands in its place.
    std::vector<double> host_b(n * m);
    for (std::size_t k = 0; k < host_b.size(); ++k) host_b[k] = 1.0 + static_cast<double>(k);
    auto B = rt.upload(host_b);
    mycopy(kernel, A, B, n, m);
    rt.synchronize();
    CHECK(A.to_vector() == host_b);  // @test A == B
  }
}
