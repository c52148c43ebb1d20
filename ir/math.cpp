// The math set as calls to OpenCL builtins with Itanium-mangled names (`_Z4sqrtf`,
// `_Z5clampddd`), which the translator maps to OpenCL.std extended instructions.
#include "spvjit/math.hpp"

#include <vector>

#include "common/error_report.hpp"
#include "ir/emit.hpp"
#include "ir/state.hpp"

namespace spvjit {

namespace {

enum class Domain { Float, Integer, Any };

struct FnInfo {
  const char* name;
  unsigned arity;
  Domain domain;
};

FnInfo info(MathFn fn) {
  switch (fn) {
    case MathFn::Sqrt: return {"sqrt", 1, Domain::Float};
    case MathFn::Rsqrt: return {"rsqrt", 1, Domain::Float};
    case MathFn::Exp: return {"exp", 1, Domain::Float};
    case MathFn::Exp2: return {"exp2", 1, Domain::Float};
    case MathFn::Log: return {"log", 1, Domain::Float};
    case MathFn::Log2: return {"log2", 1, Domain::Float};
    case MathFn::Log1p: return {"log1p", 1, Domain::Float};
    case MathFn::Sin: return {"sin", 1, Domain::Float};
    case MathFn::Cos: return {"cos", 1, Domain::Float};
    case MathFn::Tan: return {"tan", 1, Domain::Float};
    case MathFn::Fabs: return {"fabs", 1, Domain::Float};
    case MathFn::Floor: return {"floor", 1, Domain::Float};
    case MathFn::Ceil: return {"ceil", 1, Domain::Float};
    case MathFn::Round: return {"round", 1, Domain::Float};
    case MathFn::Trunc: return {"trunc", 1, Domain::Float};
    case MathFn::Pow: return {"pow", 2, Domain::Float};
    case MathFn::Fmin: return {"fmin", 2, Domain::Float};
    case MathFn::Fmax: return {"fmax", 2, Domain::Float};
    case MathFn::Copysign: return {"copysign", 2, Domain::Float};
    case MathFn::Fma: return {"fma", 3, Domain::Float};
    case MathFn::Clamp: return {"clamp", 3, Domain::Any};
    case MathFn::Abs: return {"abs", 1, Domain::Integer};
    case MathFn::Popcount: return {"popcount", 1, Domain::Integer};
    case MathFn::Clz: return {"clz", 1, Domain::Integer};
  }
  return {"?", 0, Domain::Any};
}

char type_code(Scalar t) {
  switch (t) {
    case Scalar::I8: return 'c';
    case Scalar::U8: return 'h';
    case Scalar::I16: return 's';
    case Scalar::U16: return 't';
    case Scalar::I32: return 'i';
    case Scalar::U32: return 'j';
    case Scalar::I64: return 'l';
    case Scalar::U64: return 'm';
    case Scalar::F32: return 'f';
    case Scalar::F64: return 'd';
    default: return 0;
  }
}

}  // namespace

std::string_view name(MathFn fn) noexcept { return info(fn).name; }

namespace detail {

std::string math_builtin(const BuilderState& s, MathFn fn, Scalar t, std::size_t given,
                         unsigned lanes) {
  const FnInfo f = info(fn);
  user_assert(given == f.arity, {f.name, s.name}) << given << " arguments; expected " << f.arity;
  const bool ok = f.domain == Domain::Float     ? (t == Scalar::F32 || t == Scalar::F64)
                  : f.domain == Domain::Integer ? is_integer(t)
                                                : type_code(t) != 0;
  if (!ok) {
    const char* expected = f.domain == Domain::Float     ? "f32 or f64"
                           : f.domain == Domain::Integer ? "an integer type"
                                                         : "an integer type, f32 or f64";
    user_error({f.name, s.name}) << "not defined for " << name(t) << "; expected " << expected;
  }
  const std::string base = f.name;
  std::string mangled = "_Z" + std::to_string(base.size()) + base;
  if (lanes == 1) return mangled + std::string(f.arity, type_code(t));
  // Itanium: the first vector operand spelled out, the others substituted (`_Z3fmaDv8_fS_S_`).
  mangled += "Dv" + std::to_string(lanes) + "_" + type_code(t);
  for (unsigned a = 1; a < f.arity; ++a) mangled += "S_";
  return mangled;
}

}  // namespace detail

Value math(MathFn fn, std::initializer_list<Value> args) {
  const char* fname = info(fn).name;
  user_assert(args.size() != 0 && args.begin()->valid(), {fname}) << "operand is an empty Value";
  const Value& first = *args.begin();
  auto& s = *detail::state_of(first);
  s.check_open(fname);
  const Scalar t = first.type();
  std::vector<llvm::Value*> raw;
  for (const Value& a : args) {
    s.check_same_builder(a, fname);
    user_assert(a.type() == t, {fname, s.name}) << "operand types differ: " << name(t) << " and "
                                                << name(a.type()) << "; insert an explicit cast";
    raw.push_back(detail::llvm_of(a));
  }
  const std::string mangled = detail::math_builtin(s, fn, t, args.size(), 1);
  // OpenCL's abs(int) returns uint: the same bits, kept here in the operand's type.
  auto* call = s.call_builtin(mangled, raw.front()->getType(), raw);
  return detail::make_value(&s, call, t);
}

}  // namespace spvjit
