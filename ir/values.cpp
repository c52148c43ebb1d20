// Operations on values: arithmetic, comparisons, casts, constants, loads and stores. Each
// checks its operand types; the rules are:
//  - binary operators and comparisons need both operands of one type (no implicit promotion);
//  - bitwise operators and shifts take integers or bool (shifts: integers only);
//  - shift amounts are taken modulo the bit width, as in OpenCL C, so no shift is undefined;
//  - integer division and remainder by zero are the caller's concern, as in OpenCL C;
//  - Min/Max on floats follow fmin/fmax (a NaN operand yields the other operand).
#include <llvm/IR/Intrinsics.h>

#include <cstdlib>

#include "ir/half_bits.hpp"
#include "ir/bounds.hpp"
#include "common/error_report.hpp"
#include "ir/emit.hpp"
#include "ir/handles.hpp"
#include "spvjit/pointer.hpp"

namespace spvjit {

namespace detail {
void throw_type_mismatch(const char* what, Scalar expected, const Value& given) {
  user_error({what, kernel_name(state_of(given))})
      << "expected " << name(expected) << ", got " << name(given.type());
  std::abort();  // not reached: the report throws at the end of its statement
}
}  // namespace detail

std::string_view name(BinaryOp op) noexcept {
  switch (op) {
    case BinaryOp::Add:
      return "add";
    case BinaryOp::Sub:
      return "sub";
    case BinaryOp::Mul:
      return "mul";
    case BinaryOp::Div:
      return "div";
    case BinaryOp::Rem:
      return "rem";
    case BinaryOp::And:
      return "and";
    case BinaryOp::Or:
      return "or";
    case BinaryOp::Xor:
      return "xor";
    case BinaryOp::Shl:
      return "shl";
    case BinaryOp::Shr:
      return "shr";
    case BinaryOp::Min:
      return "min";
    case BinaryOp::Max:
      return "max";
  }
  return "?";
}

namespace {

detail::BuilderState& operands(const char* what, const Value& a, const Value& b) {
  user_assert(a.valid() && b.valid(), {what}) << "operand is an empty Value";
  auto& s = *detail::state_of(a);
  s.check_open(what);
  s.check_same_builder(a, what);
  s.check_same_builder(b, what);
  user_assert(a.type() == b.type(), {what, s.name})
      << "operand types differ: " << name(a.type()) << " and " << name(b.type())
      << "; insert an explicit cast";
  return s;
}

[[noreturn]] void unsupported(const detail::BuilderState& s, const std::string& what, Scalar t,
                              const char* expected) {
  user_error({what, s.name}) << "not defined for " << name(t) << "; expected " << expected;
  std::abort();  // not reached: the report throws at the end of its statement
}

}  // namespace

namespace detail {

llvm::Value* emit_mul_add(BuilderState& s, Scalar t, llvm::Value* a, llvm::Value* b, llvm::Value* c,
                          const std::string& what) {
  if (!is_float(t)) unsupported(s, what, t, "f32 or f64");
  llvm::IRBuilderBase::FastMathFlagGuard keep(s.ir);
  llvm::FastMathFlags contract = s.ir.getFastMathFlags();  // an open fastmath block's, if any
  contract.setAllowContract(true);
  s.ir.setFastMathFlags(contract);
  return s.ir.CreateFAdd(s.ir.CreateFMul(a, b), c);
}

llvm::Value* emit_binary(BuilderState& s, BinaryOp op, Scalar t, llvm::Value* a, llvm::Value* b,
                         const std::string& what) {
  auto& ir = s.ir;
  const bool fp = is_float(t);
  const bool sign = is_signed(t);
  llvm::Value* r = nullptr;
  switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Rem:
      if (t == Scalar::Bool) unsupported(s, what, t, "an integer or float type");
      if (op == BinaryOp::Add) r = fp ? ir.CreateFAdd(a, b) : ir.CreateAdd(a, b);
      if (op == BinaryOp::Sub) r = fp ? ir.CreateFSub(a, b) : ir.CreateSub(a, b);
      if (op == BinaryOp::Mul) r = fp ? ir.CreateFMul(a, b) : ir.CreateMul(a, b);
      if (op == BinaryOp::Div)
        r = fp ? ir.CreateFDiv(a, b) : sign ? ir.CreateSDiv(a, b) : ir.CreateUDiv(a, b);
      if (op == BinaryOp::Rem)
        r = fp ? ir.CreateFRem(a, b) : sign ? ir.CreateSRem(a, b) : ir.CreateURem(a, b);
      break;
    case BinaryOp::And:
    case BinaryOp::Or:
    case BinaryOp::Xor:
      if (fp) unsupported(s, what, t, "an integer type or bool");
      if (op == BinaryOp::And) r = ir.CreateAnd(a, b);
      if (op == BinaryOp::Or) r = ir.CreateOr(a, b);
      if (op == BinaryOp::Xor) r = ir.CreateXor(a, b);
      break;
    case BinaryOp::Shl:
    case BinaryOp::Shr: {
      if (!is_integer(t)) unsupported(s, what, t, "an integer type");
      const unsigned bits = a->getType()->getScalarSizeInBits();
      auto* amount = ir.CreateAnd(b, llvm::ConstantInt::get(b->getType(), bits - 1));
      if (op == BinaryOp::Shl)
        r = ir.CreateShl(a, amount);
      else
        r = sign ? ir.CreateAShr(a, amount) : ir.CreateLShr(a, amount);
      break;
    }
    case BinaryOp::Min:
    case BinaryOp::Max:
      if (t == Scalar::Bool) unsupported(s, what, t, "an integer or float type");
      if (fp) {
        r = ir.CreateBinaryIntrinsic(
            op == BinaryOp::Min ? llvm::Intrinsic::minnum : llvm::Intrinsic::maxnum, a, b);
      } else {
        llvm::Value* less = sign ? ir.CreateICmpSLT(a, b) : ir.CreateICmpULT(a, b);
        r = op == BinaryOp::Min ? ir.CreateSelect(less, a, b) : ir.CreateSelect(less, b, a);
      }
      break;
  }
  return r;
}

llvm::Value* emit_compare(BuilderState& s, CompareOp op, Scalar t, llvm::Value* a, llvm::Value* b) {
  llvm::CmpInst::Predicate p;
  if (is_float(t)) {
    constexpr llvm::CmpInst::Predicate fp[] = {llvm::CmpInst::FCMP_OLT, llvm::CmpInst::FCMP_OLE,
                                               llvm::CmpInst::FCMP_OGT, llvm::CmpInst::FCMP_OGE,
                                               llvm::CmpInst::FCMP_OEQ, llvm::CmpInst::FCMP_UNE};
    p = fp[static_cast<int>(op)];
  } else if (is_signed(t)) {
    constexpr llvm::CmpInst::Predicate si[] = {llvm::CmpInst::ICMP_SLT, llvm::CmpInst::ICMP_SLE,
                                               llvm::CmpInst::ICMP_SGT, llvm::CmpInst::ICMP_SGE,
                                               llvm::CmpInst::ICMP_EQ,  llvm::CmpInst::ICMP_NE};
    p = si[static_cast<int>(op)];
  } else {
    constexpr llvm::CmpInst::Predicate ui[] = {llvm::CmpInst::ICMP_ULT, llvm::CmpInst::ICMP_ULE,
                                               llvm::CmpInst::ICMP_UGT, llvm::CmpInst::ICMP_UGE,
                                               llvm::CmpInst::ICMP_EQ,  llvm::CmpInst::ICMP_NE};
    p = ui[static_cast<int>(op)];
  }
  return s.ir.CreateCmp(p, a, b);
}

const char* compare_name(CompareOp op) {
  switch (op) {
    case CompareOp::Lt:
      return "lt";
    case CompareOp::Le:
      return "le";
    case CompareOp::Gt:
      return "gt";
    case CompareOp::Ge:
      return "ge";
    case CompareOp::Eq:
      return "eq";
    case CompareOp::Ne:
      return "ne";
  }
  return "?";
}

llvm::Value* emit_cast(BuilderState& s, llvm::Value* x, Scalar from, Scalar to) {
  auto& ir = s.ir;
  llvm::Type* target = s.register_type(to);
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(x->getType())) {
    target = llvm::FixedVectorType::get(target, vector->getNumElements());
  }
  if (to == Scalar::Bool) {
    return is_float(from) ? ir.CreateFCmpUNE(x, llvm::ConstantFP::get(x->getType(), 0.0))
                          : ir.CreateICmpNE(x, llvm::ConstantInt::get(x->getType(), 0));
  }
  if (from == Scalar::Bool)
    return is_float(to) ? ir.CreateUIToFP(x, target) : ir.CreateZExt(x, target);
  if (is_float(from) && is_float(to)) return ir.CreateFPCast(x, target);
  if (is_float(from)) return emit_checked_float_to_int(s, x, from, to);
  if (is_float(to))
    return is_signed(from) ? ir.CreateSIToFP(x, target) : ir.CreateUIToFP(x, target);
  return ir.CreateIntCast(x, target, is_signed(from));
}

