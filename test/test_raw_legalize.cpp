// Raw modules with what clang -O2 and LLVM's passes emit but SPIR-V cannot hold (freeze, i4 and
// other odd widths, bitcasts of <N x i1>, vector reductions, saturating arithmetic): written as
// LLVM IR text, legalized by kernel_from_module (legalize_raw_module, jit/pipeline.cpp), run on the
// device and compared with the same operations computed here.
#include <doctest/doctest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <bit>
#include <fstream>
#include <iterator>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "spvjit/raw_module.hpp"
#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

namespace {

const char* const prelude = R"(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z13get_global_idj(i32)
)";

// The kernel `name` of `ir` (after the prelude), as kernel_from_module adopts it.
KernelDef from_ir(const std::string& ir, const char* name) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString(prelude + ir, error, context);
  if (!module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    error.print("test", os);
    FAIL_CHECK(os.str());
    REQUIRE(module);
  }
  return kernel_from_module(*module, name);
}

// `v`'s low `bits` bits as the signed / unsigned number they are.
std::int32_t sx(std::int64_t v, unsigned bits) {
  const std::uint64_t low = static_cast<std::uint64_t>(v) & ((std::uint64_t{1} << bits) - 1);
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  return static_cast<std::int32_t>(static_cast<std::int64_t>(low ^ sign) -
                                   static_cast<std::int64_t>(sign));
}
std::int32_t zx(std::int64_t v, unsigned bits) {
  return static_cast<std::int32_t>(static_cast<std::uint64_t>(v) &
                                   ((std::uint64_t{1} << bits) - 1));
}

}  // namespace

TEST_CASE("legalize: freeze and a <4 x i1> mask bitcast to i4, every mask, compared and extended") {
  // clang -O2's SLP form of `a > 0 && b > 0 && c > 0 && d > 0` and its "none" twin.
  const KernelDef def = from_ir(R"(
define spir_kernel void @masks(float addrspace(1)* %a, i32 addrspace(1)* %out) {
entry:
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  %base = shl i64 %id, 2
  %p = getelementptr inbounds float, float addrspace(1)* %a, i64 %base
  %vp = bitcast float addrspace(1)* %p to <4 x float> addrspace(1)*
  %v = load <4 x float>, <4 x float> addrspace(1)* %vp, align 4
  %c = fcmp ogt <4 x float> %v, zeroinitializer
  %f = freeze <4 x i1> %c
  %m = bitcast <4 x i1> %f to i4
  %none = icmp eq i4 %m, 0
  %all = icmp eq i4 %m, -1
  %small = icmp ult i4 %m, 5
  %negative = icmp slt i4 %m, 0
  %bits = zext i4 %m to i32
  %n1 = zext i1 %none to i32
  %a1 = zext i1 %all to i32
  %s1 = zext i1 %small to i32
  %g1 = zext i1 %negative to i32
  %t1 = shl i32 %n1, 4
  %t2 = shl i32 %a1, 5
  %t3 = shl i32 %s1, 6
  %t4 = shl i32 %g1, 7
  %r1 = or i32 %bits, %t1
  %r2 = or i32 %r1, %t2
  %r3 = or i32 %r2, %t3
  %r4 = or i32 %r3, %t4
  %o = shl i64 %id, 1
  %q0 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %o
  store i32 %r4, i32 addrspace(1)* %q0, align 4
  %signed = sext i4 %m to i32
  %o1 = or i64 %o, 1
  %q1 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %o1
  %u = freeze i32 undef
  %r5 = add i32 %signed, %u
  store i32 %r5, i32 addrspace(1)* %q1, align 4
  ret void
}
)",
                                "masks");
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(def);
  std::vector<float> a(16 * 4);
  for (int m = 0; m < 16; ++m) {
    for (int lane = 0; lane < 4; ++lane)
      a[static_cast<std::size_t>(4 * m + lane)] = (m >> lane & 1) ? 1.5f : -0.5f;
  }
  auto in = rt.upload(a);
  auto out = rt.zeros<std::int32_t>(32);
  k.launch(NDRange{16}, in, out);
  rt.synchronize();
  const auto got = out.to_vector();
  for (int m = 0; m < 16; ++m) {
    CAPTURE(m);
    const int expected = m | (m == 0) << 4 | (m == 15) << 5 | (m < 5) << 6 | (m >= 8) << 7;
    CHECK(got[static_cast<std::size_t>(2 * m)] == expected);
    CHECK(got[static_cast<std::size_t>(2 * m + 1)] == sx(m, 4));  // freeze undef: zero
  }
}

