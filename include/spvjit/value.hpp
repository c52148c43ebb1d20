// Values inside a kernel under construction. `Value` is dynamically typed and checks types when
// an operation is built (throwing UserError that names the operation and both types); `Val<T>`
// is its statically typed face, so `Val<float> + Val<int32_t>` does not compile at all.
#pragma once

#include <cstdint>
#include <string_view>

#include "spvjit/error.hpp"
#include "spvjit/types.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace llvm {
class Value;
}

namespace spvjit {

namespace detail {
class SPVJIT_INTERNAL BuilderState;  // ir/state.hpp: stays inside the library

/// The one maker of kernel handles from LLVM values, defined inside the library only
/// (ir/handles.hpp): a handle comes to a user from the builder's operations, never from an LLVM
/// value of their own (test/compile_checks/fail_value_from_llvm.cpp).
struct SPVJIT_INTERNAL HandleFactory;

/// spvjit's own way into a kernel handle's parts (Value, VecValue, Pointer, KernelBuilder): the
/// builder they belong to and the LLVM value they stand for. Those are not API — a user holds
/// handles and operates on them — but the header templates and ir/ read them; each handle
/// befriends this one struct, and state_of and llvm_of below are its faces.
struct BuilderAccess {
  template <class Handle>
  static BuilderState* state(const Handle& h) noexcept {
    return h.state_;
  }
  template <class Handle>
  static llvm::Value* llvm_value(const Handle& h) noexcept {
    return h.value_;
  }
  template <class Pointer>
  static llvm::Value* extent(const Pointer& p) noexcept {
    return p.extent_;
  }
  template <class Builder>
  static BuilderState* builder_state(const Builder& kb) noexcept {
    return kb.state_.get();
  }
};
}  // namespace detail

/// A dynamically typed SSA value of a kernel being built. Cheap to copy; valid while its
/// KernelBuilder lives.
class Value {
 public:
  Value() = default;

  Scalar type() const noexcept { return type_; }
  bool valid() const noexcept { return value_ != nullptr; }

 private:
  friend struct detail::BuilderAccess;
  friend struct detail::HandleFactory;
  Value(detail::BuilderState* state, llvm::Value* value, Scalar type) noexcept
      : state_(state), value_(value), type_(type) {}

  detail::BuilderState* state_ = nullptr;
  llvm::Value* value_ = nullptr;
  Scalar type_ = Scalar::I32;
};

namespace detail {
/// The builder a value belongs to (null for an empty Value).
inline BuilderState* state_of(const Value& v) noexcept { return BuilderAccess::state(v); }
inline llvm::Value* llvm_of(const Value& v) noexcept { return BuilderAccess::llvm_value(v); }
}  // namespace detail

/// The operators of the kernel language. Each checks its operand types and throws UserError
/// ("add: operand types differ: f32 and i32; insert an explicit cast") on a mismatch.
enum class BinaryOp : std::uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  And,
  Or,
  Xor,
  Shl,
  Shr,
  Min,
  Max,
};
enum class CompareOp : std::uint8_t { Lt, Le, Gt, Ge, Eq, Ne };

Value binary(BinaryOp op, Value lhs, Value rhs);
Value compare(CompareOp op, Value lhs, Value rhs);
Value negate(Value v);
Value logical_not(Value v);  ///< bool -> bool; bitwise not on integers
Value select(Value cond, Value if_true, Value if_false);
Value cast(Value v, Scalar to);  ///< explicit conversion (float<->int rounds toward zero)
Value constant(detail::BuilderState* state, Scalar type, double value);
Value constant_int(detail::BuilderState* state, Scalar type, std::uint64_t bits);
std::string_view name(BinaryOp op) noexcept;

/// A statically typed value. T is a kernel scalar type other than half: f16 is a storage type,
/// read and written through pointers as float.
template <KernelScalar T>
class Val : public Value {
  static_assert(!std::is_same_v<T, half>, "f16 is storage only: loads give Val<float>");

 public:
  Val() = default;
  /// Adopts a dynamically typed value; throws UserError if its type is not T.
  explicit Val(Value v);

  using type = T;
};

namespace detail {
[[noreturn]] void throw_type_mismatch(const char* what, Scalar expected, const Value& given);

template <class T>
Value literal(detail::BuilderState* s, T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return constant(s, scalar_of<T>, static_cast<double>(v));
  } else {
    return constant_int(s, scalar_of<T>, static_cast<std::uint64_t>(v));
  }
}
}  // namespace detail

template <KernelScalar T>
Val<T>::Val(Value v) : Value(v) {
  if (v.type() != scalar_of<T>) detail::throw_type_mismatch("Val<T>", scalar_of<T>, v);
}

/// Wraps a value of known type without re-checking (used by the typed operators).
template <KernelScalar T>
Val<T> assume_typed(Value v) {
  return Val<T>(v);
}

