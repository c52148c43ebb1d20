// KernelBuilder::fastmath (KernelAbstractions' `@fastmath`), kernel-wide and in blocks, and the
// OpenCL fast-math build options: which operations get which LLVM flags, that the SPIR-V carries
// them (FPFastMathMode), that they key the caches, and that a kernel without them stays exact.
#include <doctest/doctest.h>

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "jit/fast_math_options.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {

// The lines of `ir` that compute `opcode` ("fadd", "fmul", ...), e.g. "%3 = fadd fast float".
std::vector<std::string> lines_of(const std::string& ir, const std::string& opcode) {
  std::vector<std::string> out;
  std::istringstream in(ir);
  for (std::string line; std::getline(in, line);) {
    if (line.find("= " + opcode + " ") != std::string::npos) out.push_back(line);
  }
  return out;
}

// OpDecorate <id> FPFastMathMode <mask> instructions in a SPIR-V module.
std::size_t fast_math_decorations(const std::vector<std::uint32_t>& words) {
  constexpr std::uint32_t op_decorate = 71, fp_fast_math_mode = 40;
  std::size_t count = 0;
  for (std::size_t at = 5; at < words.size();) {
    const std::uint32_t length = words[at] >> 16, opcode = words[at] & 0xffff;
    if (length == 0) break;
    if (opcode == op_decorate && length >= 3 && words[at + 2] == fp_fast_math_mode) ++count;
    at += length;
  }
  return count;
}

// out[i] = sum over j < n of x[i] * j / 3 + x[i], with `fast` flags as the caller sets them.
KernelDef scaled_sum(bool fast_before, bool fast_after) {
  KernelBuilder kb("scaled_sum");
  auto out = kb.param<Global<float>>("out");
  auto x = kb.param<Const<float>>("x");
  auto n = kb.param<std::int32_t>("n");
  if (fast_before) kb.fastmath();
  auto i = kb.global_index();
  auto acc = kb.var(0.0f);
  kb.for_(0, n, [&](Val<std::int32_t> j) { acc += x[i] * cast<float>(j) / 3.0f; });
  out[i] = acc + x[i];
  if (fast_after) kb.fastmath();
  return kb.finish();
}

}  // namespace

TEST_CASE("fastmath: a kernel without it has no fast-math flags") {
  const std::string ir = scaled_sum(false, false).to_string();
  for (const char* op : {"fadd", "fmul", "fdiv"}) {
    CAPTURE(op);
    const auto lines = lines_of(ir, op);
    CHECK_FALSE(lines.empty());
    for (const auto& line : lines)
      CHECK(line.find(std::string(op) + " float") != std::string::npos);
  }
  CHECK(fast_math_decorations(test::jit().spirv(scaled_sum(false, false))) == 0);
}

TEST_CASE("fastmath: kernel-wide, on every floating-point operation built before or after it") {
  for (bool before : {true, false}) {
    CAPTURE(before);
    const std::string ir = scaled_sum(before, !before).to_string();
    for (const char* op : {"fadd", "fmul", "fdiv"}) {
      CAPTURE(op);
      const auto lines = lines_of(ir, op);
      REQUIRE_FALSE(lines.empty());
      for (const auto& line : lines) {
        CAPTURE(line);
        CHECK(line.find(std::string(op) + " fast float") != std::string::npos);
      }
    }
  }
}

TEST_CASE("fastmath: the flags asked for, combined over calls") {
  KernelBuilder kb("some_flags");
  auto out = kb.param<Global<float>>("out");
  auto x = kb.param<Const<float>>("x");
  kb.fastmath(FastMath::reassociate);
  kb.fastmath(FastMath::no_signed_zeros);
  auto i = kb.global_index();
  out[i] = x[i] + 1.0f;
  const auto lines = lines_of(kb.finish().to_string(), "fadd");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("fadd reassoc nsz float") != std::string::npos);
}

TEST_CASE(
    "fastmath: a block flags only what it builds, blocks nest, and mul_add keeps both flags") {
  KernelBuilder kb("blocks");
  auto out = kb.param<Global<float>>("out");
  auto x = kb.param<Const<float>>("x");
  auto i = kb.global_index();
  Val<float> v = x[i];
  auto exact = v * 2.0f;
  Val<float> outer, inner, fused;
  kb.fastmath(FastMath::reassociate, [&] {
    outer = v * 3.0f;
    kb.fastmath(FastMath::no_nans, [&] { inner = v * 4.0f; });
    fused = mul_add(v, 5.0f, outer);
  });
  auto after = v * 6.0f;
  out[i] = exact + outer + inner + fused + after;
  const std::string ir = kb.finish().to_string();
  const auto muls = lines_of(ir, "fmul");
  REQUIRE(muls.size() == 5);  // exact, outer, inner, fused's, after: in the order built
  CHECK(muls[0].find("fmul float") != std::string::npos);
  CHECK(muls[1].find("fmul reassoc float") != std::string::npos);
  CHECK(muls[2].find("fmul reassoc nnan float") != std::string::npos);
  CHECK(muls[3].find("fmul reassoc contract float") != std::string::npos);
  CHECK(muls[4].find("fmul float") != std::string::npos);
}

