// KernelAbstractions' test/localmem.jl ported line for line: its four kernels, each writing
// the work-item's reversed local index through local memory, with KA's static group of 16 over
// an ndrange of 64 (and 60 for the kernel that guards its own bounds).
//
// The KA kernels, quoted from JuliaGPU/KernelAbstractions.jl, test/localmem.jl at commit
// 9bf8fd59 (MIT license, Copyright (c) 2018-2021: Valentin Churavy, and other contributors):
/*
@kernel function localmem(A)
    N = @uniform prod(@groupsize())
    @uniform begin
        N2 = prod(@groupsize())
    end
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    lmem = @localmem Int (N,) # Ok iff groupsize is static
    @inbounds begin
        lmem[i] = i
        @synchronize
        A[I] = lmem[N2 - i + 1]
    end
end

@kernel function localmem2(A)
    N = @uniform prod(@groupsize())
    @uniform begin
        N2 = prod(@groupsize())
    end
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    lmem = @localmem Int (N,) # Ok iff groupsize is static
    @inbounds begin
        lmem[i] = i + 3
        for j in 1:2
            lmem[i] -= j
            @synchronize
        end
        A[I] = lmem[N2 - i + 1]
    end
end

@kernel unsafe_indices = true function localmem_unsafe_indices(A)
    N = @uniform prod(@groupsize())
    gI = @index(Group, Linear)
    i = @index(Local, Linear)
    lmem = @localmem Int (N,) # Ok iff groupsize is static
    lmem[i] = i
    @synchronize
    I = (gI - 1) * N + i
    if I <= length(A)
        A[I] = lmem[N - i + 1]
    end
end

@kernel function many_localmem(A)
    N = @uniform prod(@groupsize())
    @uniform begin
        N2 = prod(@groupsize())
    end
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    lmem1 = @localmem Int (N,) # Ok iff groupsize is static
    lmem2 = @localmem Int (N,) # Ok iff groupsize is static
    @inbounds begin
        lmem1[i] = i - 1
        lmem2[i] = 1
        @synchronize
        A[I] = lmem1[N2 - i + 1] + lmem2[N2 - i + 1]
    end
end
*/
// Indices are 0-based (i here is KA's i - 1), the values stored stay KA's: `lmem[i] = i` is
// `lmem(i) = i + 1`, and `lmem[N2 - i + 1]` is `lmem(N2 - i - 1)`. A local array's size must be
// known when the kernel is built, so the kernel is built for its group, as KA's
// `kernel!(backend(), 16)` instantiates it: kb.workgroup(WorkGroup{16}), and N read from it
// (kb.static_group_size, a C++ number), written once; the compile takes that workgroup.
// N2 is read in the kernel (a constant once the workgroup is static), as KA computes both.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;

// prod(@groupsize())
Val<i64> prod_groupsize(KernelBuilder& kb) {
  return kb.group_size(0) * kb.group_size(1) * kb.group_size(2);
}

// N = @uniform prod(@groupsize()), as a size: of the workgroup the kernel is built for.
i64 static_prod_groupsize(KernelBuilder& kb, const WorkGroup& group) {
  kb.workgroup(group);  // kernel!(backend(), group)
  return kb.static_group_size(0) * kb.static_group_size(1) * kb.static_group_size(2);
}

KernelDef localmem(const WorkGroup& group) {
  KernelBuilder kb("localmem");
  const i64 N = static_prod_groupsize(kb, group);
  kb.inbounds();  // @inbounds begin ... end: the whole body
  auto A = kb.param<GlobalArray<i64, 1>>("A");
  auto N2 = prod_groupsize(kb);                   // @uniform: nothing to do (see docs/language.md)
  auto I = global_linear(kb);                     // @index(Global, Linear)
  auto i = local_linear(kb);                      // @index(Local, Linear)
  auto lmem = local_array<i64>(kb, {N}, "lmem");  // @localmem Int (N,)
  lmem(i) = i + 1;                                // lmem[i] = i
  barrier(kb, Fence::Local);
  A(I) = lmem(N2 - i - 1);  // A[I] = lmem[N2 - i + 1]
  return kb.finish();
}

