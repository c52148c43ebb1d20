// Kernels with barriers inside loops, which PoCL 6.0 computed silently wrong until patch 0004
// (third_party/pocl/patches): Rodinia's hotspot and Blelloch scans whose work-items decide after
// the last barrier loop whether they write. On the PoCL third_party/pocl/build.sh builds they
// must be right; on a PoCL without the patch spvjit refuses them (jit/device/barrier_tails.hpp), so
// these tests fail there too. Also: that PoCL's markers, and wide-vector builtins unsplit.
#include <doctest/doctest.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "jit/device/barrier_tails.hpp"
#include "jit/device/pocl_fixes.hpp"
#include "jit/specialize.hpp"
#include "spvjit/raw_module.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;

// test/data/pocl_barrier_loops/<name>.cl as clang-15 -O2 compiled it at build time.
std::string bitcode(const std::string& name) {
  std::ifstream in(std::string(SPVJIT_BARRIER_LOOPS_BITCODE_DIR) + "/" + name + ".bc",
                   std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext& context, const std::string& bits) {
  context.setOpaquePointers(false);
  auto m = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bits, "kernel"), context);
  REQUIRE(static_cast<bool>(m));
  return std::move(*m);
}

// The builder's Blelloch scan of n ints (a power of two, 2 <= n <= 256) by one work-group of
// 128: up-sweep and down-sweep as `while` loops with a barrier inside (KernelAbstractions'
// `while d > 0; @synchronize; ...; end`). The work-items active in the down-sweep's last level
// write the results; `active` starts true (a one-element scan has no level), n >= 2 sets it.
KernelDef builder_scan() {
  KernelBuilder kb("scan_active");
  auto out = kb.param<Global<int>>("out");
  auto in = kb.param<Const<int>>("in");
  auto n = kb.param<i64>("n");
  auto t = local_linear(kb);
  auto tmp = local_array<int>(kb, {256}, "tmp");
  auto m = n / 2;
  kb.if_(t < m, [&] {
    tmp(2 * t) = in[2 * t];
    tmp(2 * t + 1) = in[2 * t + 1];
  });
  auto offset = kb.var(i64{1});
  auto d = kb.var(m);
  kb.while_([&] { return d > 0; }, [&] {  // up-sweep
    barrier(kb, Fence::Local);
    kb.if_(t < d, [&] {
      auto ai = offset * (2 * t + 1) - 1;
      auto bi = offset * (2 * t + 2) - 1;
      tmp(bi) += tmp(ai);
    });
    offset *= 2;
    d /= 2;
  });
  kb.if_(t == 0, [&] { tmp(n - 1) = 0; });
  auto active = kb.var(true);
  d = kb.lit(i64{1});
  kb.while_([&] { return d < n; }, [&] {  // down-sweep
    offset /= 2;
    barrier(kb, Fence::Local);
    active = t < d;
    kb.if_(active, [&] {
      auto ai = offset * (2 * t + 1) - 1;
      auto bi = offset * (2 * t + 2) - 1;
      Val<int> x = tmp(ai);
      tmp(ai) = tmp(bi);
      tmp(bi) += x;
    });
    barrier(kb, Fence::Local);
    d *= 2;
  });
  kb.if_(active, [&] {
    out[2 * t] = tmp(2 * t);
    out[2 * t + 1] = tmp(2 * t + 1);
  });
  return kb.finish();
}

// A tree reduction as test/ka/reduce.cpp writes it: a barrier loop, then `if (li == 0)`.
KernelDef builder_reduce() {
  KernelBuilder kb("reduce_group");
  auto partial = kb.param<Global<int>>("partial");
  auto x = kb.param<Const<int>>("x");
  auto gs = kb.group_size(0);
  auto li = local_linear(kb);
  auto scratch = local_array<int>(kb, {256}, "scratch");
  scratch(li) = x[group_linear(kb) * gs + li];
  barrier(kb, Fence::Local);
  auto s = kb.var(gs / 2);
  kb.while_([&] { return s > 0; },
            [&] {
              kb.if_(li < s, [&] { scratch(li) += scratch(li + s); });
              barrier(kb, Fence::Local);
              s /= 2;
            });
  kb.if_(li == 0, [&] { partial[group_linear(kb)] = scratch(0); });
  return kb.finish();
}

