// libFuzzer target: launch saxpy with fuzzed ndranges, workgroups and static specializations,
// small ones mixed with hostile ones (0, negative, overflowing). Every launch must either
// throw spvjit::UserError before running anything or compute exactly the right answer over the
// ndrange and leave the elements beyond it alone. Sizes that are valid but huge are never
// produced, except beside a 0 (an empty ndrange, which runs nothing): they would only run for a
// long time.
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "fuzz/kernel_program.hpp"
#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"

using namespace spvjit;

namespace {

constexpr std::size_t small_limit = 24;  // at most 24^3 work-items per launch

Runtime& runtime() {
  static Runtime* rt = new Runtime();  // never destroyed: PoCL's teardown is not under test
  return *rt;
}
Jit& jit() {
  static Jit* j = new Jit(runtime());  // one cache: specializations repeat across inputs
  return *j;
}

std::size_t size_from(std::uint8_t b) {
  static constexpr std::size_t hostile[] = {
      0, std::size_t{1} << 63, std::numeric_limits<std::size_t>::max(), std::size_t{1} << 40};
  if (b >= 0xf0) return hostile[b % std::size(hostile)];
  return b % small_limit + 1;
}

template <class E>
E extent_from(fuzz::ByteReader& bytes) {
  const unsigned dims = bytes.byte() % 3 + 1;
  E e;
  e.dims = dims;
  for (unsigned d = 0; d < 3; ++d) e.size[d] = d < dims ? size_from(bytes.byte()) : 1;
  // 2^40 is only allowed where it overflows the total: pair it with another 2^40.
  for (unsigned d = 0; d < 3; ++d) {
    if (e.size[d] == std::size_t{1} << 40) e.size[(d + 1) % 3] = e.size[d];
  }
  return e;
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "launch_geometry_fuzzer: %s\n", what.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::ByteReader bytes(data, size);
  const std::uint8_t mode = bytes.byte();
  const NDRange nd = extent_from<NDRange>(bytes);
  const WorkGroup wg = extent_from<WorkGroup>(bytes);
  Specialization spec;
  if (mode & 1) spec.workgroup = extent_from<WorkGroup>(bytes);
  if (mode & 2) spec.ndrange = nd;
  Runtime& rt = runtime();
  Kernel k;
  try {
    k = jit().compile(examples::scale(Scalar::F32, 3), spec);
  } catch (const UserError&) {
    return 0;  // a specialization spvjit refuses: fine, as long as it says so
  }
  // An ndrange with a 0 anywhere is empty, however large the other sizes: a valid no-op that
  // must leave A alone (sizes above 2^63-1 are still refused first, as negative).
  const bool empty = nd.size[0] == 0 || nd.size[1] == 0 || nd.size[2] == 0;
  const bool small = empty || (nd.size[0] <= small_limit && nd.size[1] <= small_limit &&
                               nd.size[2] <= small_limit);
  const std::size_t n = empty ? 0 : small ? nd.size[0] * nd.size[1] * nd.size[2] : 1;
  std::vector<float> in(n + 8);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 50);
  auto A = rt.upload(std::vector<float>(n + 8, -1.0f));  // 8 guard elements past the end
  auto B = rt.upload(in);
  try {
    if (mode & 4) {
      k.launch(nd, wg, A, B);
    } else {
      k.launch(nd, A, B);
    }
    rt.synchronize();
  } catch (const UserError&) {
    return 0;
  }
  if (!small) fail("a launch over ndrange " + nd.to_string() + " was accepted");
  const auto a = A.to_vector();
  for (std::size_t i = 0; i < a.size(); ++i) {
    const float expected = i < n ? 2.0f * in[i] : -1.0f;
    if (a[i] != expected) {
      fail("ndrange " + nd.to_string() + ", workgroup " + ((mode & 4) ? wg.to_string() : "chosen") +
           ": A[" + std::to_string(i) + "] = " + std::to_string(a[i]) + ", expected " +
           std::to_string(expected));
    }
  }
  return 0;
}
