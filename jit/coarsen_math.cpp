#include "jit/coarsen_math.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <cctype>
#include <cstdint>

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

llvm::Value* float_to_half_bits(llvm::IRBuilder<>& b, llvm::Value* floats) {
  auto* type = llvm::cast<llvm::FixedVectorType>(floats->getType());
  const unsigned w = type->getNumElements();
  auto* i32s = llvm::FixedVectorType::get(b.getInt32Ty(), w);
  auto u32 = [&](std::uint32_t v) { return llvm::ConstantInt::get(i32s, v); };
  llvm::Value* x = b.CreateBitCast(floats, i32s);
  llvm::Value* sign = b.CreateAnd(b.CreateLShr(x, u32(16)), u32(0x8000));
  llvm::Value* a = b.CreateAnd(x, u32(0x7fffffff));
  // |x| >= 65536: infinity, or NaN (PoCL's 0x7fff); [65520, 65536) carries into 0x7c00 below.
  llvm::Value* big = b.CreateSelect(b.CreateICmpUGT(a, u32(0x7f800000)), u32(0x7fff), u32(0x7c00));
  // Below 2^-14 the half is subnormal: adding 0.5f rounds the float to a multiple of 2^-24
  // with the FPU's nearest-even, and the low mantissa bits are then the half's.
  auto* magic = llvm::ConstantFP::get(type, 0.5);
  llvm::Value* tiny = b.CreateSub(
      b.CreateBitCast(b.CreateFAdd(b.CreateBitCast(a, type), magic), i32s), u32(0x3f000000));
  // Normal halves: rebias the exponent (-112 << 23), round to nearest even on bit 13.
  llvm::Value* odd = b.CreateAnd(b.CreateLShr(a, u32(13)), u32(1));
  llvm::Value* normal = b.CreateLShr(b.CreateAdd(b.CreateAdd(a, u32(0xc8000fff)), odd), u32(13));
  llvm::Value* bits = b.CreateSelect(b.CreateICmpUGE(a, u32(0x47800000)), big,
                                     b.CreateSelect(b.CreateICmpULT(a, u32(0x38800000)), tiny, normal));
  return b.CreateTrunc(b.CreateOr(bits, sign), llvm::FixedVectorType::get(b.getInt16Ty(), w));
}

bool vector_intrinsic(const llvm::CallInst& call) {
  const auto* callee = call.getCalledFunction();
  if (!callee || !callee->isIntrinsic()) return false;
  switch (callee->getIntrinsicID()) {
    case llvm::Intrinsic::minnum:
    case llvm::Intrinsic::maxnum:
    case llvm::Intrinsic::fabs:
    case llvm::Intrinsic::copysign:
    case llvm::Intrinsic::floor:
    case llvm::Intrinsic::ceil:
    case llvm::Intrinsic::trunc:
    case llvm::Intrinsic::rint:
    case llvm::Intrinsic::round:
    case llvm::Intrinsic::fma:
      break;
    default:
      return false;
  }
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