llvm::Value* index64(BuilderState& s, const Value& index, const char* what) {
  s.check_same_builder(index, what);
  user_assert(is_integer(index.type()), {what, s.name})
      << "index must be an integer, got " << name(index.type());
  llvm::Value* i = detail::llvm_of(index);
  if (i->getType() != s.ir.getInt64Ty())
    i = s.ir.CreateIntCast(i, s.ir.getInt64Ty(), is_signed(index.type()));
  return i;
}

}  // namespace detail

Value mul_add(Value a, Value b, Value c) {
  auto& s = operands("mul_add", a, b);
  operands("mul_add", a, c);
  return detail::make_value(&s,
                            detail::emit_mul_add(s, a.type(), detail::llvm_of(a),
                                                 detail::llvm_of(b), detail::llvm_of(c), "mul_add"),
                            a.type());
}

Value binary(BinaryOp op, Value lhs, Value rhs) {
  const std::string what(name(op));
  auto& s = operands(what.c_str(), lhs, rhs);
  return detail::make_value(
      &s, detail::emit_binary(s, op, lhs.type(), detail::llvm_of(lhs), detail::llvm_of(rhs), what),
      lhs.type());
}

Value compare(CompareOp op, Value lhs, Value rhs) {
  auto& s = operands(detail::compare_name(op), lhs, rhs);
  return detail::make_value(
      &s, detail::emit_compare(s, op, lhs.type(), detail::llvm_of(lhs), detail::llvm_of(rhs)),
      Scalar::Bool);
}

