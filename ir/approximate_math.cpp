#include "ir/approximate_math.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace spvjit::detail {

namespace {

enum class Approximated { Exp, Log, Erfc };

// erfc(x) e^(x^2) = t P(t), t = 1 / (1 + p x), for x from 1/2 to where erfc underflows (10.1 for
// float, 27.3 for double): P's coefficients, lowest degree first, as
// tools/math_fits/fit_erfc.cpp prints them (Chebyshev interpolation in long double, then the
// monomial form in t). Fitted from 0 instead, with no series near 0, the double form needs
// degree 22 and loses 9 ulps near 0, for 3 % of Black-Scholes' time.
constexpr double erfc_p_f32 = 0.5;
constexpr double erfc_fit_f32[] = {
    0x1.20dacdbc204e6p-2, 0x1.212402d870898p-2, 0x1.f33f78723ec85p-3,  0x1.90e0ea795d4f9p-3,
    0x1.14a53f9af6a9ap-7, 0x1.68ebdc3a43451p-3, -0x1.3c30d6db6a77cp-2, 0x1.924570213d7b1p-4,
    0x1.87d9063b74f9ap-5, -0x1.a8bdd4d75b9bap-6};
constexpr double erfc_p_f64 = 0.3;
constexpr double erfc_fit_f64[] = {
    0x1.5aa35937c5916p-3,  0x1.5aa3595496722p-3, 0x1.4b0a107ea5935p-3,  0x1.2bd7ca756c447p-3,
    0x1.fe46fa5233d2bp-4,  0x1.929bf231a72bbp-4, 0x1.1dba5e7b11d63p-4,  0x1.7a646e454444dp-5,
    0x1.511257760fc6fp-7,  0x1.7b1cf947221dep-5, -0x1.e87d277551eacp-4, 0x1.0d9b59e7e1b88p-2,
    -0x1.001fb951befcap-1, 0x1.72269224a854ap-1, -0x1.a33862c26a6a5p-1, 0x1.66e733cd497dep-1,
    -0x1.b3216b45487edp-2, 0x1.5c3582aef2a7bp-3, -0x1.49c303004bb1ep-5, 0x1.18d356e15bc8ep-8};

constexpr long double ln2 = 0.693147180559945309417232121458176568L;
constexpr long double two_over_sqrt_pi = 1.128379167095512573896158903121545172L;

// 1/k! for k < n: e^r's Taylor series.
std::vector<double> exp_series(unsigned n) {
  std::vector<double> out;
  long double term = 1;
  for (unsigned k = 0; k < n; ++k) {
    if (k > 0) term /= k;
    out.push_back(static_cast<double>(term));
  }
  return out;
}

// 1 / (2k + 3) for k < n: (atanh(s) / s - 1) / s^2 as a series in s^2.
std::vector<double> atanh_series(unsigned n) {
  std::vector<double> out;
  for (unsigned k = 0; k < n; ++k) out.push_back(static_cast<double>(1.0L / (2 * k + 3)));
  return out;
}

// 2/sqrt(pi) (-1)^k / (k! (2k + 1)) for k < n: erf(x) / x as a series in x^2.
std::vector<double> erf_series(unsigned n) {
  std::vector<double> out;
  long double factorial = 1;
  for (unsigned k = 0; k < n; ++k) {
    if (k > 0) factorial *= k;
    const long double sign = k % 2 ? -1 : 1;
    out.push_back(static_cast<double>(two_over_sqrt_pi * sign / (factorial * (2 * k + 1))));
  }
  return out;
}

// One floating-point type's arithmetic, scalar or vector, emitted at the builder's insertion
// point with no fast-math flags (a reassociation would undo the splits the algorithms rely on).
class Arithmetic {
 public:
  Arithmetic(llvm::IRBuilder<>& ir, llvm::Type* type)
      : ir_(ir), type_(type), double_(type->getScalarType()->isDoubleTy()) {
    bits_ = ir.getIntNTy(double_ ? 64 : 32);
    if (auto* vector = llvm::dyn_cast<llvm::VectorType>(type)) {
      bits_ = llvm::VectorType::get(bits_, vector->getElementCount());
    }
  }

