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
  if (arity == 0 || arity > 3 || call.getType()->isVoidTy()) return {};
  for (unsigned a = 0; a < arity; ++a) {
    if (call.getArgOperand(a)->getType() != call.getType()) return {};
  }
  const llvm::StringRef name = callee->getName();
  if (!name.startswith("_Z")) return {};
  std::size_t pos = 2;
  std::size_t length = 0;
  while (pos < name.size() && std::isdigit(static_cast<unsigned char>(name[pos]))) {
    length = length * 10 + static_cast<std::size_t>(name[pos++] - '0');
  }
  if (length == 0 || pos + length + arity != name.size()) return {};
  const char code = name.back();
  // Scalar codes only: float, double and the integer types (OpenCL's char is signed: 'c').
  if (std::string_view("fdcahstijlm").find(code) == std::string_view::npos) return {};
  for (std::size_t i = pos + length; i < name.size(); ++i) {
    if (name[i] != code) return {};
  }
  std::string out = name.substr(0, pos + length).str();
  out += "Dv" + std::to_string(width) + "_" + code;
  for (unsigned a = 1; a < arity; ++a) out += "S_";
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

bool vector_form_exact(const llvm::CallInst& call) {
  static const char* const exact[] = {"fabs", "floor", "ceil", "round", "trunc", "rint",
                                      "fmin", "fmax", "copysign", "fma", "sqrt", "abs",
                                      "min", "max", "clamp", "popcount", "clz"};
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
  return false;
}

}  // namespace spvjit::detail
