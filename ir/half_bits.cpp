#include "ir/half_bits.hpp"

#include <cstdint>

namespace spvjit::detail {

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
  llvm::Value* bits =
      b.CreateSelect(b.CreateICmpUGE(a, u32(0x47800000)), big,
                     b.CreateSelect(b.CreateICmpULT(a, u32(0x38800000)), tiny, normal));
  return b.CreateTrunc(b.CreateOr(bits, sign), llvm::FixedVectorType::get(b.getInt16Ty(), w));
}

llvm::Value* half_bits_to_float(llvm::IRBuilder<>& b, llvm::Value* halves) {
  const unsigned w = llvm::cast<llvm::FixedVectorType>(halves->getType())->getNumElements();
  auto* i32s = llvm::FixedVectorType::get(b.getInt32Ty(), w);
  auto* floats = llvm::FixedVectorType::get(b.getFloatTy(), w);
  auto u32 = [&](std::uint32_t v) { return llvm::ConstantInt::get(i32s, v); };
  llvm::Value* h = b.CreateZExt(halves, i32s);
  llvm::Value* sign = b.CreateShl(b.CreateAnd(h, u32(0x8000)), u32(16));
  llvm::Value* exponent = b.CreateAnd(b.CreateLShr(h, u32(10)), u32(0x1f));
  llvm::Value* mantissa = b.CreateAnd(h, u32(0x3ff));
  // Normal: the exponent rebiased by 127 - 15 = 112.
  llvm::Value* normal =
      b.CreateAdd(b.CreateShl(b.CreateAnd(h, u32(0x7fff)), u32(13)), u32(112u << 23));
  // Infinity, or a NaN quieted (bit 22) with its payload.
  llvm::Value* quiet = b.CreateSelect(b.CreateICmpNE(mantissa, u32(0)), u32(0x400000), u32(0));
  llvm::Value* special =
      b.CreateOr(b.CreateOr(u32(0x7f800000), b.CreateShl(mantissa, u32(13))), quiet);
  // Subnormal halves are mantissa * 2^-24: a normal float, computed exactly.
  llvm::Value* tiny = b.CreateBitCast(
      b.CreateFMul(b.CreateUIToFP(mantissa, floats), llvm::ConstantFP::get(floats, 0x1p-24)), i32s);
  llvm::Value* bits =
      b.CreateSelect(b.CreateICmpEQ(exponent, u32(31)), special,
                     b.CreateSelect(b.CreateICmpEQ(exponent, u32(0)), tiny, normal));
  return b.CreateBitCast(b.CreateOr(bits, sign), floats);
}

}  // namespace spvjit::detail