  llvm::Value* exp(llvm::Value* y) { return exp_times(y, nullptr); }

  // factor * e^y, the factor applied before the result is scaled into the subnormals.
  llvm::Value* exp_times(llvm::Value* y, llvm::Value* factor) {
    // Past these bounds e^y overflows or underflows all the same, and inside them both halves
    // of 2^n below are normal numbers.
    const double low = double_ ? -746.0 : -104.0, high = double_ ? 710.0 : 89.0;
    llvm::Value* nan = ir_.CreateFCmpUNO(y, y);
    llvm::Value* clamped = ir_.CreateSelect(ir_.CreateFCmpOLT(y, c(low)), c(low), y);
    clamped = ir_.CreateSelect(ir_.CreateFCmpOGT(clamped, c(high)), c(high), clamped);
    clamped = ir_.CreateSelect(nan, c(0), clamped);
    // n = rint(y / ln2) by adding and taking off 1.5 2^m, whose sum keeps n in its low mantissa
    // bits (PoCL's vector rint and floor are a dozen instructions each).
    llvm::Value* n_shifted =
        ir_.CreateFAdd(ir_.CreateFMul(clamped, c(static_cast<double>(1.0L / ln2))), c(magic()));
    llvm::Value* n = ir_.CreateFSub(n_shifted, c(magic()));
    llvm::Value* minus_n = ir_.CreateFNeg(n);
    llvm::Value* r = fma(minus_n, c(ln2_high()), clamped);
    r = fma(minus_n, c(ln2_low()), r);
    llvm::Value* p = horner(r, exp_series(double_ ? 14 : 8));
    if (factor) p = ir_.CreateFMul(p, factor);
    // 2^n as 2^half 2^(n - half), half = floor(n / 2) (n / 2 - 1/4 rounds to it, with no tie).
    llvm::Value* half_shifted =
        ir_.CreateFAdd(ir_.CreateFSub(ir_.CreateFMul(n, c(0.5)), c(0.25)), c(magic()));
    llvm::Value* rest = ir_.CreateFSub(n, ir_.CreateFSub(half_shifted, c(magic())));
    llvm::Value* out = ir_.CreateFMul(ir_.CreateFMul(p, power_of_two(half_shifted)),
                                      power_of_two(ir_.CreateFAdd(rest, c(magic()))));
    return ir_.CreateSelect(nan, y, out);
  }

  llvm::Value* log(llvm::Value* x) {
    const unsigned m = mantissa_bits();
    const double two_to_m = double_ ? 0x1p52 : 0x1p23;
    // Subnormals scaled into the normals first.
    llvm::Value* subnormal = ir_.CreateFCmpOLT(x, c(double_ ? 0x1p-1022 : 0x1p-126));
    llvm::Value* scaled = ir_.CreateSelect(subnormal, ir_.CreateFMul(x, c(two_to_m)), x);
    llvm::Value* adjust = ir_.CreateSelect(subnormal, c(-static_cast<double>(m)), c(0));
    llvm::Value* b = to_bits(scaled);
    // The biased exponent as a float: OR'd into 2^m's zero mantissa, then 2^m taken off (no
    // integer-to-float conversion: AVX2 has none for 64-bit integers).
    llvm::Value* biased = ir_.CreateLShr(b, m);
    llvm::Value* biased_fp = ir_.CreateFSub(
        from_bits(ir_.CreateOr(biased, bits_constant(bits_of(two_to_m)))), c(two_to_m));
    llvm::Value* e = ir_.CreateFAdd(ir_.CreateFSub(biased_fp, c(bias())), adjust);
    llvm::Value* mantissa = from_bits(ir_.CreateOr(
        ir_.CreateAnd(b, bits_constant((std::uint64_t{1} << m) - 1)), bits_constant(bits_of(1.0))));
    // m in [sqrt(1/2), sqrt(2)): log(m) is small and its series short.
    llvm::Value* above = ir_.CreateFCmpOGT(mantissa, c(1.41421356237309504880168872420969808));
    mantissa = ir_.CreateSelect(above, ir_.CreateFMul(mantissa, c(0.5)), mantissa);
    e = ir_.CreateFAdd(e, ir_.CreateSelect(above, c(1), c(0)));
    llvm::Value* f = ir_.CreateFSub(mantissa, c(1));
    llvm::Value* s = ir_.CreateFDiv(f, ir_.CreateFAdd(f, c(2)));
    llvm::Value* two_s = ir_.CreateFAdd(s, s);
    llvm::Value* z = ir_.CreateFMul(s, s);
    llvm::Value* series = horner(z, atanh_series(double_ ? 10 : 4));
    llvm::Value* log_m = fma(ir_.CreateFMul(two_s, z), series, two_s);
    llvm::Value* out = fma(e, c(ln2_high()), fma(e, c(ln2_low()), log_m));
    const double inf = std::numeric_limits<double>::infinity();
    out = ir_.CreateSelect(ir_.CreateFCmpOEQ(x, c(inf)), c(inf), out);
    out = ir_.CreateSelect(ir_.CreateFCmpOEQ(x, c(0)), c(-inf), out);
    // Negative numbers and NaN.
    return ir_.CreateSelect(ir_.CreateFCmpULT(x, c(0)), c(std::numeric_limits<double>::quiet_NaN()),
                            out);
  }