Value negate(Value v) {
  user_assert(v.valid(), {"neg"}) << "operand is an empty Value";
  auto& s = *detail::state_of(v);
  s.check_open("neg");
  s.check_in_current_function(detail::llvm_of(v), "neg");
  if (v.type() == Scalar::Bool) unsupported(s, "neg", v.type(), "an integer or float type");
  auto* r =
      is_float(v.type()) ? s.ir.CreateFNeg(detail::llvm_of(v)) : s.ir.CreateNeg(detail::llvm_of(v));
  return detail::make_value(&s, r, v.type());
}

Value logical_not(Value v) {
  user_assert(v.valid(), {"not"}) << "operand is an empty Value";
  auto& s = *detail::state_of(v);
  s.check_open("not");
  s.check_in_current_function(detail::llvm_of(v), "not");
  if (is_float(v.type())) unsupported(s, "not", v.type(), "bool or an integer type");
  return detail::make_value(&s, s.ir.CreateNot(detail::llvm_of(v)), v.type());
}

Value select(Value cond, Value if_true, Value if_false) {
  auto& s = operands("select", if_true, if_false);
  s.check_same_builder(cond, "select");
  user_assert(cond.type() == Scalar::Bool, {"select", s.name})
      << "condition: expected bool, got " << name(cond.type());
  return detail::make_value(
      &s,
      s.ir.CreateSelect(detail::llvm_of(cond), detail::llvm_of(if_true), detail::llvm_of(if_false)),
      if_true.type());
}

Value cast(Value v, Scalar to) {
  user_assert(v.valid(), {"cast"}) << "operand is an empty Value";
  auto& s = *detail::state_of(v);
  s.check_open("cast");
  s.check_in_current_function(detail::llvm_of(v), "cast");
  user_assert(to != Scalar::F16, {"cast", s.name})
      << "the target f16 is a storage type; keep f32 and store it through a half pointer";
  if (v.type() == to) return v;
  return detail::make_value(&s, detail::emit_cast(s, detail::llvm_of(v), v.type(), to), to);
}

Value constant(detail::BuilderState* state, Scalar type, double value) {
  user_assert(state, {"constant"}) << "no builder";
  if (!is_float(type))
    return constant_int(state, type, static_cast<std::uint64_t>(static_cast<std::int64_t>(value)));
  if (type == Scalar::F16) type = Scalar::F32;
  return detail::make_value(state, llvm::ConstantFP::get(state->register_type(type), value), type);
}

Value constant_int(detail::BuilderState* state, Scalar type, std::uint64_t bits) {
  user_assert(state, {"constant"}) << "no builder";
  if (is_float(type)) return constant(state, type, static_cast<double>(bits));
  auto* t = state->register_type(type);
  return detail::make_value(
      state,
      llvm::ConstantInt::get(
          t,
          bits & (t->getIntegerBitWidth() == 64 ? ~0ull : ((1ull << t->getIntegerBitWidth()) - 1))),
      type);
}

namespace {

std::string half_builtin(const char* base, AddressSpace space, bool is_const) {
  // Itanium mangling of vload_half(size_t, const <space> half*) / vstore_half(float, size_t, ...)
  std::string out = base;
  out += "P";
  if (space != AddressSpace::Private) out += "U3AS" + std::to_string(static_cast<int>(space));
  if (is_const) out += "K";
  out += "Dh";
  return out;
}

}  // namespace

Value load(const Pointer& p, Value index) { return detail::load_element(p, index, nullptr); }

void store(const Pointer& p, Value index, Value value) {
  detail::store_element(p, index, value, nullptr);
}

