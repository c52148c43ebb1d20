// The plan chosen by cost (issue #65, step 2; jit/coarsen/plans.hpp). A row-major kernel whose
// dimension 0 can be coarsened only with one element per lane (paid for by a loop free of such
// accesses) is coarsened in dimension 1, whose loads are contiguous, by cost (the default); the
// order (SPVJIT_PLAN=order, the CTest test coarsen/plan_by_cost_off), which tries dimension 1
// only where dimension 0 fails, coarsens it in dimension 0. Either way it equals the scalar
// kernel bit for bit.
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

// out(r, c) = x(r, c) * p + r on a row-major rows x cols grid, dimension 0 the rows; p is
// `terms` steps of p = p / 2 + k from (r + c) / 4, a loop of arithmetic only.
KernelDef rows_polynomial() {
  KernelBuilder kb("rows_polynomial");
  auto out = kb.param<Global<float>>("out");
  auto x = kb.param<Const<float>>("x");
  auto cols = kb.param<std::int64_t>("cols");
  auto terms = kb.param<std::int64_t>("terms");
  auto r = kb.global_index(0);
  auto c = kb.global_index(1);
  kb.if_(kb.in_ndrange(), [&] {
    auto p = kb.var(0.25f * cast<float>(r + c));
    kb.for_(kb.lit<std::int64_t>(0), terms, kb.lit<std::int64_t>(1),
            [&](Val<std::int64_t> k) { p = p.get() * 0.5f + cast<float>(k); });
    auto at = r * cols + c;
    out[at] = x[at] * p.get() + cast<float>(r);
  });
  return kb.finish();
}

// Which plan the environment asks for: "cost" unless SPVJIT_PLAN says otherwise.
std::string plan_mode() {
  const auto choice = detail::env_choice(
      "SPVJIT_PLAN", {"order", "cost", "device", "vectors", "strips", "vectors-1", "strips-1"});
  static const char* names[] = {"order",  "cost",      "device",  "vectors",
                                "strips", "vectors-1", "strips-1"};
  return names[choice.value_or(1)];
}

}  // namespace

TEST_CASE("plans: a row-major kernel legal in both dimensions, by order and by cost") {
  const KernelDef def = rows_polynomial();
  Jit& coarse = coarse_jit();
  const detail::EntryLaunch& launch = detail::KernelAccess::state(coarse.compile(def)).facts.launch;
  const std::string mode = plan_mode();
  CAPTURE(mode);
  CHECK((launch.coarsen > 1) == (mode != "device"));
  if (mode == "order" || mode == "vectors") {
    CHECK(launch.coarsen_dimension == 0);  // legal there: the order's first
  } else if (mode != "device") {
    // Contiguous there: cheaper. Strips are legal in neither dimension (no interior test), so
    // asked for, the cheapest plan is made.
    CHECK(launch.coarsen_dimension == 1);
  }
  auto& rt = test::runtime();
  for (auto [rows, cols] :
       {std::pair<std::size_t, std::size_t>{1, 1}, {3, 17}, {17, 100}, {64, 3}, {5, 1001}}) {
    CAPTURE(rows);
    CAPTURE(cols);
    const std::size_t n = rows * cols;
    const std::vector<float> x = test::random_data<float>(n, 11);
    std::vector<float> outputs[2];
    Jit* jits[2] = {&scalar_jit(), &coarse};
    for (int k = 0; k < 2; ++k) {
      auto X = rt.upload(x);
      auto out = rt.upload(test::random_data<float>(n, 13));
      jits[k]->compile(def).launch(NDRange{rows, cols}, out, X, static_cast<std::int64_t>(cols),
                                   std::int64_t{9});
      rt.synchronize();
      outputs[k] = out.to_vector();
    }
    check_same_bits(outputs[0], outputs[1], x);
  }
}