TEST_CASE("fastmath: a block whose body throws leaves the builder exact") {
  KernelBuilder kb("thrown");
  auto out = kb.param<Global<float>>("out");
  auto x = kb.param<Const<float>>("x");
  auto i = kb.global_index();
  CHECK_THROWS_AS(kb.fastmath([&] { throw std::runtime_error("body failed"); }),
                  std::runtime_error);
  out[i] = x[i] * 2.0f;
  const auto muls = lines_of(kb.finish().to_string(), "fmul");
  REQUIRE(muls.size() == 1);
  CHECK(muls[0].find("fmul float") != std::string::npos);
}

TEST_CASE("fastmath: on a finished kernel it is refused by name") {
  KernelBuilder kb("finished");
  kb.finish();
  CHECK_THROWS_WITH_AS(kb.fastmath(), doctest::Contains("fastmath"), UserError);
}

TEST_CASE(
    "fastmath: the SPIR-V carries the flags, the caches tell the kernels apart, and the "
    "answers hold") {
  const KernelDef exact = scaled_sum(false, false);
  const KernelDef fast = scaled_sum(true, false);
  CHECK(exact.hash() != fast.hash());
  CHECK(fast_math_decorations(test::jit().spirv(fast)) > 0);

  Jit jit(test::runtime(), JitOptions{.disk_cache = false});
  Kernel k_exact = jit.compile(exact);
  const std::uint64_t compiled = jit.stats().compiles;
  Kernel k_fast = jit.compile(fast);
  CHECK(jit.stats().compiles > compiled);  // not served the exact kernel's program
  // Every partial sum is an integer times x below 2^24 / 3: exact in any order but for the
  // division, which arcp may turn into a multiply by 1/3 (one ulp per term at most).
  const std::size_t items = 256;
  const std::int32_t n = 300;
  std::vector<float> x(items);
  for (std::size_t k = 0; k < items; ++k) x[k] = static_cast<float>(k % 7) - 3.0f;
  auto X = test::runtime().upload(x);
  auto A = test::runtime().zeros<float>(items);
  auto B = test::runtime().zeros<float>(items);
  k_exact.launch(NDRange{items}, A, X, n);
  k_fast.launch(NDRange{items}, B, X, n);
  test::runtime().synchronize();
  const auto a = A.to_vector();
  const auto b = B.to_vector();
  for (std::size_t k = 0; k < items; ++k) {
    CAPTURE(k);
    float want = 0.0f;
    for (std::int32_t j = 0; j < n; ++j) want += x[k] * static_cast<float>(j) / 3.0f;
    want += x[k];
    CHECK(a[k] == want);  // without fastmath: the host's sum, in the host's order, bit for bit
    CHECK(b[k] == doctest::Approx(want).epsilon(1e-5));
  }
}

TEST_CASE("fastmath: -cl-fast-relaxed-math and its parts in build_options apply to IL programs") {
  using detail::fast_math_of_build_options;
  CHECK(fast_math_of_build_options("") == FastMath::none);
  CHECK(fast_math_of_build_options("-cl-fast-relaxed-math") == FastMath::all);
  CHECK(fast_math_of_build_options("  -cl-mad-enable\t-Werror ") == FastMath::contract);
  CHECK(fast_math_of_build_options("-cl-finite-math-only -cl-no-signed-zeros") ==
        (FastMath::no_nans | FastMath::no_infs | FastMath::no_signed_zeros));
  CHECK(fast_math_of_build_options("-cl-unsafe-math-optimizations") ==
        (FastMath::reassociate | FastMath::contract | FastMath::no_signed_zeros |
         FastMath::reciprocal | FastMath::approximate_functions));
  CHECK(fast_math_of_build_options("-cl-fast-relaxed-maths -DX=-cl-mad-enable") == FastMath::none);

  Jit relaxed(test::runtime(),
              JitOptions{.build_options = "-cl-fast-relaxed-math", .disk_cache = false});
  CHECK(fast_math_decorations(relaxed.spirv(scaled_sum(false, false))) > 0);
  // PoCL takes the option for an IL program too, and the kernel runs.
  Kernel k = relaxed.compile(scaled_sum(false, false));
  const std::vector<float> x{1.0f, -2.0f, 0.5f};
  auto X = test::runtime().upload(x);
  auto Out = test::runtime().zeros<float>(x.size());
  k.launch(NDRange{x.size()}, Out, X, std::int32_t{4});
  test::runtime().synchronize();
  const auto out = Out.to_vector();
  for (std::size_t i = 0; i < x.size(); ++i) {
    CHECK(out[i] == doctest::Approx(x[i] * (0.0f + 1.0f + 2.0f + 3.0f) / 3.0f + x[i]));
  }
}

TEST_CASE("fastmath: the flags' names") {
  CHECK(to_string(FastMath::none) == "none");
  CHECK(to_string(FastMath::all) == "all");
  CHECK(to_string(FastMath::reassociate | FastMath::no_nans) == "reassociate | no_nans");
}