  llvm::Value* erfc(llvm::Value* x) {
    llvm::Value* ax = fabs(x);
    // |x| < 1/2: 1 - erf(x).
    llvm::Value* erf_over_x = horner(ir_.CreateFMul(x, x), erf_series(double_ ? 13 : 7));
    llvm::Value* near = fma(ir_.CreateFNeg(x), erf_over_x, c(1));
    // |x| >= 1/2: e^(-x^2) t P(t).
    const double p = double_ ? erfc_p_f64 : erfc_p_f32;
    llvm::Value* t = ir_.CreateFDiv(c(1), fma(c(p), ax, c(1)));
    llvm::Value* g = ir_.CreateFMul(t, double_ ? horner(t, erfc_fit_f64) : horner(t, erfc_fit_f32));
    // x^2 = square + error exactly; e^(-error) = 1 - error to the type's precision.
    llvm::Value* square = ir_.CreateFMul(ax, ax);
    llvm::Value* error = fma(ax, ax, ir_.CreateFNeg(square));
    llvm::Value* tail = exp_times(ir_.CreateFNeg(square), fma(ir_.CreateFNeg(g), error, g));
    // Where erfc rounds to 0 (and at infinity, where error is NaN).
    tail = ir_.CreateSelect(ir_.CreateFCmpOGT(ax, c(double_ ? 27.3 : 10.1)), c(0), tail);
    llvm::Value* far =
        ir_.CreateSelect(ir_.CreateFCmpOLT(x, c(0)), ir_.CreateFSub(c(2), tail), tail);
    llvm::Value* out = ir_.CreateSelect(ir_.CreateFCmpOLT(ax, c(0.5)), near, far);
    // A NaN as it came: which operand's payload an operation keeps differs between a scalar's
    // code and a vector's.
    return ir_.CreateSelect(ir_.CreateFCmpUNO(x, x), x, out);
  }

 private:
  unsigned mantissa_bits() const { return double_ ? 52 : 23; }
  double bias() const { return double_ ? 1023 : 127; }
  // ln2 as the type's nearest value and the rest.
  double ln2_high() const { return double_ ? double(ln2) : double(float(ln2)); }
  double ln2_low() const { return static_cast<double>(ln2 - ln2_high()); }

  llvm::Value* c(double v) { return llvm::ConstantFP::get(type_, v); }
  // `v`'s low bits as the type's integer.
  llvm::Value* bits_constant(std::uint64_t v) {
    if (!double_) v &= 0xffffffffu;
    return llvm::ConstantInt::get(bits_, v);
  }
  std::uint64_t bits_of(double v) const {
    return double_ ? std::bit_cast<std::uint64_t>(v)
                   : std::bit_cast<std::uint32_t>(static_cast<float>(v));
  }
  llvm::Value* to_bits(llvm::Value* v) { return ir_.CreateBitCast(v, bits_); }
  llvm::Value* from_bits(llvm::Value* v) { return ir_.CreateBitCast(v, type_); }