TEST_CASE("legalize: i12, i24, i6 and i4 arithmetic widened, signed and unsigned, edge values") {
  // Each result at out[23 * id + k], extended to i32.
  std::string body;
  int slot = 0;
  auto store = [&](const std::string& value) {
    const std::string n = std::to_string(slot++);
    body += "  %g" + n + " = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 " + "%b" + n +
            "\n  store i32 " + value + ", i32 addrspace(1)* %g" + n + ", align 4\n";
  };
  std::string ir = R"(
declare i12 @llvm.ctpop.i12(i12)
declare i12 @llvm.ctlz.i12(i12, i1)
declare i12 @llvm.cttz.i12(i12, i1)
declare i12 @llvm.abs.i12(i12, i1)
declare i12 @llvm.smax.i12(i12, i12)
declare i12 @llvm.umin.i12(i12, i12)
define spir_kernel void @odd(i32 addrspace(1)* %xs, i32 addrspace(1)* %ys, i32 addrspace(1)* %out) {
entry:
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  %px = getelementptr inbounds i32, i32 addrspace(1)* %xs, i64 %id
  %py = getelementptr inbounds i32, i32 addrspace(1)* %ys, i64 %id
  %x = load i32, i32 addrspace(1)* %px, align 4
  %y = load i32, i32 addrspace(1)* %py, align 4
  %t = trunc i32 %x to i12
  %u = trunc i32 %y to i12
  %s = and i12 %u, 7
  %sdiv = sdiv i12 %t, %u
  %srem = srem i12 %t, %u
  %udiv = udiv i12 %t, %u
  %urem = urem i12 %t, %u
  %ashr = ashr i12 %t, %s
  %lshr = lshr i12 %t, %s
  %shl = shl i12 %t, %s
  %add = add i12 %t, %u
  %lt = icmp slt i12 %t, %u
  %ult = icmp ult i12 %t, %u
  %eq = icmp eq i12 %t, %u
  %gt = icmp sgt i12 %t, %u
  %lt32 = zext i1 %lt to i32
  %ult32 = zext i1 %ult to i32
  %eq32 = zext i1 %eq to i32
  %gt32 = zext i1 %gt to i32
  %c1 = shl i32 %ult32, 1
  %c2 = shl i32 %eq32, 2
  %c3 = shl i32 %gt32, 3
  %cmp0 = or i32 %lt32, %c1
  %cmp1 = or i32 %cmp0, %c2
  %cmps = or i32 %cmp1, %c3
  %sf = sitofp i12 %t to float
  %sfi = fptosi float %sf to i32
  %uf = uitofp i12 %t to float
  %ufi = fptosi float %uf to i32
  %pop = call i12 @llvm.ctpop.i12(i12 %t)
  %lz = call i12 @llvm.ctlz.i12(i12 %t, i1 false)
  %tz = call i12 @llvm.cttz.i12(i12 %t, i1 false)
  %abs = call i12 @llvm.abs.i12(i12 %t, i1 false)
  %max = call i12 @llvm.smax.i12(i12 %t, i12 %u)
  %min = call i12 @llvm.umin.i12(i12 %t, i12 %u)
  %w = trunc i32 %x to i24
  %v = trunc i32 %y to i24
  %mul = mul i24 %w, %v
  %neg = icmp slt i12 %t, 0
  %sel = select i1 %neg, i12 %t, i12 %u
  %t8 = trunc i12 %t to i8
  %xf = sitofp i32 %x to float
  %xh = fmul float %xf, 2.500000e-01
  %fi = fptosi float %xh to i12
  br label %loop
loop:
  %k = phi i6 [ 0, %entry ], [ %k.next, %loop ]
  %n = phi i32 [ 0, %entry ], [ %n.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %kz = zext i6 %k to i32
  %acc.next = add i32 %acc, %kz
  %k.next = add i6 %k, 7
  %n.next = add i32 %n, 1
  %done = icmp eq i32 %n.next, 20
  br i1 %done, label %after, label %loop
after:
  %nib = trunc i32 %x to i4
  switch i4 %nib, label %other [ i4 3, label %three
                                 i4 -2, label %fourteen ]
three:
  br label %joined
fourteen:
  br label %joined
other:
  br label %joined
joined:
  %picked = phi i32 [ 100, %three ], [ 200, %fourteen ], [ 300, %other ]
)";
  const char* results[] = {"sext i12 %sdiv", "sext i12 %srem", "zext i12 %udiv", "zext i12 %urem",
                           "sext i12 %ashr", "zext i12 %lshr", "zext i12 %shl",  "sext i12 %add",
                           nullptr,          "%sfi",           "%ufi",           "zext i12 %pop",
                           "zext i12 %lz",   "zext i12 %tz",   "zext i12 %abs",  "sext i12 %max",
                           "zext i12 %min",  "sext i24 %mul",  "sext i12 %sel",  "sext i8 %t8",
                           "sext i12 %fi",   "%acc.next",      "%picked"};
  for (std::size_t k = 0; k < std::size(results); ++k) {
    const std::string n = std::to_string(k);
    ir += "  %o" + n + " = mul i64 %id, 23\n  %b" + n + " = add i64 %o" + n + ", " + n + "\n";
    if (!results[k]) {
      store("%cmps");
    } else if (results[k][0] == '%') {
      store(results[k]);
    } else {
      ir += "  %r" + n + " = " + results[k] + " to i32\n";
      store("%r" + n);
    }
    ir += body;
    body.clear();
  }
  ir += "  ret void\n}\n";
  const KernelDef def = from_ir(ir, "odd");

  // Edge values of i12 (-2048, 2047, -1, 0) and of the i4 switch (3, 14), with garbage above.
  const std::vector<std::int32_t> xs = {-2048, 2047, -1,    0,  1,       0x7ff003, 0x12345e, -700,
                                        1234,  5,    0x800, -3, 0x10fff, 77,       -2047,    3};
  const std::vector<std::int32_t> ys = {3,     -1,   7,      -5, 0xfff, -2048, 9, 13,
                                        -2048, 2047, 0x1001, 1,  5,     -77,   2, -1};
  auto& rt = test::runtime();
  Kernel kernel = test::jit().compile(def);
  auto x = rt.upload(xs);
  auto y = rt.upload(ys);
  auto out = rt.zeros<std::int32_t>(23 * xs.size());
  kernel.launch(NDRange{xs.size()}, x, y, out);
  rt.synchronize();
  const auto got = out.to_vector();
  for (std::size_t i = 0; i < xs.size(); ++i) {
    CAPTURE(i);
    const std::int32_t t = sx(xs[i], 12), u = sx(ys[i], 12);
    const std::int32_t tu = zx(xs[i], 12), uu = zx(ys[i], 12);
    const int s = uu & 7;
    int lz = 0, tz = 0;
    while (lz < 12 && !(tu >> (11 - lz) & 1)) ++lz;
    while (tz < 12 && !(tu >> tz & 1)) ++tz;
    int acc = 0;
    for (int k = 0, kk = 0; k < 20; ++k, kk = (kk + 7) & 63) acc += kk;
    const int nib = xs[i] & 15;
    const float xh = static_cast<float>(xs[i]) * 0.25f;
    const bool fi_fits = xh > -2049.0f && xh < 2048.0f;
    const std::int32_t expected[23] = {
        (t == -2048 && u == -1) ? got[23 * i] : sx(t / u, 12),  // the one overflow is UB
        (t == -2048 && u == -1) ? got[23 * i + 1] : t % u,
        tu / uu,
        tu % uu,
        t >> s,
        tu >> s,
        zx(tu << s, 12),
        sx(t + u, 12),
        (t < u) | (tu < uu) << 1 | (t == u) << 2 | (t > u) << 3,
        t,
        tu,
        std::popcount(static_cast<std::uint32_t>(tu)),
        lz,
        tz,
        zx(t < 0 ? -t : t, 12),
        t > u ? t : u,
        tu < uu ? tu : uu,
        sx(static_cast<std::int64_t>(sx(xs[i], 24)) * sx(ys[i], 24), 24),
        t < 0 ? t : u,
        sx(xs[i], 8),
        fi_fits ? static_cast<std::int32_t>(xh) : got[23 * i + 20],
        acc,
        nib == 3    ? 100
        : nib == 14 ? 200
                    : 300};
    for (std::size_t k = 0; k < 23; ++k) {
      CAPTURE(k);
      CHECK(got[23 * i + k] == expected[k]);
    }
  }
}

TEST_CASE(
    "legalize: vector reductions, saturating and overflow-checked arithmetic, an i12 funnel "
    "shift") {
  const KernelDef def = from_ir(R"(
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.mul.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.and.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.or.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.xor.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.smax.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.smin.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.umax.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.umin.v4i32(<4 x i32>)
declare i1 @llvm.vector.reduce.or.v4i1(<4 x i1>)
declare i1 @llvm.vector.reduce.and.v4i1(<4 x i1>)
declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)
declare float @llvm.vector.reduce.fmax.v4f32(<4 x float>)
declare float @llvm.vector.reduce.fmin.v4f32(<4 x float>)
declare i32 @llvm.uadd.sat.i32(i32, i32)
declare i32 @llvm.usub.sat.i32(i32, i32)
declare i32 @llvm.sadd.sat.i32(i32, i32)
declare i32 @llvm.ssub.sat.i32(i32, i32)
declare i8 @llvm.sadd.sat.i8(i8, i8)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.usub.with.overflow.i32(i32, i32)
declare i12 @llvm.fshl.i12(i12, i12, i12)

define spir_kernel void @reduce(i32 addrspace(1)* %in, float addrspace(1)* %fin, i32 addrspace(1)* %out) {
entry:
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  %base = shl i64 %id, 2
  %p = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %base
  %vp = bitcast i32 addrspace(1)* %p to <4 x i32> addrspace(1)*
  %v = load <4 x i32>, <4 x i32> addrspace(1)* %vp, align 4
  %fp = getelementptr inbounds float, float addrspace(1)* %fin, i64 %base
  %fvp = bitcast float addrspace(1)* %fp to <4 x float> addrspace(1)*
  %f = load <4 x float>, <4 x float> addrspace(1)* %fvp, align 4
  %a = extractelement <4 x i32> %v, i64 0
  %b = extractelement <4 x i32> %v, i64 1
  %c = extractelement <4 x i32> %v, i64 2
  %r0 = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %v)
  %r1 = call i32 @llvm.vector.reduce.mul.v4i32(<4 x i32> %v)
  %r2 = call i32 @llvm.vector.reduce.and.v4i32(<4 x i32> %v)
  %r3 = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %v)
  %r4 = call i32 @llvm.vector.reduce.xor.v4i32(<4 x i32> %v)
  %r5 = call i32 @llvm.vector.reduce.smax.v4i32(<4 x i32> %v)
  %r6 = call i32 @llvm.vector.reduce.smin.v4i32(<4 x i32> %v)
  %r7 = call i32 @llvm.vector.reduce.umax.v4i32(<4 x i32> %v)
  %r8 = call i32 @llvm.vector.reduce.umin.v4i32(<4 x i32> %v)
  %positive = icmp sgt <4 x i32> %v, zeroinitializer
  %any = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %positive)
  %all = call i1 @llvm.vector.reduce.and.v4i1(<4 x i1> %positive)
  %any32 = zext i1 %any to i32
  %all32 = zext i1 %all to i32
  %all2 = shl i32 %all32, 1
  %r9 = or i32 %any32, %all2
  %sum = call float @llvm.vector.reduce.fadd.v4f32(float 1.0, <4 x float> %f)
  %r10 = bitcast float %sum to i32
  %fmax = call float @llvm.vector.reduce.fmax.v4f32(<4 x float> %f)
  %r11 = bitcast float %fmax to i32
  %fmin = call float @llvm.vector.reduce.fmin.v4f32(<4 x float> %f)
  %r12 = bitcast float %fmin to i32
  %r13 = call i32 @llvm.uadd.sat.i32(i32 %a, i32 %b)
  %r14 = call i32 @llvm.usub.sat.i32(i32 %a, i32 %b)
  %r15 = call i32 @llvm.sadd.sat.i32(i32 %a, i32 %b)
  %r16 = call i32 @llvm.ssub.sat.i32(i32 %a, i32 %b)
  %a8 = trunc i32 %a to i8
  %b8 = trunc i32 %b to i8
  %s8 = call i8 @llvm.sadd.sat.i8(i8 %a8, i8 %b8)
  %r17 = sext i8 %s8 to i32
  %so = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %a, i32 %b)
  %r18 = extractvalue { i32, i1 } %so, 0
  %sof = extractvalue { i32, i1 } %so, 1
  %r19 = zext i1 %sof to i32
  %uo = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 %a, i32 %b)
  %uof = extractvalue { i32, i1 } %uo, 1
  %r20 = zext i1 %uof to i32
  %a12 = trunc i32 %a to i12
  %b12 = trunc i32 %b to i12
  %c12 = trunc i32 %c to i12
  %fsh = call i12 @llvm.fshl.i12(i12 %a12, i12 %b12, i12 %c12)
  %r21 = zext i12 %fsh to i32
  %ov = mul i64 %id, 22
  %v0 = insertelement <16 x i32> undef, i32 %r0, i64 0
  %v1 = insertelement <16 x i32> %v0, i32 %r1, i64 1
  %v2 = insertelement <16 x i32> %v1, i32 %r2, i64 2
  %v3 = insertelement <16 x i32> %v2, i32 %r3, i64 3
  %v4 = insertelement <16 x i32> %v3, i32 %r4, i64 4
  %v5 = insertelement <16 x i32> %v4, i32 %r5, i64 5
  %v6 = insertelement <16 x i32> %v5, i32 %r6, i64 6
  %v7 = insertelement <16 x i32> %v6, i32 %r7, i64 7
  %v8 = insertelement <16 x i32> %v7, i32 %r8, i64 8
  %v9 = insertelement <16 x i32> %v8, i32 %r9, i64 9
  %v10 = insertelement <16 x i32> %v9, i32 %r10, i64 10
  %v11 = insertelement <16 x i32> %v10, i32 %r11, i64 11
  %v12 = insertelement <16 x i32> %v11, i32 %r12, i64 12
  %v13 = insertelement <16 x i32> %v12, i32 %r13, i64 13
  %v14 = insertelement <16 x i32> %v13, i32 %r14, i64 14
  %v15 = insertelement <16 x i32> %v14, i32 %r15, i64 15
  %q0 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %ov
  %qv = bitcast i32 addrspace(1)* %q0 to <16 x i32> addrspace(1)*
  store <16 x i32> %v15, <16 x i32> addrspace(1)* %qv, align 4
  %w0 = insertelement <8 x i32> undef, i32 %r16, i64 0
  %w1 = insertelement <8 x i32> %w0, i32 %r17, i64 1
  %w2 = insertelement <8 x i32> %w1, i32 %r18, i64 2
  %w3 = insertelement <8 x i32> %w2, i32 %r19, i64 3
  %w4 = insertelement <8 x i32> %w3, i32 %r20, i64 4
  %w5 = insertelement <8 x i32> %w4, i32 %r21, i64 5
  %ov16 = add i64 %ov, 16
  %q16 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %ov16
  %qw = bitcast i32 addrspace(1)* %q16 to <8 x i32> addrspace(1)*
  %w6 = shufflevector <8 x i32> %w5, <8 x i32> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %e0 = extractelement <8 x i32> %w6, i64 0
  store i32 %e0, i32 addrspace(1)* %q16, align 4
  %q17 = getelementptr inbounds i32, i32 addrspace(1)* %q16, i64 1
  %e1 = extractelement <8 x i32> %w6, i64 1
  store i32 %e1, i32 addrspace(1)* %q17, align 4
  %q18 = getelementptr inbounds i32, i32 addrspace(1)* %q16, i64 2
  %e2 = extractelement <8 x i32> %w6, i64 2
  store i32 %e2, i32 addrspace(1)* %q18, align 4
  %q19 = getelementptr inbounds i32, i32 addrspace(1)* %q16, i64 3
  %e3 = extractelement <8 x i32> %w6, i64 3
  store i32 %e3, i32 addrspace(1)* %q19, align 4
  %q20 = getelementptr inbounds i32, i32 addrspace(1)* %q16, i64 4
  %e4 = extractelement <8 x i32> %w6, i64 4
  store i32 %e4, i32 addrspace(1)* %q20, align 4
  %q21 = getelementptr inbounds i32, i32 addrspace(1)* %q16, i64 5
  %e5 = extractelement <8 x i32> %w6, i64 5
  store i32 %e5, i32 addrspace(1)* %q21, align 4
  ret void
}
)",
                                "reduce");
  const std::int32_t max = INT32_MAX, min = INT32_MIN;
  // Four lanes per work-item: saturation both ways, all positive, none positive, mixed signs.
  const std::vector<std::int32_t> ints = {max, 1,  3,   4,   min, -1,  2,    -7,   1,      2,  3,
                                          4,   -1, -2,  -3,  0,   100, 250,  -12,  0x7f00, -1, 5,
                                          17,  9,  120, 100, 77,  1,   -100, -100, 33,     2};
  const std::vector<float> floats = {1.5f,  -2.25f, 1e8f,   -1e8f, 0.1f,  0.2f,  0.3f,   0.4f,
                                     -0.5f, 0.5f,   3.0f,   -3.0f, 1e-3f, 7.0f,  -7.5f,  2.0f,
                                     5.0f,  4.0f,   3.0f,   2.0f,  -1.0f, -2.0f, -3.0f,  -4.0f,
                                     1e30f, 1e30f,  -1e30f, 1.0f,  0.5f,  0.25f, 0.125f, 0.0625f};
  const std::size_t items = ints.size() / 4;
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(def);
  auto in = rt.upload(ints);
  auto fin = rt.upload(floats);
  auto out = rt.zeros<std::int32_t>(22 * items);
  k.launch(NDRange{items}, in, fin, out);
  rt.synchronize();
  const auto got = out.to_vector();
  auto u = [](std::int32_t v) { return static_cast<std::uint32_t>(v); };
  auto s = [](std::int64_t v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v)); };
  for (std::size_t i = 0; i < items; ++i) {
    CAPTURE(i);
    const std::int32_t* v = &ints[4 * i];
    const float* f = &floats[4 * i];
    const std::int64_t a = v[0], b = v[1], c = v[2];
    std::uint32_t mul = 1, band = ~0u, bor = 0, bxor = 0, add = 0;
    std::int32_t smax = v[0], smin = v[0];
    std::uint32_t umax = u(v[0]), umin = u(v[0]);
    int positives = 0;
    for (int l = 0; l < 4; ++l) {
      add += u(v[l]), mul *= u(v[l]), band &= u(v[l]), bor |= u(v[l]), bxor ^= u(v[l]);
      smax = std::max(smax, v[l]), smin = std::min(smin, v[l]);
      umax = std::max(umax, u(v[l])), umin = std::min(umin, u(v[l]));
      positives += v[l] > 0;
    }
    const float sum = (((1.0f + f[0]) + f[1]) + f[2]) + f[3];
    const float fmax = std::max(std::max(f[0], f[1]), std::max(f[2], f[3]));
    const float fmin = std::min(std::min(f[0], f[1]), std::min(f[2], f[3]));
    const std::int64_t a8 = static_cast<std::int8_t>(a), b8 = static_cast<std::int8_t>(b);
    const std::uint32_t a12 = u(zx(a, 12)), b12 = u(zx(b, 12)), c12 = u(zx(c, 12)) % 12;
    const std::uint32_t fsh = c12 == 0 ? a12 : ((a12 << c12) | (b12 >> (12 - c12))) & 0xfff;
    const std::int32_t expected[22] = {
        s(add),
        s(mul),
        s(band),
        s(bor),
        s(bxor),
        smax,
        smin,
        s(umax),
        s(umin),
        (positives > 0) | (positives == 4) << 1,
        std::bit_cast<std::int32_t>(sum),
        std::bit_cast<std::int32_t>(fmax),
        std::bit_cast<std::int32_t>(fmin),
        s(std::min<std::uint64_t>(u(v[0]) + std::uint64_t{u(v[1])}, UINT32_MAX)),
        s(u(v[0]) > u(v[1]) ? u(v[0]) - u(v[1]) : 0),
        s(std::clamp<std::int64_t>(a + b, min, max)),
        s(std::clamp<std::int64_t>(a - b, min, max)),
        s(std::clamp<std::int64_t>(a8 + b8, -128, 127)),
        s(a + b),
        (a + b > max || a + b < min),
        u(v[0]) < u(v[1]),
        s(fsh)};
    for (std::size_t r = 0; r < 22; ++r) {
      CAPTURE(r);
      CHECK(got[22 * i + r] == expected[r]);
    }
  }
}

