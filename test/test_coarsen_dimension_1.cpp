// Kernels whose contiguous index is get_global_id(1) (OpenCL C's row-major habit: dimension 0
// walks the rows) coarsened in dimension 1 (issue #65, step 3; jit/coarsen/swap_dimensions.hpp),
// bit for bit against the scalar kernel: odd sizes and padded ranges, a static ndrange and
// workgroup, several vectors per work-item, 3-D, a 32-bit column index, and a failing access
// reported by its own work-item. Each case also checks that its kernels were coarsened there (on
// by default), or with SPVJIT_COARSEN_DIMENSION_1=off (the CTest test coarsen/dimension_1_off)
// that they were left as they were.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/env.hpp"
#include "runtime/launch_state.hpp"
#include "test/coarsen_support.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

bool dimension_1_on() { return detail::env_flag("SPVJIT_COARSEN_DIMENSION_1").value_or(true); }

// The dimension the kernel's launches divide, 0 when it was not coarsened.
unsigned coarsened_dimension(Jit& jit, const KernelDef& def, const Specialization& spec = {}) {
  const detail::EntryLaunch& launch =
      detail::KernelAccess::state(jit.compile(def, spec)).facts.launch;
  return launch.coarsen > 1 ? launch.coarsen_dimension : 0;
}

void check_coarsened_in_dimension_1(Jit& jit, const KernelDef& def,
                                    const Specialization& spec = {}) {
  CAPTURE(def.name());
  if (dimension_1_on()) {
    CHECK(coarsened_dimension(jit, def, spec) == 1);
  } else {
    CHECK(detail::KernelAccess::state(jit.compile(def, spec)).facts.launch.coarsen == 1);
  }
}

// out(r, c) = a * x(r, c) + r + 0.25 c on a row-major rows x cols grid, the row dimension 0 of
// the launch: x's element at r * cols + c, one element per lane for dimension 0.
template <class Index>
KernelDef scale_rows(const char* name) {
  KernelBuilder kb(name);
  auto out = kb.param<Global<float>>("out");
  auto x = kb.param<Const<float>>("x");
  auto a = kb.param<float>("a");
  auto cols = kb.param<std::int64_t>("cols");
  auto r = kb.global_index(0);
  auto c = cast<Index>(kb.global_index(1));  // `int c = get_global_id(1)` where Index is int
  kb.if_(kb.in_ndrange(), [&] {
    auto at = r * cols + cast<std::int64_t>(c);
    out[at] = a * x[at] + cast<float>(r) + 0.25f * cast<float>(c);
  });
  return kb.finish();
}

// The same over a 3-D launch (plane, row, column) = dimensions (2, 0, 1).
KernelDef scale_planes() {
  KernelBuilder kb("scale_planes");
  auto out = kb.param<Global<float>>("out");
  auto x = kb.param<Const<float>>("x");
  auto rows = kb.param<std::int64_t>("rows");
  auto cols = kb.param<std::int64_t>("cols");
  auto r = kb.global_index(0), c = kb.global_index(1), p = kb.global_index(2);
  kb.if_(kb.in_ndrange(), [&] {
    auto at = (p * rows + r) * cols + c;
    out[at] = 2.0f * x[at] - cast<float>(p);
  });
  return kb.finish();
}

// Runs `def` over NDRange{rows, cols} with both Jits (and `spec`, `given`) and compares the
// output grids' bits.
void compare_rows(const KernelDef& def, std::size_t rows, std::size_t cols, Jit& coarse,
                  const Specialization& spec = {}, const WorkGroup* given = nullptr) {
  auto& rt = test::runtime();
  const std::size_t n = rows * cols;
  const std::vector<float> x = test::random_data<float>(n, 5);
  std::vector<float> outputs[2];
  Jit* jits[2] = {&scalar_jit(), &coarse};
  for (int k = 0; k < 2; ++k) {
    Kernel kernel = jits[k]->compile(def, spec);
    auto X = rt.upload(x);
    auto out = rt.upload(test::random_data<float>(n, 7));
    const auto c = static_cast<std::int64_t>(cols);
    if (given) {
      kernel.launch(NDRange{rows, cols}, *given, out, X, 1.5f, c);
    } else {
      kernel.launch(NDRange{rows, cols}, out, X, 1.5f, c);
    }
    rt.synchronize();
    outputs[k] = out.to_vector();
  }
  CAPTURE(rows);
  CAPTURE(cols);
  check_same_bits(outputs[0], outputs[1], x, {}, true);
}

}  // namespace

