#include "jit/coarsen/math.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <cctype>
#include <cstdint>

#include "jit/device/split_vector_calls.hpp"

namespace spvjit::detail {

std::string vector_math_name(const llvm::CallInst& call, unsigned width) {
  const auto* callee = call.getCalledFunction();
  if (!callee || !callee->isDeclaration() || !callee->doesNotAccessMemory()) return {};
  const unsigned arity = call.arg_size();
  if (arity == 0 || arity > 3) return {};
  const llvm::StringRef name = callee->getName();
  if (!name.startswith("_Z")) return {};
  std::size_t pos = 2;
  std::size_t length = 0;
  while (pos < name.size() && std::isdigit(static_cast<unsigned char>(name[pos]))) {
    length = length * 10 + static_cast<std::size_t>(name[pos++] - '0');
  }
  if (length == 0 || pos + length + arity != name.size()) return {};
  // Operands and result of one type, but for the builtins known to differ the same way in
  // their vector forms: ldexp/pown/rootn(floatn, intn), ilogb(floatn) -> intn. (isnan and the
  // other relational builtins are left out on purpose: their vector forms give -1 for true.)
  const llvm::StringRef base = name.substr(pos, length);
  llvm::Type* t = call.getArgOperand(0)->getType();
  if (!t->isIntegerTy() && !t->isFloatingPointTy()) return {};
  llvm::Type* i32 = llvm::Type::getInt32Ty(call.getContext());
  const bool exponent = base == "ldexp" || base == "pown" || base == "rootn";
  if (call.getType() != (base == "ilogb" ? i32 : t)) return {};
  for (unsigned a = 1; a < arity; ++a) {
    if (call.getArgOperand(a)->getType() != (exponent && a == 1 ? i32 : t)) return {};
  }
  // One scalar code per operand: float, double and the integer types (OpenCL's char is
  // signed: 'c'). Operands may differ (ldexp's `fi`); a repeated vector type is substituted.
  std::string out = name.substr(0, pos + length).str();
  std::string seen;
  for (std::size_t i = pos + length; i < name.size(); ++i) {
    const char code = name[i];
    if (std::string_view("fdcahstijlm").find(code) == std::string_view::npos) return {};
    const std::size_t k = seen.find(code);
    if (k == std::string::npos) {
      out += "Dv" + std::to_string(width) + "_" + code;
      seen += code;
    } else {
      out += k == 0 ? std::string("S_") : "S" + std::to_string(k - 1) + "_";
    }
  }
  return out;
}

bool vector_intrinsic(const llvm::CallInst& call) {
  const auto* callee = call.getCalledFunction();
  if (!callee || !callee->isIntrinsic()) return false;
  // llvm.sqrt is left out: the builder calls OpenCL's sqrt, and raw modules keep it scalar.
  const auto id = callee->getIntrinsicID();
  if (id == llvm::Intrinsic::sqrt || !builtin_intrinsic(id)) return false;
  for (const auto& a : call.args()) {
    if (a->getType() != call.getType()) return false;
  }
  return true;
}

bool vector_form_same_bits(const llvm::CallInst& call, VectorMath math) {
  // Exactly specified by OpenCL (correctly rounded or exact), so one implementation's scalar
  // and vector forms agree.
  static const char* const exact[] = {
      "fabs",      "floor", "ceil",   "round",  "trunc",  "rint",      "fmin",    "fmax",
      "copysign",  "fma",   "sqrt",   "fdim",   "fmod",   "remainder", "maxmag",  "minmag",
      "nextafter", "ldexp", "ilogb",  "logb",   "abs",    "min",       "max",     "clamp",
      "popcount",  "clz",   "ctz",    "mul_hi", "rotate", "add_sat",   "sub_sat", "abs_diff",
      "hadd",      "rhadd", "mad_hi", "mad_sat"};
  // The rest of math.hpp's functions: one algorithm at every width only where the device says
  // so (PoCL patch 0014; test/test_coarsen_math.cpp checks each at every width).
  static const char* const consistent[] = {
      "rsqrt",  "cbrt",   "exp",  "exp2",  "exp10", "expm1", "log",   "log2",    "log10", "log1p",
      "sin",    "cos",    "tan",  "sinpi", "cospi", "tanpi", "asin",  "acos",    "atan",  "asinpi",
      "acospi", "atanpi", "sinh", "cosh",  "tanh",  "asinh", "acosh", "atanh",   "erf",   "erfc",
      "tgamma", "lgamma", "pow",  "powr",  "pown",  "rootn", "atan2", "atan2pi", "hypot"};
  llvm::StringRef name = call.getCalledFunction()->getName();
  if (!name.consume_front("_Z")) return false;
  std::size_t length = 0;
  while (!name.empty() && std::isdigit(static_cast<unsigned char>(name.front()))) {
    length = length * 10 + static_cast<std::size_t>(name.front() - '0');
    name = name.drop_front();
  }
  const llvm::StringRef base = name.take_front(length);
  for (const char* e : exact) {
    if (base == e) return true;
  }
  if (math == VectorMath::every_function) {
    for (const char* c : consistent) {
      if (base == c) return true;
    }
  }
  return false;
}

bool called_per_lane(const llvm::CallInst& call, VectorMath math) {
  return !vector_intrinsic(call) && !vector_math_name(call, 2).empty() &&
         !vector_form_same_bits(call, math);
}

}  // namespace spvjit::detail