TEST_CASE(
    "legalize: odd widths in memory, in vectors or wider than 64 bits, odd vectors in memory are "
    "UserErrors naming them") {
  const struct {
    const char* ir;
    const char* message;
  } cases[] = {
      {"define spir_kernel void @k(i32 addrspace(1)* %p) {\n"
       "  %q = bitcast i32 addrspace(1)* %p to i24 addrspace(1)*\n"
       "  %v = load i24, i24 addrspace(1)* %q, align 4\n"
       "  %w = zext i24 %v to i32\n  store i32 %w, i32 addrspace(1)* %p\n  ret void\n}\n",
       "keeps an integer of that width in memory"},
      {"define spir_kernel void @k(i32 addrspace(1)* %p) {\n"
       "  %v = load i32, i32 addrspace(1)* %p\n  %w = zext i32 %v to i128\n"
       "  %m = mul i128 %w, %w\n  %t = trunc i128 %m to i32\n"
       "  store i32 %t, i32 addrspace(1)* %p\n  ret void\n}\n",
       "wider than 64 bits"},
      {"define spir_kernel void @k(i32 addrspace(1)* %p) {\n"
       "  %v = load i32, i32 addrspace(1)* %p\n  %t = trunc i32 %v to i4\n"
       "  %s = insertelement <2 x i4> undef, i4 %t, i64 0\n  %a = add <2 x i4> %s, %s\n"
       "  %e = extractelement <2 x i4> %a, i64 0\n  %w = zext i4 %e to i32\n"
       "  store i32 %w, i32 addrspace(1)* %p\n  ret void\n}\n",
       "in a vector or aggregate"},
      {"define spir_kernel void @k(float addrspace(1)* %p) {\n"
       "  %a = alloca <5 x float>, align 4\n  %v = load float, float addrspace(1)* %p\n"
       "  %s = insertelement <5 x float> undef, float %v, i64 0\n"
       "  store <5 x float> %s, <5 x float>* %a\n  ret void\n}\n",
       "keeps a vector of that lane count in memory"},
      {"define spir_func i4 @helper(i4 %x) {\n  ret i4 %x\n}\n"
       "define spir_kernel void @k(i32 addrspace(1)* %p) {\n  ret void\n}\n",
       "function 'helper' takes or returns an integer"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.ir);
    CHECK_THROWS_WITH_AS(from_ir(c.ir, "k"), doctest::Contains(c.message), UserError);
  }
}