  llvm::Value* fma(llvm::Value* a, llvm::Value* b, llvm::Value* addend) {
    return ir_.CreateIntrinsic(llvm::Intrinsic::fma, {type_}, {a, b, addend});
  }
  llvm::Value* fabs(llvm::Value* v) { return ir_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); }

  // The polynomial of `lowest_first`'s coefficients at x, by Horner's rule with FMAs.
  llvm::Value* horner(llvm::Value* x, std::span<const double> lowest_first) {
    llvm::Value* acc = c(lowest_first.back());
    for (std::size_t k = lowest_first.size() - 1; k-- > 0;) acc = fma(acc, x, c(lowest_first[k]));
    return acc;
  }

  // 1.5 2^m: for an integer-valued v with |v| < 2^(m-1), v + magic() holds v in its low
  // mantissa bits, and for any v of that size, (v + magic()) - magic() is rint(v).
  double magic() const { return double_ ? 0x1.8p52 : 0x1.8p23; }

  // 2^k from `shifted` = k + magic() for an integer k with k + bias in [1, 2 bias]: the integer
  // difference of its bits and magic()'s is k exactly (no float-to-integer conversion: AVX2
  // has none for doubles), then shifted into the exponent.
  llvm::Value* power_of_two(llvm::Value* shifted) {
    const auto offset = static_cast<std::uint64_t>(bias()) - bits_of(magic());
    llvm::Value* biased = ir_.CreateAdd(to_bits(shifted), bits_constant(offset));
    return from_bits(ir_.CreateShl(biased, mantissa_bits()));
  }

  llvm::IRBuilder<>& ir_;
  llvm::Type* type_;
  llvm::Type* bits_ = nullptr;
  bool double_;
};

// Which function `call` computes, when this step replaces it: exp, log or erfc of one float or
// double operand (scalar or vector), with the approximate-functions flag.
std::optional<Approximated> approximated(const llvm::CallInst& call) {
  const llvm::Function* callee = call.getCalledFunction();
  llvm::Type* type = call.getType();
  if (!callee || call.arg_size() != 1 || !type->isFPOrFPVectorTy() ||
      call.getArgOperand(0)->getType() != type || !call.getFastMathFlags().approxFunc()) {
    return std::nullopt;
  }
  llvm::Type* element = type->getScalarType();
  if (!element->isFloatTy() && !element->isDoubleTy()) return std::nullopt;
  std::string code = element->isFloatTy() ? "f" : "d";
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    code = "Dv" + std::to_string(vector->getNumElements()) + "_" + code;
  }
  const llvm::StringRef name = callee->getName();
  if (name == "_Z3exp" + code) return Approximated::Exp;
  if (name == "_Z3log" + code) return Approximated::Log;
  if (name == "_Z4erfc" + code) return Approximated::Erfc;
  return std::nullopt;
}

}  // namespace

bool has_approximable_math_calls(const llvm::Function& function) {
  for (const llvm::Instruction& inst : llvm::instructions(function)) {
    const auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
    if (call && approximated(*call)) return true;
  }
  return false;
}

unsigned approximate_math_calls(llvm::Function& function) {
  std::vector<std::pair<llvm::CallInst*, Approximated>> found;
  for (llvm::Instruction& inst : llvm::instructions(function)) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
    if (!call) continue;
    if (const auto fn = approximated(*call)) found.emplace_back(call, *fn);
  }
  for (const auto& [call, fn] : found) {
    llvm::IRBuilder<> ir(call);
    Arithmetic math(ir, call->getType());
    llvm::Value* x = call->getArgOperand(0);
    llvm::Value* out = fn == Approximated::Exp   ? math.exp(x)
                       : fn == Approximated::Log ? math.log(x)
                                                 : math.erfc(x);
    call->replaceAllUsesWith(out);
    call->eraseFromParent();
  }
  return static_cast<unsigned>(found.size());
}

}  // namespace spvjit::detail
