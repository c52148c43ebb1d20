// A workgroup tree reduction in KernelAbstractions' style, ported line for line, and a full
// sum over up to 10^6 elements by launching it until one value is left.
//
// KernelAbstractions.jl (commit 9bf8fd59) has no reduction example to quote. The Julia below is
// a KA-style sketch written for this test, not a quotation:
/*
@kernel unsafe_indices = true function reduce_group!(partial, @Const(x))
    gs = @uniform @groupsize()[1]
    li = @index(Local, Linear)
    gi = @index(Group, Linear)
    i = (gi - 1) * gs + li
    scratch = @localmem Float64 (256,)
    scratch[li] = i <= length(x) ? x[i] : 0.0
    @synchronize
    s = gs ÷ 2
    while s > 0
        if li <= s
            scratch[li] += scratch[li + s]
        end
        @synchronize
        s ÷= 2
    end
    if li == 1
        partial[gi] = scratch[1]
    end
end

# one pass: partial sums of each group of 256
reduce_group!(backend, 256)(partial, x, ndrange = 256 * cld(length(x), 256))
*/
// Indices are 0-based: li, gi, i are KA's less one, so `li <= s` is `li < s` and
// `scratch[li + s]` keeps its spelling.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;

constexpr std::size_t group = 256;

KernelDef reduce_group() {
  KernelBuilder kb("reduce_group");
  kb.allow_padding();  // unsafe_indices = true: the kernel guards its own bounds
  auto partial = kb.param<Global<double>>("partial");
  auto x = kb.param<Const<double>>("x");                       // @Const(x)
  auto gs = kb.group_size(0);                                  // @uniform @groupsize()[1]
  auto li = local_linear(kb);                                  // @index(Local, Linear)
  auto gi = group_linear(kb);                                  // @index(Group, Linear)
  auto i = gi * gs + li;                                       // (gi - 1) * gs + li
  auto scratch = local_array<double>(kb, {group}, "scratch");  // @localmem Float64 (256,)
  scratch(li) = kb.ternary(
      i < length(x), [&] { return x[i]; }, [] { return 0.0; });
  barrier(kb, Fence::Local);
  auto s = kb.var(gs / 2);  // s = gs ÷ 2
  kb.while_([&] { return s > 0; },
            [&] {
              kb.if_(li < s, [&] {  // li <= s
                scratch(li) += scratch(li + s);
              });
              barrier(kb, Fence::Local);
              s /= 2;  // s ÷= 2
            });
  kb.if_(li == 0, [&] {  // li == 1
    partial[gi] = scratch(0);
  });
  return kb.finish();
}

}  // namespace

TEST_CASE("KA-style workgroup tree reduction, and a full sum over up to 10^6 elements") {
  auto& rt = test::runtime();
  Kernel kernel = test::compile_checked(reduce_group(), test::static_workgroup(WorkGroup{group}));
  for (std::size_t n : {1u, 255u, 256u, 1000u, 1000000u}) {
    CAPTURE(n);
    std::vector<double> data(n);
    // Integers: every partial sum is exact, so the order of additions does not matter.
    for (std::size_t k = 0; k < n; ++k) data[k] = static_cast<double>(k % 1000);
    const double expected = std::accumulate(data.begin(), data.end(), 0.0);
    auto x = rt.upload(data);
    std::size_t remaining = n;
    while (remaining > 1) {
      const std::size_t groups = (remaining + group - 1) / group;  // cld(length(x), 256)
      auto partial = rt.zeros<double>(groups);
      kernel.launch(Groups{groups}, partial, x);
      x = std::move(partial);
      remaining = groups;
    }
    rt.synchronize();
    CHECK(x.to_vector().at(0) == expected);
  }
}
