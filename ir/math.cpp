// The math set as calls to OpenCL builtins with Itanium-mangled names (`_Z4sqrtf`,
// `_Z5ldexpDv4_fDv4_i`), which the translator maps to OpenCL.std extended instructions. The
// relational tests are a compare or two on the value's bits: no call, so they vectorize freely.
#include "spvjit/math.hpp"

#include <llvm/IR/Constants.h>

#include <cmath>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "common/error_report.hpp"
#include "ir/emit.hpp"
#include "ir/state.hpp"
#include "ir/handles.hpp"

namespace spvjit {

namespace {

enum class Domain { Float, Integer, Any };

/// How the operands and results look beside the first operand's type T.
enum class Form {
  Same,         ///< (T, ...) -> T
  ExponentI32,  ///< (T, i32) -> T
  ToI32,        ///< T -> i32
  Test,         ///< T -> bool, computed inline
  OutI32,       ///< (T, ...) -> (T, i32), the second through a private pointer
  OutSame,      ///< T -> (T, T), the second through a private pointer
  SinCos,       ///< T -> (sin, cos), two calls
};

struct FnInfo {
  const char* name;
  unsigned arity;
  Domain domain;
  Form form = Form::Same;
};

/// What a row's shape (spvjit/math_functions.def) says of its operands and results.
enum class Shape {
  FloatUnary,
  IntegerUnary,
  FloatTest,
  FloatToI32,
  FloatBinary,
  IntegerBinary,
  FloatExponent,
  FloatTernary,
  IntegerTernary,
  AnyTernary,
  FloatPairI32,
  FloatPairSame,
  FloatSinCos,
  FloatBinaryPairI32,
};

constexpr FnInfo info_of(const char* name, Shape shape) {
  using D = Domain;
  switch (shape) {
    case Shape::FloatUnary:
      return {name, 1, D::Float};
    case Shape::IntegerUnary:
      return {name, 1, D::Integer};
    case Shape::FloatTest:
      return {name, 1, D::Float, Form::Test};
    case Shape::FloatToI32:
      return {name, 1, D::Float, Form::ToI32};
    case Shape::FloatBinary:
      return {name, 2, D::Float};
    case Shape::IntegerBinary:
      return {name, 2, D::Integer};
    case Shape::FloatExponent:
      return {name, 2, D::Float, Form::ExponentI32};
    case Shape::FloatTernary:
      return {name, 3, D::Float};
    case Shape::IntegerTernary:
      return {name, 3, D::Integer};
    case Shape::AnyTernary:
      return {name, 3, D::Any};
    case Shape::FloatPairI32:
      return {name, 1, D::Float, Form::OutI32};
    case Shape::FloatPairSame:
      return {name, 1, D::Float, Form::OutSame};
    case Shape::FloatSinCos:
      return {name, 1, D::Float, Form::SinCos};
    case Shape::FloatBinaryPairI32:
      return {name, 2, D::Float, Form::OutI32};
  }
  return {name, 0, D::Any};
}

// MathFn's enumerators index this: the same rows in the same order.
constexpr FnInfo functions[] = {
#define SPVJIT_MATH_FUNCTION(op, fn, shape) info_of(#fn, Shape::shape),
#include "spvjit/math_functions.def"
#undef SPVJIT_MATH_FUNCTION
};

FnInfo info(MathFn fn) {
  const auto row = static_cast<std::size_t>(fn);
  return row < std::size(functions) ? functions[row] : FnInfo{"?", 0, Domain::Any};
}

bool two_results(Form f) { return f == Form::OutI32 || f == Form::OutSame || f == Form::SinCos; }

/// One parameter of a builtin for mangling: its element type, and whether it is a private
/// pointer to that (the second result of frexp, modf, ...).
struct MangledParam {
  Scalar type;
  bool pointer = false;
};

/// `_Z<len><name>` and each parameter, Itanium style: a vector type (`Dv4_f`) or a pointer
/// (`Pi`, `PDv4_i`) seen before is written as its substitution (`S_`, `S0_`, ...).
std::string mangle(std::string_view base, const std::vector<MangledParam>& params, unsigned lanes) {
  std::string out = "_Z" + std::to_string(base.size()) + std::string(base);
  std::vector<std::string> seen;
  auto substitution = [&](const std::string& component) -> std::string {
    for (std::size_t k = 0; k < seen.size(); ++k) {
      if (seen[k] == component) return k == 0 ? "S_" : "S" + std::to_string(k - 1) + "_";
    }
    return {};
  };
  for (const MangledParam& p : params) {
    const std::string element(1, detail::itanium_code(p.type));
    std::string type = element;
    if (lanes > 1) {
      type = "Dv" + std::to_string(lanes) + "_" + element;
      if (std::string sub = substitution(type); !sub.empty()) {
        type = sub;
      } else {
        seen.push_back(type);
      }
    }
    if (!p.pointer) {
      out += type;
      continue;
    }
    const std::string pointer =
        "P" + (lanes > 1 ? "Dv" + std::to_string(lanes) + "_" + element : element);
    if (std::string sub = substitution(pointer); !sub.empty()) {
      out += sub;
    } else {
      out += "P" + type;
      seen.push_back(pointer);
    }
  }
  return out;
}

llvm::Type* shaped(llvm::Type* element, unsigned lanes) {
  return lanes == 1 ? element : llvm::FixedVectorType::get(element, lanes);
}

/// The isnan, isinf, ... test on `x` (element type `t`), from its bits.
llvm::Value* emit_test(detail::BuilderState& s, MathFn fn, Scalar t, llvm::Value* x,
                       unsigned lanes) {
  auto& b = s.ir;
  const unsigned bits = t == Scalar::F32 ? 32 : 64;
  const unsigned mantissa = t == Scalar::F32 ? 23 : 52;
  auto* int_type = shaped(b.getIntNTy(bits), lanes);
  auto constant = [&](std::uint64_t v) { return llvm::ConstantInt::get(int_type, v); };
  llvm::Value* raw = b.CreateBitCast(x, int_type);
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  const std::uint64_t infinity = ((std::uint64_t{1} << (bits - 1 - mantissa)) - 1) << mantissa;
  llvm::Value* magnitude = b.CreateAnd(raw, constant(sign - 1));
  switch (fn) {
    case MathFn::Isnan:
      return b.CreateFCmpUNO(x, x, "isnan");
    case MathFn::Isinf:
      return b.CreateICmpEQ(magnitude, constant(infinity), "isinf");
    case MathFn::Isfinite:
      return b.CreateICmpULT(magnitude, constant(infinity), "isfinite");
    case MathFn::Isnormal: {
      // The exponent field, less one: normals give 0 .. max - 2 (unsigned), zero and
      // subnormals wrap to the top, infinities and NaNs give max - 1.
      llvm::Value* exponent_bits = b.CreateAnd(raw, constant(infinity));
      llvm::Value* shifted = b.CreateSub(exponent_bits, constant(std::uint64_t{1} << mantissa));
      return b.CreateICmpULT(shifted, constant(infinity - (std::uint64_t{1} << mantissa)),
                             "isnormal");
    }
    case MathFn::Signbit:
      return b.CreateICmpSLT(raw, constant(0), "signbit");
    default:
      break;
  }
  internal_assert(false) << "not a test: " << name(fn);
  return nullptr;
}

}  // namespace

std::string_view name(MathFn fn) noexcept { return info(fn).name; }

namespace detail {

char itanium_code(Scalar t) {
  switch (t) {
    case Scalar::I8:
      return 'c';
    case Scalar::U8:
      return 'h';
    case Scalar::I16:
      return 's';
    case Scalar::U16:
      return 't';
    case Scalar::I32:
      return 'i';
    case Scalar::U32:
      return 'j';
    case Scalar::I64:
      return 'l';
    case Scalar::U64:
      return 'm';
    case Scalar::F32:
      return 'f';
    case Scalar::F64:
      return 'd';
    default:
      return 0;
  }
}

void throw_number_does_not_fit(Scalar to, long double n) {
  user_error({"number"}) << std::to_string(n) << " does not fit in " << name(to)
                         << "; pass a number in its range or cast<T>() the operand";
  std::abort();  // not reached: the report throws at the end of its statement
}

// One OpenCL builtin of `t` on operands of `lanes` lanes, for the fix-ups below.
llvm::Value* builtin_of(BuilderState& s, std::string_view fn, Scalar t, unsigned lanes,
                        llvm::ArrayRef<llvm::Value*> operands) {
  std::vector<MangledParam> signature(operands.size(), MangledParam{t});
  return s.call_builtin(mangle(fn, signature, lanes), operands.front()->getType(), operands, true);
}

// The special values of OpenCL 1.2's section 7.5.1 that PoCL's library gets wrong (issue #67),
// set on the builtin's results in the kernel itself, so scalar and coarsened code agree:
// tanh(±inf) = ±1; atanpi(±0) = ±0; sinpi(±n) = ±0 and tanpi(n) = copysign(0, n) (n even) or
// copysign(0, -n) (n odd) for finite integers n; cospi(n + 0.5) = +0; fract(±0) and fract(±inf)
// give ±0 and x; lgamma_r's sign is 0 at zero and at the negative integers. And ilogb of ±0 and
// NaN as math.hpp's fp_ilogb0 and fp_ilogbnan, whatever the device's FP_ILOGB0 and FP_ILOGBNAN
// are (OpenCL lets each be one of two values, and no query tells which).
MathResults with_special_values(BuilderState& s, MathFn fn, llvm::Value* x, Scalar t,
                                unsigned lanes, MathResults r) {
  auto& ir = s.ir;
  llvm::Type* type = x->getType();
  auto constant = [&](double v) { return llvm::ConstantFP::get(type, v); };
  auto call = [&](std::string_view name, std::initializer_list<llvm::Value*> operands) {
    return builtin_of(s, name, t, lanes, operands);
  };
  auto is_inf = [&] { return ir.CreateFCmpOEQ(call("fabs", {x}), constant(HUGE_VAL)); };
  auto is_zero = [&] { return ir.CreateFCmpOEQ(x, constant(0.0)); };
  auto finite_integer = [&] {
    return ir.CreateAnd(ir.CreateFCmpOEQ(call("trunc", {x}), x),
                        ir.CreateFCmpONE(call("fabs", {x}), constant(HUGE_VAL)));
  };
  auto zero_signed_as = [&](llvm::Value* sign) { return call("copysign", {constant(0.0), sign}); };
  switch (fn) {
    case MathFn::Tanh:
      r.value = ir.CreateSelect(is_inf(), call("copysign", {constant(1.0), x}), r.value);
      break;
    case MathFn::Atanpi:
      r.value = ir.CreateSelect(is_zero(), x, r.value);
      break;
    case MathFn::Sinpi:
      r.value = ir.CreateSelect(finite_integer(), zero_signed_as(x), r.value);
      break;
    case MathFn::Cospi: {
      // x - trunc(x) is exact: the fraction of a float is a float.
      llvm::Value* fraction = call("fabs", {ir.CreateFSub(x, call("trunc", {x}))});
      r.value = ir.CreateSelect(ir.CreateFCmpOEQ(fraction, constant(0.5)), constant(0.0), r.value);
      break;
    }
    case MathFn::Tanpi: {
      llvm::Value* half = ir.CreateFMul(x, constant(0.5));  // exact for integers
      llvm::Value* odd = ir.CreateFCmpONE(call("trunc", {half}), half);
      llvm::Value* sign = ir.CreateSelect(odd, ir.CreateFNeg(x), x);
      r.value = ir.CreateSelect(finite_integer(), zero_signed_as(sign), r.value);
      break;
    }
    case MathFn::Fract: {
      llvm::Value* zero_or_inf = ir.CreateOr(is_zero(), is_inf());
      r.value = ir.CreateSelect(zero_or_inf, zero_signed_as(x), r.value);
      r.second = ir.CreateSelect(zero_or_inf, x, r.second);
      break;
    }
    case MathFn::Ilogb: {
      llvm::Type* i32 = r.value->getType();
      r.value = ir.CreateSelect(is_zero(), llvm::ConstantInt::getSigned(i32, fp_ilogb0), r.value);
      r.value = ir.CreateSelect(ir.CreateFCmpUNO(x, x),
                                llvm::ConstantInt::getSigned(i32, fp_ilogbnan), r.value);
      break;
    }
    case MathFn::LgammaR: {
      llvm::Value* pole = ir.CreateAnd(finite_integer(), ir.CreateFCmpOLE(x, constant(0.0)));
      r.second = ir.CreateSelect(pole, llvm::ConstantInt::get(r.second->getType(), 0), r.second);
      break;
    }
    default:
      break;
  }
  return r;
}

MathResults emit_math(BuilderState& s, MathFn fn, llvm::ArrayRef<llvm::Value*> args,
                      llvm::ArrayRef<Scalar> types, unsigned lanes, bool want_pair) {
  const FnInfo f = info(fn);
  const Where where{f.name, s.name};
  user_assert(args.size() == f.arity, (where)) << args.size() << " arguments; expected " << f.arity;
  const Scalar t = types.front();
  const bool ok = f.domain == Domain::Float     ? (t == Scalar::F32 || t == Scalar::F64)
                  : f.domain == Domain::Integer ? is_integer(t)
                                                : itanium_code(t) != 0;
  if (!ok) {
    const char* expected = f.domain == Domain::Float     ? "f32 or f64"
                           : f.domain == Domain::Integer ? "an integer type"
                                                         : "an integer type, f32 or f64";
    user_error((where)) << "not defined for " << name(t) << "; expected " << expected;
  }
  for (std::size_t a = 1; a < types.size(); ++a) {
    const Scalar expected = f.form == Form::ExponentI32 ? Scalar::I32 : t;
    if (types[a] == expected) continue;
    if (f.form == Form::ExponentI32) {
      user_error((where)) << "the exponent is " << name(types[a])
                          << "; expected i32 (insert cast<int32_t>)";
    }
    user_error((where)) << "operand types differ: " << name(t) << " and " << name(types[a])
                        << "; insert an explicit cast";
  }
  if (want_pair != two_results(f.form)) {
    user_error((where)) << (want_pair ? "returns one value; call math()"
                                      : "returns two values; call math_pair()");
  }

  llvm::Type* value_type = args.front()->getType();
  auto* i32 = shaped(s.ir.getInt32Ty(), lanes);
  std::vector<MangledParam> params;
  for (Scalar p : types) params.push_back({p});
  auto call = [&](std::string_view base, llvm::Type* ret, llvm::ArrayRef<llvm::Value*> operands,
                  const std::vector<MangledParam>& signature, bool pure) {
    return s.call_builtin(mangle(base, signature, lanes), ret, operands, pure);
  };
  // tgamma and lgamma in f32 computed in f64 and rounded once (issue #67). PoCL's f32 tgamma
  // overflows in its reflection below -35 (x = -37.9999962 was 24,620 ulp off, -39.9999962 gave
  // 0 for 3.2e-43); its f32 lgamma loses every digit near its negative zeros (10^5 ulp at
  // x = -2.4570247), where f64's absolute error, far below an f32 ulp of the result, does not.
  // Every f32 result is far inside f64's range. PoCL's CPU devices all have f64.
  if (t == Scalar::F32 && (fn == MathFn::Tgamma || fn == MathFn::Lgamma || fn == MathFn::LgammaR)) {
    llvm::Value* wide = s.ir.CreateFPExt(args.front(), shaped(s.ir.getDoubleTy(), lanes));
    MathResults r = emit_math(s, fn, {wide}, {Scalar::F64}, lanes, want_pair);
    r.value = s.ir.CreateFPTrunc(r.value, value_type);
    r.type = t;
    return r;
  }
  switch (f.form) {
    case Form::Same:
      // OpenCL's abs(int) returns uint: the same bits, kept here in the operand's type.
      return with_special_values(s, fn, args.front(), t, lanes,
                                 {call(f.name, value_type, args, params, true), t});
    case Form::ExponentI32:
      return {call(f.name, value_type, args, params, true), t};
    case Form::ToI32:
      return with_special_values(s, fn, args.front(), t, lanes,
                                 {call(f.name, i32, args, params, true), Scalar::I32});
    case Form::Test:
      return {emit_test(s, fn, t, args.front(), lanes), Scalar::Bool};
    case Form::SinCos:
      return {call("sin", value_type, args, params, true), t,
              call("cos", value_type, args, params, true), t};
    case Form::OutI32:
    case Form::OutSame: {
      const bool out_i32 = f.form == Form::OutI32;
      llvm::Type* out_type = out_i32 ? i32 : value_type;
      llvm::AllocaInst* slot = s.entry_alloca(out_type, std::string(f.name) + ".out");
      params.push_back({out_i32 ? Scalar::I32 : t, true});
      std::vector<llvm::Value*> operands(args.begin(), args.end());
      operands.push_back(slot);
      // Not readnone: the builtin writes the slot.
      llvm::Value* first = call(f.name, value_type, operands, params, false);
      llvm::Value* second = s.ir.CreateLoad(out_type, slot);
      return with_special_values(s, fn, args.front(), t, lanes,
                                 {first, t, second, out_i32 ? Scalar::I32 : t});
    }
  }
  internal_assert(false) << "unknown form of " << f.name;
  return {};
}

}  // namespace detail

namespace {
detail::MathResults math_of(MathFn fn, std::initializer_list<Value> args, bool want_pair) {
  const char* fname = info(fn).name;
  user_assert(args.size() != 0 && args.begin()->valid(), {fname}) << "operand is an empty Value";
  auto& s = *detail::state_of(*args.begin());
  s.check_open(fname);
  std::vector<llvm::Value*> raw;
  std::vector<Scalar> types;
  for (const Value& a : args) {
    s.check_same_builder(a, fname);
    raw.push_back(detail::llvm_of(a));
    types.push_back(a.type());
  }
  return detail::emit_math(s, fn, raw, types, 1, want_pair);
}
}  // namespace

Value math(MathFn fn, std::initializer_list<Value> args) {
  const detail::MathResults r = math_of(fn, args, false);
  return detail::make_value(detail::state_of(*args.begin()), r.value, r.type);
}

std::pair<Value, Value> math_pair(MathFn fn, std::initializer_list<Value> args) {
  const detail::MathResults r = math_of(fn, args, true);
  auto* s = detail::state_of(*args.begin());
  return {detail::make_value(s, r.value, r.type), detail::make_value(s, r.second, r.second_type)};
}

}  // namespace spvjit