// Runs a scan kernel (out, in, n) on one work-group of 128 for each n; elements from n on must
// stay untouched.
template <class N, class Launch>
void check_scan(Launch&& launch) {
  auto& rt = test::runtime();
  std::vector<int> host(256);
  for (int i = 0; i < 256; ++i) host[static_cast<std::size_t>(i)] = (i * 7) % 13;
  for (int n : {2, 16, 64, 256}) {
    CAPTURE(n);
    auto in = rt.upload(host);
    auto out = rt.upload(std::vector<int>(256, -7));
    launch(out, in, static_cast<N>(n));
    rt.synchronize();
    const auto got = out.to_vector();
    int sum = 0, wrong = 0;
    for (int i = 0; i < 256; ++i) {
      const int want = i < n ? sum : -7;
      if (got[static_cast<std::size_t>(i)] != want && wrong++ < 4) {
        CHECK_MESSAGE(false, "out[" << i << "] = " << got[static_cast<std::size_t>(i)]
                                    << ", expected " << want);
      }
      sum += host[static_cast<std::size_t>(i)];
    }
    CHECK(wrong == 0);
  }
}

}  // namespace

TEST_CASE(
    "PoCL barrier loops: Rodinia's hotspot (clang -O2, raw module) matches a host reference") {
  // hotspot.c's launch: 16x16 work-groups, each computing a pyramid of `iteration` steps on its
  // (16 - 2 * iteration)^2 inner cells; the borders clamp to the grid's edge.
  const KernelDef def = kernel_from_bitcode(bitcode("hotspot_kernel"), "hotspot");
  Kernel k = test::jit().compile(def);
  auto& rt = test::runtime();
  const int rows = 64, cols = 48, block = 16;
  const std::size_t cells = static_cast<std::size_t>(rows * cols);
  std::vector<float> power(cells), temp(cells);
  for (std::size_t i = 0; i < cells; ++i) {
    power[i] = 0.5f + static_cast<float>(i % 7) * 0.1f;
    temp[i] = 320.0f + static_cast<float>(i * 37 % 11);
  }
  const float cap = 0.5f, rx = 2.0f, ry = 3.0f, rz = 50.0f, step = 0.01f;
  for (int iteration : {1, 2, 3}) {
    CAPTURE(iteration);
    const int border = iteration, small = block - 2 * iteration;
    const std::size_t block_cols = static_cast<std::size_t>((cols + small - 1) / small);
    const std::size_t block_rows = static_cast<std::size_t>((rows + small - 1) / small);
    auto p = rt.upload(power);
    auto src = rt.upload(temp);
    auto dst = rt.upload(std::vector<float>(cells, -1.0f));
    k.launch(NDRange{16 * block_cols, 16 * block_rows}, WorkGroup{16, 16}, iteration, p, src, dst,
             cols, rows, border, border, cap, rx, ry, rz, step);
    rt.synchronize();
    std::vector<float> t = temp, next(cells);
    auto at = [&](int r, int c) {
      r = std::clamp(r, 0, rows - 1);
      c = std::clamp(c, 0, cols - 1);
      return t[static_cast<std::size_t>(r * cols + c)];
    };
    for (int it = 0; it < iteration; ++it) {
      for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
          const float x = at(r, c);
          next[static_cast<std::size_t>(r * cols + c)] =
              x + step / cap *
                      (power[static_cast<std::size_t>(r * cols + c)] +
                       (at(r + 1, c) + at(r - 1, c) - 2.0f * x) / ry +
                       (at(r, c + 1) + at(r, c - 1) - 2.0f * x) / rx + (80.0f - x) / rz);
        }
      }
      t = next;
    }
    const auto got = dst.to_vector();
    int wrong = 0;
    for (std::size_t i = 0; i < cells; ++i) {
      // The kernel multiplies by reciprocals and may contract to fma: a few ulp of 320.
      if (!(std::abs(got[i] - t[i]) <= 1e-3f) && wrong++ < 4) {
        CHECK_MESSAGE(false, "cell " << i << ": " << got[i] << ", expected " << t[i]);
      }
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE(
    "PoCL barrier loops: a Blelloch scan writing after its barrier loops (OpenCL C, clang -O2)") {
  const KernelDef def = kernel_from_bitcode(bitcode("scan_active"), "scan_active");
  Kernel k = test::jit().compile(def, test::static_workgroup(WorkGroup{128}));
  check_scan<int>([&](auto& out, auto& in, int n) { k.launch(NDRange{128}, in, out, n); });
}

TEST_CASE("PoCL barrier loops: the same Blelloch scan written with the builder's while_ loops") {
  Kernel k = test::compile_checked(builder_scan(), test::static_workgroup(WorkGroup{128}));
  check_scan<i64>([&](auto& out, auto& in, i64 n) { k.launch(NDRange{128}, out, in, n); });
}

TEST_CASE(
    "PoCL barrier loops: the check for an unpatched PoCL finds these kernels and passes a "
    "reduction") {
  llvm::LLVMContext context;
  for (const char* name : {"hotspot_kernel", "scan_active"}) {
    CAPTURE(name);
    auto m = parse(context, bitcode(name));
    const llvm::Function* kernel =
        m->getFunction(std::string(name) == "scan_active" ? "scan_active" : "hotspot");
    REQUIRE(kernel);
    CHECK(detail::barrier_tail_hazard(*kernel).has_value());
  }
  llvm::LLVMContext builder_context;
  const auto spec = test::static_workgroup(WorkGroup{128});
  auto scan = detail::specialize(builder_context, detail::kernel_module(builder_scan()), spec);
  const auto hazard = detail::barrier_tail_hazard(*scan->getFunction("scan_active"));
  REQUIRE(hazard.has_value());
  CHECK(hazard->find("after a loop with a barrier tests a value the loop's zero-trip path knows") !=
        std::string::npos);
  auto reduce = detail::specialize(builder_context, detail::kernel_module(builder_reduce()), spec);
  CHECK_FALSE(detail::barrier_tail_hazard(*reduce->getFunction("reduce_group")).has_value());
  // Any PoCL without the marker is guarded, unless it runs the cbs method; others are not.
  const char* method = std::getenv("POCL_WORK_GROUP_METHOD");
  const std::string saved = method ? method : "";
  for (bool cbs : {false, true}) {
    CAPTURE(cbs);
    DeviceInfo pocl;
    pocl.platform_name = "Portable Computing Language";
    pocl.platform_version = "OpenCL 3.0 PoCL 6.0+debian  Linux, Release";
    if (cbs) {
      setenv("POCL_WORK_GROUP_METHOD", "cbs", 1);
    } else {
      unsetenv("POCL_WORK_GROUP_METHOD");
    }
    CHECK(detail::may_have(pocl, detail::PoclBug::BarrierTails) == !cbs);
    pocl.platform_version = "OpenCL 3.0 PoCL 6.0+debian+spvjit-barrier-tails  Linux, Release";
    CHECK_FALSE(detail::may_have(pocl, detail::PoclBug::BarrierTails));
    DeviceInfo other;
    other.platform_name = "Intel(R) OpenCL";
    other.cpu = true;
    CHECK_FALSE(detail::may_have(other, detail::PoclBug::BarrierTails));
    CHECK(detail::may_have(other, detail::PoclBug::WideBuiltins));
  }
  if (method) {
    setenv("POCL_WORK_GROUP_METHOD", saved.c_str(), 1);
  } else {
    unsetenv("POCL_WORK_GROUP_METHOD");
  }
}

TEST_CASE(
    "PoCL barrier loops: the PoCL build.sh builds carries patches 0004 and 0005, and float16 "
    "builtins run unsplit") {
  const DeviceInfo& info = test::runtime().device();
  INFO(info.platform_version);
  REQUIRE(info.platform_name.find("Portable Computing Language") != std::string::npos);
  CHECK(info.platform_version.find("+spvjit-barrier-tails") != std::string::npos);
  CHECK(info.platform_version.find("+spvjit-spir-byval") != std::string::npos);
  CHECK_FALSE(detail::may_have(info, detail::PoclBug::BarrierTails));
  CHECK_FALSE(detail::may_have(info, detail::PoclBug::WideBuiltins));
  // Calls on 512-bit vectors now reach PoCL's library whole (jit/device/split_vector_calls.hpp).
  KernelBuilder kb("wide_math");
  auto out = kb.param<Global<float>>("out");
  auto in = kb.param<Const<float>>("in");
  auto i = kb.global_index() * i64{16};
  Vec<float, 16> v = vload<16>(in, i);
  vstore(out, i, sqrt(fabs(v)) + fmin(v, -v));
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  std::vector<float> host(16 * 8);
  for (std::size_t j = 0; j < host.size(); ++j) host[j] = static_cast<float>(j) * 0.37f - 20.0f;
  auto x = rt.upload(host);
  auto y = rt.zeros<float>(host.size());
  k.launch(NDRange{8}, y, x);
  rt.synchronize();
  const auto got = y.to_vector();
  for (std::size_t j = 0; j < host.size(); ++j) {
    CAPTURE(j);
    CHECK(got[j] == std::sqrt(std::fabs(host[j])) + std::fmin(host[j], -host[j]));
  }
}
