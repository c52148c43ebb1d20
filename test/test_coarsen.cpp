// SIMD coarsening (jit/coarsen/coarsen.hpp): a coarsened kernel writes exactly the bytes the scalar
// kernel writes — every element type, odd sizes (tails), every vector width, static and dynamic
// sizes — and kernels that are not element-wise are left alone and stay correct.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "runtime/launch_state.hpp"
#include "spvjit/debug.hpp"
#include "spvjit/examples.hpp"
#include "test/coarsen_support.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

const std::size_t odd_sizes[] = {1, 2, 7, 15, 16, 17, 63, 100, 1001, 4097, 65537};

template <class T>
void saxpy_identical() {
  using A = arithmetic_t<T>;
  const KernelDef def = examples::saxpy(scalar_of<T>);
  CHECK(is_coarsened(coarse_jit(), def));
  CHECK_FALSE(is_coarsened(scalar_jit(), def));
  for (std::size_t n : odd_sizes) compare_runs<T>(def, n, A(1.75), coarse_jit());
}

}  // namespace

TEST_CASE("coarsened saxpy is bit-identical for f16, f32 and f64 on odd sizes") {
  saxpy_identical<half>();
  saxpy_identical<float>();
  saxpy_identical<double>();
}

TEST_CASE("coarsened saxpy is bit-identical for every vector width") {
  const KernelDef f32 = examples::saxpy(Scalar::F32);
  const KernelDef f16 = examples::saxpy(Scalar::F16);
  for (unsigned width : {2u, 4u, 8u, 16u}) {
    CAPTURE(width);
    CHECK(is_coarsened(coarse_jit(width), f32));
    for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{1001}}) {
      compare_runs<float>(f32, n, 0.5f, coarse_jit(width));
      compare_runs<half>(f16, n, 0.5f, coarse_jit(width));
    }
  }
}

TEST_CASE(
    "coarsened saxpy with U vectors per work-item is bit-identical, and the launch divides by "
    "U*W") {
  const KernelDef f32 = examples::saxpy(Scalar::F32);
  const KernelDef f64 = examples::saxpy(Scalar::F64);
  for (unsigned width : {2u, 16u}) {
    for (unsigned vectors : {2u, 4u, 8u}) {
      CAPTURE(width);
      CAPTURE(vectors);
      Jit& jit = multi_vector_jit(width, vectors);
      CHECK(detail::KernelAccess::state(jit.compile(f32)).facts.launch.coarsen == width * vectors);
      // Sizes below one vector, one short of and one past a work-item's strip, many strips with
      // a straddling vector: the fast, full and tail paths of the dispatcher.
      const std::size_t strip = width * vectors;
      for (std::size_t n :
           {std::size_t{1}, strip - 1, strip + 1, 3 * strip + width + 1, std::size_t{65537}}) {
        CAPTURE(n);
        compare_runs<float>(f32, n, 0.5f, jit);
        compare_runs<double>(f64, n, 0.5, jit);
      }
      // A given workgroup, and a static one: its work-items are the kernel's, one vector each.
      const WorkGroup given{4};
      compare_runs<float>(f32, 1001, 3.0f, jit, {}, &given);
      Specialization wg;
      wg.workgroup = WorkGroup{8};
      compare_runs<float>(f32, 1001, 3.0f, jit, wg);
      CHECK(detail::KernelAccess::state(jit.compile(f32, wg)).facts.launch.coarsen == width);
    }
  }
}

TEST_CASE("JitOptions::coarsen_vectors other than 1, 2, 4 or 8 is refused by name") {
  for (unsigned bad : {0u, 3u, 16u}) {
    CAPTURE(bad);
    JitOptions o;
    o.coarsen_vectors = bad;
    CHECK_THROWS_WITH_AS(Jit(runtime(), o),
                         doctest::Contains(("JitOptions::coarsen_vectors is " +
                                            std::to_string(bad) + "; expected 1, 2, 4 or 8")
                                               .c_str()),
                         UserError);
  }
}

TEST_CASE("coarsened saxpy with static and given workgroups and a static ndrange") {
  const KernelDef def = examples::saxpy(Scalar::F32);
  Specialization wg;
  wg.workgroup = WorkGroup{64};
  for (std::size_t n : {std::size_t{1}, std::size_t{63}, std::size_t{1001}, std::size_t{65537}}) {
    compare_runs<float>(def, n, 3.0f, coarse_jit(), wg);
    const WorkGroup given{32};
    compare_runs<float>(def, n, 3.0f, coarse_jit(), {}, &given);
  }
  // 1001 = 7 * 143: the workgroup divides the ndrange, the bounds check is folded away, and the
  // coarsened kernel still must not run past index 1000.
  Specialization exact;
  exact.ndrange = NDRange{1001};
  exact.workgroup = WorkGroup{7};
  CHECK(is_coarsened(coarse_jit(), def, exact));
  compare_runs<float>(def, 1001, 3.0f, coarse_jit(), exact);
  // The static geometry launches ceil(1001 / W) work-items, rounded up to whole groups of 7,
  // not 1001 of which all but a sixteenth would find nothing to do.
  const auto& fixed = detail::KernelAccess::state(coarse_jit().compile(def, exact));
  REQUIRE(fixed.facts.launch.coarsen > 1);
  const std::size_t items = (1001 + fixed.facts.launch.coarsen - 1) / fixed.facts.launch.coarsen;
  CHECK(fixed.fixed.items() == (items + 6) / 7 * 7);
  CHECK(fixed.fixed.workgroup.size[0] == 7);
  Specialization dynamic_wg;
  dynamic_wg.ndrange = NDRange{4097};
  compare_runs<float>(def, 4097, 3.0f, coarse_jit(), dynamic_wg);
}

