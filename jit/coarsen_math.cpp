#include "jit/coarsen_math.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <cctype>

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

}  // namespace spvjit::detail
