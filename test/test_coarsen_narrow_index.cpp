// An OpenCL C port's 32-bit index (`const int i = get_global_id(0)`, here
// cast<int32_t>(global_index())) is coarsened like get_global_id(0) itself, on the fact that
// the launch's ndrange(0) fits it, which each launch checks (jit/coarsen/narrow_index.hpp).
// Was (issue #48): not coarsened, "indexes memory by a value other than get_global_id(0)", and
// the int nstream ran at 0.35x of an OpenMP loop where the int64_t one ran at 0.87x.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "runtime/launch_state.hpp"
#include "spvjit/debug.hpp"
#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

// PRK's nstream, `A[i] += B[i] + scalar * C[i]`, its index an int (Signed) or an unsigned int.
template <class Index>
KernelDef nstream(const char* name) {
  KernelBuilder kb(name);
  auto a = kb.param<Global<double>>("A");
  auto b = kb.param<Const<double>>("B");
  auto c = kb.param<Const<double>>("C");
  auto scalar = kb.param<double>("scalar");
  auto i = cast<Index>(kb.global_index());  // const int i = get_global_id(0);
  kb.if_(kb.in_ndrange(), [&] { a[i] += b[i] + scalar * c[i]; });
  return kb.finish();
}

unsigned index_bits(Jit& jit, const KernelDef& def, const Specialization& spec = {}) {
  return detail::KernelAccess::state(jit.compile(def, spec)).facts.launch.index_bits;
}

}  // namespace

TEST_CASE("a 32-bit int index of get_global_id(0) is coarsened, bit-identical, every width") {
  const KernelDef signed_index = nstream<std::int32_t>("nstream_int");
  const KernelDef unsigned_index = nstream<std::uint32_t>("nstream_uint");
  CHECK(is_coarsened(coarse_jit(), signed_index));
  CHECK(is_coarsened(coarse_jit(), unsigned_index));
  CHECK(index_bits(coarse_jit(), signed_index) == 31);
  CHECK(index_bits(coarse_jit(), unsigned_index) == 32);
  // Not coarsened: the kernel keeps its own index, and any ndrange.
  CHECK(index_bits(scalar_jit(), signed_index) == 0);
  for (unsigned width : {0u, 2u, 4u, 8u, 16u}) {
    CAPTURE(width);
    CHECK(is_coarsened(coarse_jit(width), signed_index));
    for (std::size_t n : {std::size_t{1}, std::size_t{17}, std::size_t{1001}, std::size_t{65537}}) {
      compare_runs<double>(signed_index, n, 3.0, coarse_jit(width));
      compare_runs<double>(unsigned_index, n, -0.5, coarse_jit(width));
    }
  }
}

TEST_CASE("a launch past what the coarsened kernel's 32-bit index holds is refused by name") {
  auto& rt = test::runtime();
  Kernel k = coarse_jit().compile(nstream<std::int32_t>("nstream_int"));
  auto a = rt.zeros<double>(16), b = rt.zeros<double>(16), c = rt.zeros<double>(16);
  const std::size_t past = (std::size_t{1} << 31) + 1;
  try {
    k.launch(NDRange{past}, a, b, c, 2.0);
    FAIL("the launch was not refused");
  } catch (const UserError& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find("nstream_int") != std::string::npos);
    CHECK(what.find("2147483649 work-items in dimension 0") != std::string::npos);
    CHECK(what.find("an int32_t") != std::string::npos);
    CHECK(what.find("at most 2147483648") != std::string::npos);
  }
  rt.synchronize();
  // A static ndrange(0) past 2^31 keeps the kernel's own wrapping index, which each lane
  // computes for itself: its accesses are one element per lane, and no launch limit applies.
  const KernelDef def = nstream<std::int32_t>("nstream_int_static");
  Specialization big;
  big.ndrange = NDRange{(std::size_t{1} << 31) + 64};
  big.workgroup = WorkGroup{64};
  const std::string big_spirv = spirv_text(coarse_jit(), def, big);
  for (const char* vector :
       {"OpLoad %v2double", "OpLoad %v4double", "OpLoad %v8double", "OpLoad %v16double"}) {
    CHECK(big_spirv.find(vector) == std::string::npos);  // no W-element load
  }
  Specialization fits;
  fits.ndrange = NDRange{std::size_t{1} << 20};
  fits.workgroup = WorkGroup{64};
  CHECK(is_coarsened(coarse_jit(), def, fits));
}