TEST_CASE(
    "coarsened half stores round every float as vstore_half does (NaN, subnormal, overflow)") {
  KernelBuilder kb("coarse_narrow");
  auto z = kb.param<Global<half>>("Z");
  auto x = kb.param<Const<float>>("X");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[i] = x[i]; });
  const KernelDef def = kb.finish();
  CHECK(is_coarsened(coarse_jit(), def));
  // A sweep over all 2^32 float bit patterns (every 4093rd) plus the rounding edges.
  std::vector<std::uint32_t> bits;
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += 4093)
    bits.push_back(static_cast<std::uint32_t>(u));
  for (std::uint32_t edge : {0x477fefffu, 0x477ff000u, 0x477ff001u, 0x477fffffu, 0x47800000u,
                             0x387fffffu, 0x38800000u, 0x33800000u, 0x33000000u, 0x33000001u,
                             0x33c00000u, 0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x80000000u}) {
    bits.push_back(edge);
    bits.push_back(edge | 0x80000000u);
  }
  std::vector<float> xs(bits.size());
  std::memcpy(xs.data(), bits.data(), bits.size() * sizeof(float));
  auto& rt = runtime();
  auto X = rt.upload(xs);
  std::vector<half> out[2];
  Jit* jits[2] = {&scalar_jit(), &coarse_jit()};
  for (int k = 0; k < 2; ++k) {
    auto Z = rt.zeros<half>(xs.size());
    jits[k]->compile(def).launch(NDRange{xs.size()}, Z, X);
    rt.synchronize();
    out[k] = Z.to_vector();
  }
  std::size_t differ = 0;
  for (std::size_t j = 0; j < xs.size(); ++j) {
    if (out[0][j].bits != out[1][j].bits && differ++ < 3) {
      FAIL_CHECK("float bits " << bits[j] << ": vstore_half " << out[0][j].bits << ", coarsened "
                               << out[1][j].bits);
    }
  }
  CHECK(differ == 0);
}

TEST_CASE("coarsened half loads widen every half as vload_half does") {
  KernelBuilder kb("coarse_widen");
  auto z = kb.param<Global<float>>("Z");
  auto x = kb.param<Const<half>>("X");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[i] = x[i]; });
  const KernelDef def = kb.finish();
  CHECK(is_coarsened(coarse_jit(), def));
  std::vector<half> xs(65536 + 3);  // every half, and a tail
  for (std::size_t j = 0; j < xs.size(); ++j) xs[j].bits = static_cast<std::uint16_t>(j);
  auto& rt = runtime();
  auto X = rt.upload(xs);
  std::vector<float> out[2];
  Jit* jits[2] = {&scalar_jit(), &coarse_jit()};
  for (int k = 0; k < 2; ++k) {
    auto Z = rt.zeros<float>(xs.size());
    jits[k]->compile(def).launch(NDRange{xs.size()}, Z, X);
    rt.synchronize();
    out[k] = Z.to_vector();
  }
  CHECK(std::memcmp(out[0].data(), out[1].data(), out[0].size() * sizeof(float)) == 0);
}

TEST_CASE("the coarsening width is part of the disk cache key") {
  TempDir dir("spvjit-coarsen");
  auto in = [&](bool coarsen, unsigned width) {
    JitOptions o;
    o.cache_dir = dir.path();
    o.coarsen = coarsen;
    o.coarsen_width = width;
    return o;
  };
  const KernelDef def = examples::saxpy(Scalar::F32);
  const std::size_t n = 1001;
  std::vector<float> x(n, 1.5f), y(n, 0.25f);
  auto& rt = runtime();
  auto X = rt.upload(x), Y = rt.upload(y);
  for (auto [coarsen, width] : {std::pair{false, 0u}, std::pair{true, 8u}, std::pair{true, 4u}}) {
    CAPTURE(coarsen);
    CAPTURE(width);
    Jit writer(rt, in(coarsen, width));
    (void)writer.compile(def);
    CHECK(writer.stats().disk_hits == 0);  // each setting is a key of its own
    CHECK(writer.stats().disk_writes == 1);
    Jit reader(rt, in(coarsen, width));
    Kernel k = reader.compile(def);
    CHECK(reader.stats().disk_hits == 1);
    // A binary loaded from disk launches with the width it was built for.
    auto Z = rt.zeros<float>(n);
    k.launch(NDRange{n}, Z, X, Y, 2.0f);
    rt.synchronize();
    const auto z = Z.to_vector();
    std::size_t wrong = 0;
    for (float v : z) wrong += v != 3.25f;
    CHECK(wrong == 0);
  }
}
