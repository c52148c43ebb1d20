// The conversions beyond plain casts: cast()'s float-to-integer check (an out-of-range value or
// NaN fails the launch, as Julia's InexactError), bit_cast (the same bits read as another type)
// and cast_sat (to an integer type, clamped to its range, NaN to 0 — OpenCL's convert_<T>_sat).
#include "spvjit/convert.hpp"

#include <llvm/IR/Constants.h>

#include "common/error_report.hpp"
#include "common/integer_range.hpp"
#include "ir/bounds.hpp"
#include "ir/emit.hpp"
#include "ir/state.hpp"
#include "ir/handles.hpp"

namespace spvjit {

namespace detail {

namespace {

llvm::Type* shaped_like(llvm::Type* element, llvm::Value* x) {
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(x->getType())) {
    return llvm::FixedVectorType::get(element, vector->getNumElements());
  }
  return element;
}

llvm::Constant* splat_int(llvm::Type* t, __int128 v) {
  return llvm::ConstantInt::get(t, static_cast<std::uint64_t>(v), true);
}

// Whether each lane of float `x` truncates to a value of integer type `to`: lo - 1 < x < hi + 1
// (NaN is not). hi + 1 is a power of two, exact in any float type; lo - 1 is exact when the float
// has the bits for it (int8 or int16 in float, int32 in double), and where it is not, no float
// lies strictly between lo - 1 and lo, so lo <= x says the same.
llvm::Value* truncates_into(llvm::IRBuilder<>& ir, llvm::Value* x, Scalar from, Scalar to) {
  llvm::Type* ft = x->getType();
  const unsigned bits = size_of(to) * 8;
  const unsigned mantissa = from == Scalar::F64 ? 53 : 24;  // f16 values are floats in registers
  const __int128 lo = least_value(to);
  auto* above_f = llvm::ConstantFP::get(ft, static_cast<double>(greatest_value(to)) + 1.0);
  llvm::Value* below_top = ir.CreateFCmpOLT(x, above_f);
  llvm::Value* above_bottom =
      !is_signed(to) || bits <= mantissa
          ? ir.CreateFCmpOGT(x, llvm::ConstantFP::get(ft, static_cast<double>(lo) - 1.0))
          : ir.CreateFCmpOGE(x, llvm::ConstantFP::get(ft, static_cast<double>(lo)));
  return ir.CreateAnd(above_bottom, below_top, "converts");
}

}  // namespace

llvm::Value* emit_checked_float_to_int(BuilderState& s, llvm::Value* x, Scalar from, Scalar to) {
  auto& ir = s.ir;
  llvm::Type* target = shaped_like(s.register_type(to), x);
  auto convert = [&]() -> llvm::Value* {
    return is_signed(to) ? ir.CreateFPToSI(x, target) : ir.CreateFPToUI(x, target);
  };
  // The check's one pair is (bits, 1): the value's bits (of the first failing lane) where it does
  // not convert, else 0. Out of range never has bits 0, which is +0.0.
  llvm::Value* converts = truncates_into(ir, x, from, to);
  llvm::Type* float_type = x->getType()->getScalarType();
  llvm::Type* bits_type = ir.getIntNTy(float_type->getPrimitiveSizeInBits());
  llvm::Value* failing_bits = ir.getInt64(0);
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(x->getType())) {
    llvm::Value* bits =
        ir.CreateBitCast(x, llvm::FixedVectorType::get(bits_type, vector->getNumElements()));
    for (unsigned l = vector->getNumElements(); l-- > 0;) {
      failing_bits =
          ir.CreateSelect(ir.CreateExtractElement(converts, l), failing_bits,
                          ir.CreateZExt(ir.CreateExtractElement(bits, l), ir.getInt64Ty()));
    }
  } else {
    failing_bits = ir.CreateSelect(converts, failing_bits,
                                   ir.CreateZExt(ir.CreateBitCast(x, bits_type), ir.getInt64Ty()));
  }
  BoundsSite site;
  site.element = from;
  site.kind = SiteKind::Conversion;
  site.target = to;
  return checked(s, {failing_bits, ir.getInt64(1)}, std::move(site), convert);
}

void check_bit_cast(const Where& where, Scalar from, Scalar to) {
  user_assert(
      from != Scalar::Bool && to != Scalar::Bool && from != Scalar::F16 && to != Scalar::F16,
      (where))
      << name(from) << " to " << name(to)
      << ": bool and f16 have no register bits to reinterpret; expected integer, f32 or f64 types";
  user_assert(size_of(from) == size_of(to), (where))
      << name(from) << " (" << size_of(from) << " bytes) to " << name(to) << " (" << size_of(to)
      << " bytes): the sizes differ; expected types of one size (f32 and i32 or u32, f64 and "
         "i64 or u64)";
}