TEST_CASE("coarsen dimension 1: row-major kernels equal the scalar kernel bit for bit") {
  const KernelDef def = scale_rows<std::int64_t>("scale_rows");
  for (unsigned width : {0u, 4u, 16u}) {
    CAPTURE(width);
    check_coarsened_in_dimension_1(coarse_jit(width), def);
    for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{1, 1},
                              {3, 17},
                              {5, 64},
                              {17, 100},
                              {64, 3},
                              {2, 1001}}) {
      compare_rows(def, rows, cols, coarse_jit(width));
    }
  }
  // Several vectors per work-item, and a workgroup given at launch that pads both dimensions.
  check_coarsened_in_dimension_1(multi_vector_jit(4, 8), def);
  compare_rows(def, 7, 1000, multi_vector_jit(4, 8));
  const WorkGroup given{3, 5};
  compare_rows(def, 7, 130, coarse_jit(), {}, &given);
}

TEST_CASE("coarsen dimension 1: static ndranges and workgroups, padded and exact") {
  const KernelDef def = scale_rows<std::int64_t>("scale_rows_static");
  for (const auto& [nd, wg] : {std::pair<NDRange, WorkGroup>{NDRange{6, 64}, WorkGroup{2, 4}},
                               {NDRange{5, 50}, WorkGroup{1, 3}},
                               {NDRange{9, 33}, WorkGroup{3, 1}}}) {
    Specialization spec;
    spec.ndrange = nd;
    spec.workgroup = wg;
    CAPTURE(nd.to_string());
    check_coarsened_in_dimension_1(coarse_jit(), def, spec);
    compare_rows(def, nd.size[0], nd.size[1], coarse_jit(), spec);
  }
  Specialization group_only = test::static_workgroup(WorkGroup{4, 2});
  check_coarsened_in_dimension_1(coarse_jit(), def, group_only);
  compare_rows(def, 11, 301, coarse_jit(), group_only);
}

TEST_CASE("coarsen dimension 1: a 3-D launch and a 32-bit column index") {
  auto& rt = test::runtime();
  const KernelDef planes = scale_planes();
  check_coarsened_in_dimension_1(coarse_jit(), planes);
  const std::size_t rows = 5, cols = 37, depth = 3, n = rows * cols * depth;
  const std::vector<float> x = test::random_data<float>(n, 9);
  std::vector<float> outputs[2];
  Jit* jits[2] = {&scalar_jit(), &coarse_jit()};
  for (int k = 0; k < 2; ++k) {
    auto X = rt.upload(x);
    auto out = rt.upload(test::random_data<float>(n, 11));
    jits[k]->compile(planes).launch(NDRange{rows, cols, depth}, out, X,
                                    static_cast<std::int64_t>(rows),
                                    static_cast<std::int64_t>(cols));
    rt.synchronize();
    outputs[k] = out.to_vector();
  }
  check_same_bits(outputs[0], outputs[1], x, {}, true);

  const KernelDef narrow = scale_rows<std::int32_t>("scale_rows_int");
  check_coarsened_in_dimension_1(coarse_jit(), narrow);
  compare_rows(narrow, 9, 1003, coarse_jit());
  if (coarsened_dimension(coarse_jit(), narrow) != 1) return;
  // The launch checks dimension 1 against the 32-bit index, as it checks dimension 0 for a
  // kernel coarsened there.
  auto out = rt.zeros<float>(16), X = rt.zeros<float>(16);
  const std::size_t past = (std::size_t{1} << 31) + 1;
  CHECK_THROWS_WITH_AS(
      coarse_jit().compile(narrow).launch(NDRange{1, past}, out, X, 1.0f, std::int64_t{16}),
      doctest::Contains("2147483649 work-items in dimension 1"), UserError);
}

TEST_CASE("coarsen dimension 1: a failing access names its own work-item") {
  auto& rt = test::runtime();
  // Row r writes columns c + r: row 1's last work-item writes past the view's 8 columns.
  KernelBuilder kb("shifted_rows");
  auto out = kb.param<Global<float>>("out");
  auto rows = kb.param<std::int64_t>("rows");
  auto cols = kb.param<std::int64_t>("cols");
  auto A = view<RowMajor>(out, rows, cols);
  auto r = kb.global_index(0), c = kb.global_index(1);
  kb.if_(kb.in_ndrange(), [&] { A(r, c + r) = 2.0f; });
  const KernelDef def = kb.finish();
  for (unsigned width : {4u, 8u}) {
    CAPTURE(width);
    check_coarsened_in_dimension_1(coarse_jit(width), def);
    Kernel k = coarse_jit(width).compile(def);
    auto buf = rt.zeros<float>(16);
    k.launch(NDRange{2, 8}, buf, std::int64_t{2}, std::int64_t{8});
    try {
      rt.synchronize();
      FAIL("no BoundsError");
    } catch (const BoundsError& e) {
      CHECK(std::string(e.what()) ==
            "kernel 'shifted_rows': out(1, 8) is out of bounds: out is viewed as (2, 8) "
            "(work-item (1, 7) of ndrange (2, 8))");
    }
    // Row 0 ran whole; row 1's column 0 is nobody's.
    const std::vector<float> got = buf.to_vector();
    CHECK(got[0] == 2.0f);
    CHECK(got[7] == 2.0f);
    CHECK(got[8] == 0.0f);
  }
}
