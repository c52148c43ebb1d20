// KernelAbstractions' examples/memcopy_static.jl ported line for line: the same copy with a
// static workgroup of 32 and a static ndrange, one compiled kernel per size as KA recompiles.
//
// The KA kernel and its wrapper, quoted from JuliaGPU/KernelAbstractions.jl,
// examples/memcopy_static.jl at commit 9bf8fd59 (MIT license, Copyright (c) 2018-2021:
// Valentin Churavy, and other contributors):
/*
@kernel function copy_kernel!(A, @Const(B))
    I = @index(Global)
    @inbounds A[I] = B[I]
end

function mycopy_static!(A, B)
    backend = get_backend(A)
    @assert size(A) == size(B)
    @assert get_backend(B) == backend

    kernel = copy_kernel!(backend, 32, size(A)) # if size(A) varies this will cause recompilation
    kernel(A, B, ndrange = size(A))
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
  auto I = global_linear(kb);  // @index(Global) of a 2-d ndrange: linear, dimension 0 fastest
  inbounds(A)[I] = inbounds(B)[I];
  return kb.finish();
}

// copy_kernel!(backend, 32, size(A)): workgroup 32 (padded to (32, 1) in 2-d) and the ndrange
// size(A), both static.
Specialization static_sizes(std::size_t n, std::size_t m) {
  Specialization spec;
  spec.workgroup = WorkGroup{32, 1};
  spec.ndrange = NDRange{n, m};
  return spec;
}

void mycopy_static(Buffer<double>& A, const Buffer<double>& B, std::size_t n, std::size_t m) {
  REQUIRE(A.size() == B.size());  // @assert size(A) == size(B)
  Kernel kernel = test::compile_checked(copy_kernel(), static_sizes(n, m));
  kernel.launch(NDRange{n, m}, shaped(A, {n, m}), shaped(B, {n, m}));  // ndrange = size(A)
}

}  // namespace

TEST_CASE("KA port memcopy_static.jl: static workgroup and ndrange, one kernel per size") {
  auto& rt = test::runtime();
  for (auto [n, m] : {std::pair<std::size_t, std::size_t>{128, 128}, {96, 5}}) {
    CAPTURE(n);
    CAPTURE(m);
    auto A = rt.zeros<double>(n * m);
    std::vector<double> host_b(n * m);  // KA copies ones; distinct values show each place
    for (std::size_t k = 0; k < host_b.size(); ++k) host_b[k] = 1.0 + static_cast<double>(k);
    auto B = rt.upload(host_b);
    mycopy_static(A, B, n, m);
    rt.synchronize();
    CHECK(A.to_vector() == host_b);  // @test A == B
  }
  // The static ndrange is part of the kernel: another size needs another compile.
  auto A = rt.zeros<double>(64), B = rt.zeros<double>(64);
  Kernel kernel = test::jit().compile(copy_kernel(), static_sizes(128, 128));
  CHECK_THROWS_AS(kernel.launch(NDRange{32, 2}, shaped(A, {32, 2}), shaped(B, {32, 2})), UserError);
}