llvm::Value* emit_bit_cast(BuilderState& s, llvm::Value* x, Scalar to) {
  return s.ir.CreateBitCast(x, shaped_like(s.register_type(to), x));
}

void check_cast_sat(const Where& where, Scalar from, Scalar to) {
  user_assert(is_integer(to), (where))
      << "the target " << name(to)
      << " is not an integer type; saturation is defined for integer targets (cast() to floats)";
  user_assert(from != Scalar::F16, (where)) << "the operand is f16, a storage type";
}

llvm::Value* emit_cast_sat(BuilderState& s, llvm::Value* x, Scalar from, Scalar to) {
  auto& ir = s.ir;
  llvm::Type* target = shaped_like(s.register_type(to), x);
  const __int128 lo = least_value(to), hi = greatest_value(to);
  if (from == Scalar::Bool) return ir.CreateZExt(x, target);
  if (is_float(from)) {
    // In range: lo <= x < hi + 1, both bounds powers of two (or 0) and so exact in any float
    // type. Out of range the plain conversion is undefined in LLVM: it converts 0 instead, and
    // the selects put the bound (or 0 for NaN) in its place.
    llvm::Type* ft = x->getType();
    auto* lo_f = llvm::ConstantFP::get(ft, static_cast<double>(lo));
    auto* above_f = llvm::ConstantFP::get(ft, static_cast<double>(hi) + 1.0);
    llvm::Value* in_range = ir.CreateAnd(ir.CreateFCmpOGE(x, lo_f), ir.CreateFCmpOLT(x, above_f));
    llvm::Value* safe = ir.CreateSelect(in_range, x, llvm::ConstantFP::get(ft, 0.0));
    llvm::Value* converted =
        is_signed(to) ? ir.CreateFPToSI(safe, target) : ir.CreateFPToUI(safe, target);
    llvm::Value* bound =
        ir.CreateSelect(ir.CreateFCmpOLT(x, lo_f), splat_int(target, lo), splat_int(target, hi));
    bound = ir.CreateSelect(ir.CreateFCmpUNO(x, x), llvm::Constant::getNullValue(target), bound);
    return ir.CreateSelect(in_range, converted, bound);
  }
  // Integer to integer: clamp in the operand's type to the target's bounds that lie inside the
  // operand's range, then convert (the value fits, so extension or truncation keeps it).
  llvm::Type* ft = x->getType();
  const bool signed_from = is_signed(from);
  if (lo > least_value(from)) {
    llvm::Value* below = signed_from ? ir.CreateICmpSLT(x, splat_int(ft, lo))
                                     : ir.CreateICmpULT(x, splat_int(ft, lo));
    x = ir.CreateSelect(below, splat_int(ft, lo), x);
  }
  if (hi < greatest_value(from)) {
    llvm::Value* above = signed_from ? ir.CreateICmpSGT(x, splat_int(ft, hi))
                                     : ir.CreateICmpUGT(x, splat_int(ft, hi));
    x = ir.CreateSelect(above, splat_int(ft, hi), x);
  }
  return ir.CreateIntCast(x, target, signed_from);
}

}  // namespace detail

Value bit_cast(Value v, Scalar to) {
  user_assert(v.valid(), {"bit_cast"}) << "operand is an empty Value";
  auto& s = *detail::state_of(v);
  s.check_open("bit_cast");
  s.check_in_current_function(detail::llvm_of(v), "bit_cast");
  detail::check_bit_cast({"bit_cast", s.name}, v.type(), to);
  if (v.type() == to) return v;
  return detail::make_value(&s, detail::emit_bit_cast(s, detail::llvm_of(v), to), to);
}

Value cast_sat(Value v, Scalar to) {
  user_assert(v.valid(), {"cast_sat"}) << "operand is an empty Value";
  auto& s = *detail::state_of(v);
  s.check_open("cast_sat");
  s.check_in_current_function(detail::llvm_of(v), "cast_sat");
  detail::check_cast_sat({"cast_sat", s.name}, v.type(), to);
  if (v.type() == to) return v;
  return detail::make_value(&s, detail::emit_cast_sat(s, detail::llvm_of(v), v.type(), to), to);
}

}  // namespace spvjit