namespace {

// A neighbour count as benchmark stencils write it; clang-15 -O2 compares the four neighbours
// as one <4 x float> and tests the <4 x i1> result as an i4.
const char* const slp_source = R"(
__kernel void extrema(__global const float* a, __global float* out, int w) {
  int x = get_global_id(0) + 1, y = get_global_id(1) + 1;
  float c = a[y * w + x];
  int above = (a[y * w + x + 1] > c) + (a[y * w + x - 1] > c) + (a[(y + 1) * w + x] > c) +
              (a[(y - 1) * w + x] > c);
  out[(y - 1) * (w - 2) + x - 1] = above == 4 ? c : (above == 0 ? -c : 0.0f);
}
)";

std::string clang_bitcode(const char* source) {
  const test::TempDir dir("spvjit-raw-legalize");
  const std::string cl = dir / "k.cl";
  const std::string bc = dir / "k.bc";
  std::ofstream(cl) << source;
  std::string out;
  const int rc = test::run_command(std::string(SPVJIT_CLANG) +
                                       " -target spir64 -cl-std=CL1.2 -O2 "
                                       "-Xclang -no-opaque-pointers -emit-llvm -c -o " +
                                       bc + " " + cl,
                                   out);
  INFO(out);
  REQUIRE(rc == 0);
  std::ifstream in(bc, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string bitcode_text(const std::string& bitcode) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  auto module = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "k"), context);
  REQUIRE(static_cast<bool>(module));
  std::string text;
  llvm::raw_string_ostream os(text);
  (*module)->print(os, nullptr);
  return os.str();
}

}  // namespace