template <KernelScalar To, KernelScalar From>
Val<To> cast(Val<From> v) {
  return Val<To>(cast(static_cast<Value>(v), scalar_of<To>));
}

namespace detail {
/// `& | ^` take bool and integers; shifts take integers: neither compiles for floats.
template <class T>
inline constexpr bool bitwise_type_v = std::is_integral_v<T>;
template <class T>
inline constexpr bool shift_type_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
}  // namespace detail

#define SPVJIT_BINARY_OPERATOR(sym, op, allowed)                                     \
  template <KernelScalar T>                                                          \
  requires(allowed) Val<T>                                                           \
  operator sym(Val<T> a, Val<T> b) { return Val<T>(binary(BinaryOp::op, a, b)); }    \
  template <KernelScalar T>                                                          \
  requires(allowed) Val<T>                                                           \
  operator sym(Val<T> a, std::type_identity_t<T> b) {                                \
    return Val<T>(binary(BinaryOp::op, a, detail::literal(detail::state_of(a), b))); \
  }                                                                                  \
  template <KernelScalar T>                                                          \
  requires(allowed) Val<T>                                                           \
  operator sym(std::type_identity_t<T> a, Val<T> b) {                                \
    return Val<T>(binary(BinaryOp::op, detail::literal(detail::state_of(b), a), b)); \
  }
SPVJIT_BINARY_OPERATOR(+, Add, true)
SPVJIT_BINARY_OPERATOR(-, Sub, true)
SPVJIT_BINARY_OPERATOR(*, Mul, true)
SPVJIT_BINARY_OPERATOR(/, Div, true)
SPVJIT_BINARY_OPERATOR(%, Rem, true)
SPVJIT_BINARY_OPERATOR(&, And, detail::bitwise_type_v<T>)
SPVJIT_BINARY_OPERATOR(|, Or, detail::bitwise_type_v<T>)
SPVJIT_BINARY_OPERATOR(^, Xor, detail::bitwise_type_v<T>)
SPVJIT_BINARY_OPERATOR(<<, Shl, detail::shift_type_v<T>)
SPVJIT_BINARY_OPERATOR(>>, Shr, detail::shift_type_v<T>)
#undef SPVJIT_BINARY_OPERATOR

#define SPVJIT_COMPARE_OPERATOR(sym, op)                                                  \
  template <KernelScalar T>                                                               \
  Val<bool> operator sym(Val<T> a, Val<T> b) {                                            \
    return Val<bool>(compare(CompareOp::op, a, b));                                       \
  }                                                                                       \
  template <KernelScalar T>                                                               \
  Val<bool> operator sym(Val<T> a, std::type_identity_t<T> b) {                           \
    return Val<bool>(compare(CompareOp::op, a, detail::literal(detail::state_of(a), b))); \
  }                                                                                       \
  template <KernelScalar T>                                                               \
  Val<bool> operator sym(std::type_identity_t<T> a, Val<T> b) {                           \
    return Val<bool>(compare(CompareOp::op, detail::literal(detail::state_of(b), a), b)); \
  }
SPVJIT_COMPARE_OPERATOR(<, Lt)
SPVJIT_COMPARE_OPERATOR(<=, Le)
SPVJIT_COMPARE_OPERATOR(>, Gt)
SPVJIT_COMPARE_OPERATOR(>=, Ge)
SPVJIT_COMPARE_OPERATOR(==, Eq)
SPVJIT_COMPARE_OPERATOR(!=, Ne)
#undef SPVJIT_COMPARE_OPERATOR

template <KernelScalar T>
Val<T> operator-(Val<T> a) {
  return Val<T>(negate(a));
}
inline Val<bool> operator!(Val<bool> a) { return Val<bool>(logical_not(a)); }
/// Bitwise complement of an integer.
template <KernelScalar T>
requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) Val<T>
operator~(Val<T> a) { return Val<T>(logical_not(a)); }
inline Val<bool> operator&&(Val<bool> a, Val<bool> b) {
  return Val<bool>(binary(BinaryOp::And, a, b));
}
inline Val<bool> operator||(Val<bool> a, Val<bool> b) {
  return Val<bool>(binary(BinaryOp::Or, a, b));
}

template <KernelScalar T>
Val<T> select(Val<bool> c, Val<T> a, Val<T> b) {
  return Val<T>(select(static_cast<Value>(c), static_cast<Value>(a), static_cast<Value>(b)));
}
template <KernelScalar T>
Val<T> min(Val<T> a, Val<T> b) {
  return Val<T>(binary(BinaryOp::Min, a, b));
}
template <KernelScalar T>
Val<T> max(Val<T> a, Val<T> b) {
  return Val<T>(binary(BinaryOp::Max, a, b));
}

}  // namespace spvjit

SPVJIT_API_END
