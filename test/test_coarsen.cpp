// SIMD coarsening (jit/coarsen.hpp): a coarsened kernel writes exactly the bytes the scalar
// kernel writes — every element type, odd sizes (tails), every vector width, static and dynamic
// sizes — and kernels that are not element-wise are left alone and stay correct.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "spvjit/debug.hpp"
#include "spvjit/examples.hpp"
#include "test/coarsen_support.hpp"

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
  Specialization dynamic_wg;
  dynamic_wg.ndrange = NDRange{4097};
  compare_runs<float>(def, 4097, 3.0f, coarse_jit(), dynamic_wg);
}