TEST_CASE("legalize: clang -O2's vectorized comparison chain in an OpenCL C stencil runs right") {
  const std::string bitcode = clang_bitcode(slp_source);
  // What this test is about: clang still makes the pattern.
  REQUIRE(bitcode_text(bitcode).find("bitcast <4 x i1>") != std::string::npos);
  const KernelDef def = kernel_from_bitcode(bitcode, "extrema");
  const int w = 9, h = 7;
  std::vector<float> a(static_cast<std::size_t>(w * h));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 37) % 11) - 5.0f;
  a[static_cast<std::size_t>(3 * w + 4)] = -9.0f;  // a minimum: every neighbour above
  a[static_cast<std::size_t>(2 * w + 2)] = 9.0f;   // a maximum
  a[static_cast<std::size_t>(5 * w + 6)] = 20.0f;
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(def);
  auto in = rt.upload(a);
  auto out = rt.zeros<float>(static_cast<std::size_t>((w - 2) * (h - 2)));
  k.launch(NDRange{static_cast<std::size_t>(w - 2), static_cast<std::size_t>(h - 2)}, in, out, w);
  rt.synchronize();
  const auto got = out.to_vector();
  int aboves = 0, nones = 0;
  for (int y = 1; y < h - 1; ++y) {
    for (int x = 1; x < w - 1; ++x) {
      CAPTURE(x);
      CAPTURE(y);
      auto at = [&](int i, int j) { return a[static_cast<std::size_t>(j * w + i)]; };
      const float c = at(x, y);
      const float n[4] = {at(x + 1, y), at(x - 1, y), at(x, y + 1), at(x, y - 1)};
      const auto count = std::count_if(n, n + 4, [&](float v) { return v > c; });
      aboves += count == 4;
      nones += count == 0;
      CHECK(got[static_cast<std::size_t>((y - 1) * (w - 2) + x - 1)] == (count == 4   ? c
                                                                         : count == 0 ? -c
                                                                                      : 0.0f));
    }
  }
  CHECK(aboves > 0);  // each outcome was taken
  CHECK(nones > 0);
}