namespace detail {

namespace {
// Checks that a struct pointer is accessed by member and a scalar one by element; returns the
// scalar accessed.
Scalar accessed_scalar(const BuilderState& s, const Pointer& p, const FieldPath* field,
                       const char* what) {
  internal_assert(!field || p.layout()) << what << ": a member access through a pointer to scalars";
  internal_assert(!field || !field->pointer) << what << ": a pointer member read as a scalar";
  user_assert(field || !p.layout(), {what, s.name})
      << "the pointer points to struct " << p.layout()->name() << "; access a member (ps[i][&"
      << p.layout()->name() << "::member]) or copy the whole struct";
  return field ? field->type : p.element();
}
}  // namespace

llvm::Value* element_address(BuilderState& s, const Pointer& p, llvm::Value* i,
                             const FieldPath* field) {
  auto* pointee = llvm::cast<llvm::PointerType>(detail::llvm_of(p)->getType())
                      ->getNonOpaquePointerElementType();
  if (!field) return s.ir.CreateInBoundsGEP(pointee, detail::llvm_of(p), i);
  std::vector<llvm::Value*> indices = {i};
  for (unsigned k = 0; k < field->depth; ++k) indices.push_back(s.ir.getInt32(field->index[k]));
  return s.ir.CreateInBoundsGEP(pointee, detail::llvm_of(p), indices);
}

Value load_element(const Pointer& p, Value index, const ViewIndex* view, const FieldPath* field) {
  user_assert(detail::llvm_of(p), {"load"}) << "empty pointer";
  auto& s = *detail::state_of(p);
  s.check_open("load");
  s.check_in_current_function(detail::llvm_of(p), "load");
  const Scalar element = accessed_scalar(s, p, field, "load");
  llvm::Value* i = detail::index64(s, index, "load");
  if (element == Scalar::F16) {
    auto* v = guarded_access(s, p, i, view, 1, [&]() -> llvm::Value* {
      llvm::Value* offset = field ? s.ir.getInt64(0) : i;
      llvm::Value* base = field ? element_address(s, p, i, field) : detail::llvm_of(p);
      auto* call = s.call_builtin(half_builtin(vload_half_prefix, p.space(), true),
                                  s.ir.getFloatTy(), {offset, base}, false);
      call->getCalledFunction()->addFnAttr(llvm::Attribute::ReadOnly);
      return call;
    });
    return detail::make_value(&s, v, Scalar::F32);
  }
  auto* type = s.memory_type(element);
  auto* loaded = guarded_access(s, p, i, view, 1, [&]() -> llvm::Value* {
    auto* addr = element_address(s, p, i, field);
    return s.ir.CreateAlignedLoad(type, addr, llvm::Align(size_of(element)));
  });
  if (element == Scalar::Bool)
    return detail::make_value(&s, s.ir.CreateICmpNE(loaded, s.ir.getInt8(0)), Scalar::Bool);
  return detail::make_value(&s, loaded, element);
}

void store_element(const Pointer& p, Value index, Value value, const ViewIndex* view,
                   const FieldPath* field) {
  user_assert(detail::llvm_of(p), {"store"}) << "empty pointer";
  auto& s = *detail::state_of(p);
  s.check_open("store");
  s.check_same_builder(value, "store");
  s.check_in_current_function(detail::llvm_of(p), "store");
  const Scalar element = accessed_scalar(s, p, field, "store");
  user_assert(!p.read_only(), {"store", s.name})
      << "pointer to " << name(p.space()) << " const "
      << (p.layout() ? "struct " + p.layout()->name() : std::string(name(element)))
      << " is read-only";
  const Scalar expected = element == Scalar::F16 ? Scalar::F32 : element;
  user_assert(value.type() == expected, {"store", s.name})
      << "value of type " << name(value.type()) << " into memory of " << name(element)
      << "; expected " << name(expected);
  llvm::Value* i = detail::index64(s, index, "store");
  guarded_access(s, p, i, view, 1, [&]() -> llvm::Value* {
    if (element == Scalar::F16) {
      llvm::Value* offset = field ? s.ir.getInt64(0) : i;
      llvm::Value* base = field ? element_address(s, p, i, field) : detail::llvm_of(p);
      s.call_builtin(half_builtin(vstore_half_prefix, p.space(), false), s.ir.getVoidTy(),
                     {detail::llvm_of(value), offset, base}, false);
      return nullptr;
    }
    auto* addr = element_address(s, p, i, field);
    llvm::Value* v = detail::llvm_of(value);
    if (element == Scalar::Bool) v = s.ir.CreateZExt(v, s.ir.getInt8Ty());
    s.ir.CreateAlignedStore(v, addr, llvm::Align(size_of(element)));
    return nullptr;
  });
}

}  // namespace detail

}  // namespace spvjit
