// KernelBuilder::workgroup (KernelAbstractions' `kernel(backend, 64)`): a kernel built for one
// workgroup sizes its local arrays from it, written once (issue #51, item 3), and the compile
// takes it as the static workgroup; another workgroup at compile or launch is refused by name.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;

// Each group of G reverses its elements through a local array of G + 1 (a padded tile):
// KA's `tile = @localmem Float32 (@groupsize()[1] + 1,)`.
KernelDef reverse_groups(const WorkGroup& group) {
  KernelBuilder kb("reverse_groups");
  kb.workgroup(group);
  auto x = kb.param<Const<float>>("x");
  auto y = kb.param<Global<float>>("y");
  const i64 G = kb.static_group_size(0);
  auto tile = local_array<float>(kb, {G + 1}, "tile");
  auto li = kb.local_index();
  auto gi = kb.global_index();
  tile(li + i64{1}) = x[gi];
  barrier(kb, Fence::Local);
  y[gi] = tile(G - li);
  return kb.finish();
}

std::vector<float> reversed_in_groups(std::size_t n, std::size_t g) {
  std::vector<float> out(n);
  for (std::size_t k = 0; k < n; ++k) out[k] = static_cast<float>(k / g * g + (g - 1 - k % g));
  return out;
}

}  // namespace

TEST_CASE("declared workgroup: local arrays sized from it, and the compile takes it") {
  auto& rt = test::runtime();
  std::vector<float> xs(96);
  for (std::size_t k = 0; k < xs.size(); ++k) xs[k] = static_cast<float>(k);
  for (std::size_t g : {std::size_t{16}, std::size_t{32}}) {
    CAPTURE(g);
    const KernelDef def = reverse_groups(WorkGroup{g});
    auto x = rt.upload(xs);
    auto y = rt.zeros<float>(xs.size());
    Kernel k = test::compile_checked(def);  // no Specialization: the declared workgroup
    k.launch(NDRange{xs.size()}, x, y);
    rt.synchronize();
    CHECK(y.to_vector() == reversed_in_groups(xs.size(), g));
    // The same workgroup given again is the same compile.
    test::jit().compile(def, test::static_workgroup(WorkGroup{g}));
  }
  // The workgroup is part of the definition: the same body built for two differs.
  KernelBuilder a("declared"), b("declared");
  a.workgroup(WorkGroup{8, 8});
  CHECK(a.finish().hash() != b.finish().hash());
}

TEST_CASE("declared workgroup: another at compile or launch, none declared, or twice: UserError") {
  auto& rt = test::runtime();
  const KernelDef def = reverse_groups(WorkGroup{16});
  CHECK_THROWS_WITH_AS(test::jit().compile(def, test::static_workgroup(WorkGroup{8})),
                       doctest::Contains("compiled with workgroup (8,); the kernel was built for "
                                         "workgroup (16,) (KernelBuilder::workgroup)"),
                       UserError);
  Kernel k = test::jit().compile(def);
  auto x = rt.zeros<float>(64), y = rt.zeros<float>(64);
  CHECK_THROWS_AS(k.launch(NDRange{64}, WorkGroup{8}, x, y), UserError);
  rt.synchronize();

  KernelBuilder none("no_workgroup");
  CHECK_THROWS_WITH_AS(none.static_group_size(0),
                       doctest::Contains("declares no workgroup; call workgroup(WorkGroup{...})"),
                       UserError);
  KernelBuilder twice("twice");
  twice.workgroup(WorkGroup{4, 4});
  CHECK(twice.static_group_size(1) == 4);
  CHECK(twice.static_group_size(2) == 1);
  CHECK_THROWS_WITH_AS(twice.workgroup(WorkGroup{4}), doctest::Contains("declared already (4,4)"),
                       UserError);
  CHECK_THROWS_WITH_AS(twice.static_group_size(3), doctest::Contains("expected 0, 1 or 2"),
                       UserError);
  KernelBuilder empty("empty_group");
  CHECK_THROWS_WITH_AS(empty.workgroup(WorkGroup{4, 0}), doctest::Contains("none of size 0"),
                       UserError);
}