TEST_CASE("legalize: a module with an image helper's constant sampler compiles its other kernels") {
  // As Rodinia's particlefilter: a helper reading an image with a sampler_t constant, which
  // clang makes a call of __translate_sampler_initializer (the translator's OpConstantSampler).
  const std::string bitcode = clang_bitcode(R"(
float fetch(__read_only image2d_t img, int index) {
  const sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
  return read_imagef(img, smp, (int2)(index, 0)).x;
}
__kernel void twice(__global int* p) { p[get_global_id(0)] *= 2; }
)");
  REQUIRE(bitcode_text(bitcode).find("@__translate_sampler_initializer") != std::string::npos);
  Kernel k = test::jit().compile(kernel_from_bitcode(bitcode, "twice"));
  auto& rt = test::runtime();
  auto p = rt.upload(std::vector<std::int32_t>{1, -2, 3, 40});
  k.launch(NDRange{4}, p);
  rt.synchronize();
  CHECK(p.to_vector() == std::vector<std::int32_t>{2, -4, 6, 80});
}

TEST_CASE(
    "legalize: <5 x float> and <5 x i32> computed lane by lane, loaded, stored, reduced and "
    "masked") {
  const KernelDef def = from_ir(R"(
declare <5 x float> @llvm.fabs.v5f32(<5 x float>)
declare i32 @llvm.vector.reduce.add.v5i32(<5 x i32>)

define spir_kernel void @five(float addrspace(1)* %in, float addrspace(1)* %out, i32 addrspace(1)* %iout) {
entry:
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  %base = mul i64 %id, 5
  %p = getelementptr inbounds float, float addrspace(1)* %in, i64 %base
  %vp = bitcast float addrspace(1)* %p to <5 x float> addrspace(1)*
  %v = load <5 x float>, <5 x float> addrspace(1)* %vp, align 4
  %w = fmul <5 x float> %v, <float 2.0, float 2.0, float 2.0, float 2.0, float 2.0>
  %c = fcmp olt <5 x float> %v, zeroinitializer
  %abs = call <5 x float> @llvm.fabs.v5f32(<5 x float> %v)
  %sel = select <5 x i1> %c, <5 x float> %abs, <5 x float> %w
  %rev = shufflevector <5 x float> %sel, <5 x float> undef, <5 x i32> <i32 4, i32 3, i32 2, i32 1, i32 0>
  %ins = insertelement <5 x float> %rev, float 7.0, i64 2
  %q = getelementptr inbounds float, float addrspace(1)* %out, i64 %base
  %qv = bitcast float addrspace(1)* %q to <5 x float> addrspace(1)*
  store <5 x float> %ins, <5 x float> addrspace(1)* %qv, align 4
  %k = urem i64 %id, 5
  %e = extractelement <5 x float> %v, i64 %k
  %four = shufflevector <5 x float> %v, <5 x float> undef, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %f3 = extractelement <4 x float> %four, i64 3
  %ef = fadd float %e, %f3
  %ei = bitcast float %ef to i32
  %vi = fptosi <5 x float> %v to <5 x i32>
  br label %loop
loop:
  %n = phi i32 [ 0, %entry ], [ %n.next, %loop ]
  %acc = phi <5 x i32> [ zeroinitializer, %entry ], [ %acc.next, %loop ]
  %acc.next = add <5 x i32> %acc, %vi
  %n.next = add i32 %n, 1
  %done = icmp eq i32 %n.next, 3
  br i1 %done, label %after, label %loop
after:
  %sum = call i32 @llvm.vector.reduce.add.v5i32(<5 x i32> %acc.next)
  %m = bitcast <5 x i1> %c to i5
  %mz = zext i5 %m to i32
  %o = mul i64 %id, 3
  %r0 = getelementptr inbounds i32, i32 addrspace(1)* %iout, i64 %o
  store i32 %mz, i32 addrspace(1)* %r0, align 4
  %r1 = getelementptr inbounds i32, i32 addrspace(1)* %r0, i64 1
  store i32 %sum, i32 addrspace(1)* %r1, align 4
  %r2 = getelementptr inbounds i32, i32 addrspace(1)* %r0, i64 2
  store i32 %ei, i32 addrspace(1)* %r2, align 4
  ret void
}
)",
                                "five");
  const std::size_t items = 7;
  std::vector<float> in(5 * items);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>((i * 7) % 13) - 6.5f;
  for (std::size_t i = 0; i < 5; ++i) in[i] = -1.0f - static_cast<float>(i);  // all lanes negative
  for (std::size_t i = 5; i < 10; ++i) in[i] = 1.0f + static_cast<float>(i);  // none
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(def);
  auto a = rt.upload(in);
  auto out = rt.zeros<float>(5 * items);
  auto iout = rt.zeros<std::int32_t>(3 * items);
  k.launch(NDRange{items}, a, out, iout);
  rt.synchronize();
  const auto got = out.to_vector();
  const auto igot = iout.to_vector();
  for (std::size_t i = 0; i < items; ++i) {
    CAPTURE(i);
    const float* v = &in[5 * i];
    int mask = 0, sum = 0;
    for (int l = 0; l < 5; ++l) {
      const float sel = v[l] < 0 ? std::fabs(v[l]) : v[l] * 2.0f;
      CHECK(got[5 * i + static_cast<std::size_t>(4 - l)] == (4 - l == 2 ? 7.0f : sel));
      mask |= (v[l] < 0) << l;
      sum += 3 * static_cast<std::int32_t>(v[l]);
    }
    CHECK(igot[3 * i] == mask);
    CHECK(igot[3 * i + 1] == sum);
    CHECK(igot[3 * i + 2] == std::bit_cast<std::int32_t>(v[i % 5] + v[3]));
  }
  CHECK(igot[0] == 31);
  CHECK(igot[3] == 0);
}