KernelDef localmem2(const WorkGroup& group) {
  KernelBuilder kb("localmem2");
  const i64 N = static_prod_groupsize(kb, group);
  kb.inbounds();
  auto A = kb.param<GlobalArray<i64, 1>>("A");
  auto N2 = prod_groupsize(kb);
  auto I = global_linear(kb);
  auto i = local_linear(kb);
  auto lmem = local_array<i64>(kb, {N}, "lmem");
  lmem(i) = i + 1 + 3;  // lmem[i] = i + 3
  kb.for_(range(1, 2), [&](Val<i64> j) {
    lmem(i) -= j;
    barrier(kb, Fence::Local);
  });
  A(I) = lmem(N2 - i - 1);
  return kb.finish();
}

// unsafe_indices = true: the kernel guards its own bounds, so padded groups may run it.
KernelDef localmem_unsafe_indices(const WorkGroup& group) {
  KernelBuilder kb("localmem_unsafe_indices");
  const i64 N = static_prod_groupsize(kb, group);
  kb.allow_padding();
  auto A = kb.param<GlobalArray<i64, 1>>("A");
  auto gI = group_linear(kb);  // @index(Group, Linear)
  auto i = local_linear(kb);
  auto lmem = local_array<i64>(kb, {N}, "lmem");
  lmem(i) = i + 1;  // lmem[i] = i
  barrier(kb, Fence::Local);
  auto I = gI * N + i;         // (gI - 1) * N + i
  kb.if_(I < length(A), [&] {  // I <= length(A)
    A(I) = lmem(N - i - 1);    // A[I] = lmem[N - i + 1]
  });
  return kb.finish();
}

KernelDef many_localmem(const WorkGroup& group) {
  KernelBuilder kb("many_localmem");
  const i64 N = static_prod_groupsize(kb, group);
  kb.inbounds();
  auto A = kb.param<GlobalArray<i64, 1>>("A");
  auto N2 = prod_groupsize(kb);
  auto I = global_linear(kb);
  auto i = local_linear(kb);
  auto lmem1 = local_array<i64>(kb, {N}, "lmem1");
  auto lmem2 = local_array<i64>(kb, {N}, "lmem2");
  lmem1(i) = i + 1 - 1;  // lmem1[i] = i - 1
  lmem2(i) = 1;
  barrier(kb, Fence::Local);
  A(I) = lmem1(N2 - i - 1) + lmem2(N2 - i - 1);
  return kb.finish();
}

// KA's check: each block of 16 holds 16:-1:1 (for the elements the ndrange covers).
std::vector<i64> expected(std::size_t n) {
  std::vector<i64> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = 16 - static_cast<i64>(k % 16);
  return v;
}

}  // namespace

TEST_CASE("KA port localmem.jl: localmem, localmem2, localmem_unsafe_indices, many_localmem") {
  auto& rt = test::runtime();
  const std::function<KernelDef(const WorkGroup&)> kernels[] = {
      localmem, localmem2, localmem_unsafe_indices, many_localmem};
  for (const auto& make : kernels) {
    const KernelDef def = make(WorkGroup{16});  // kernel!(backend(), 16): a static group of 16
    CAPTURE(def.name());
    Kernel kernel = test::compile_checked(def);
    auto A = rt.zeros<i64>(64);     // ArrayT{Int}(undef, 64)
    kernel.launch(NDRange{64}, A);  // ndrange = size(A)
    rt.synchronize();
    CHECK(A.to_vector() == expected(64));
  }
}

TEST_CASE("KA port localmem.jl: localmem_unsafe_indices on a padded ndrange guards itself") {
  auto& rt = test::runtime();
  // The same workgroup given again at compile is the same kernel.
  Kernel kernel = test::compile_checked(localmem_unsafe_indices(WorkGroup{16}),
                                        test::static_workgroup(WorkGroup{16}));
  auto A = rt.zeros<i64>(60);
  kernel.launch(NDRange{60}, A);  // 4 groups of 16, the last one padded
  rt.synchronize();
  CHECK(A.to_vector() == expected(60));
}
