// Vector values: `Vec<T, N>` holds N lanes of a scalar type (N in 2, 3, 4, 8, 16), like OpenCL
// C's float4 or double8. Arithmetic, comparisons, casts and the math set work lane by lane;
// loads and stores move N consecutive elements at once.
//
//   auto i = kb.global_index() * 8;                       // each work-item: 8 elements
//   Vec<float, 8> x = vload<8>(X, i), y = vload<8>(Y, i);
//   vstore(Z, i, fma(Vec<float, 8>::splat(a), x, y));
//   Val<float> total = reduce_add(x);                    // pairwise, see reduce()
//
// Rules, as for scalars: both operands of one element type and one lane count (a scalar
// operand is broadcast: `v * a`, `v + 1.0f`); Vec<bool, N> comes from comparisons and feeds
// select(); half data is loaded as Vec<float, N> and stored from it (f16 is storage only).
// Vectors are values: pass them to device functions or kernels as their lanes, not whole.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>

#include "spvjit/builder.hpp"
#include "spvjit/math.hpp"
#include "spvjit/memory.hpp"
#include "spvjit/pointer.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// A dynamically typed vector value: `lanes` lanes of `element` (never f16).
class VecValue {
 public:
  VecValue() = default;

  Scalar element() const noexcept { return element_; }
  unsigned lanes() const noexcept { return lanes_; }
  bool valid() const noexcept { return value_ != nullptr; }

 private:
  friend struct detail::BuilderAccess;
  friend struct detail::HandleFactory;
  VecValue(detail::BuilderState* state, llvm::Value* value, Scalar element, unsigned lanes) noexcept
      : state_(state), value_(value), element_(element), lanes_(lanes) {}

  detail::BuilderState* state_ = nullptr;
  llvm::Value* value_ = nullptr;
  Scalar element_ = Scalar::F32;
  unsigned lanes_ = 0;
};

namespace detail {
inline BuilderState* state_of(const VecValue& v) noexcept { return BuilderAccess::state(v); }
inline llvm::Value* llvm_of(const VecValue& v) noexcept { return BuilderAccess::llvm_value(v); }
}  // namespace detail

/// True for the lane counts OpenCL has vector types for.
constexpr bool valid_lanes(unsigned n) { return n == 2 || n == 3 || n == 4 || n == 8 || n == 16; }

/// How a vector load or store may assume its address is aligned.
enum class VectorAlign : std::uint8_t {
  /// Only to the element (OpenCL's vloadn/vstoren): any element index works.
  Element,
  /// To the vector's size (N elements; 4 for N = 3): the caller promises the address is a
  /// multiple of it (element index a multiple of N in an array from local_array, a buffer, or a
  /// private array), and gets one aligned vector access. A broken promise is undefined.
  Vector,
};

/// How reduce() combines lanes. Float Min/Max follow fmin/fmax (a NaN lane yields the other).
enum class ReduceOp : std::uint8_t { Add, Mul, Min, Max, And, Or, Xor };

// The dynamically typed forms: each checks element types and lane counts and throws UserError
// naming the operation ("add: operand shapes differ: f32x4 and f32x8").
VecValue binary(BinaryOp op, VecValue lhs, VecValue rhs);
VecValue compare(CompareOp op, VecValue lhs, VecValue rhs);  ///< lanes of bool
VecValue negate(VecValue v);
VecValue logical_not(VecValue v);  ///< bool lanes: not; integer lanes: bitwise complement
VecValue select(VecValue cond, VecValue if_true, VecValue if_false);
VecValue cast(VecValue v, Scalar to);
/// Lane-wise bit_cast and cast_sat (spvjit/convert.hpp).
VecValue bit_cast(VecValue v, Scalar to);
VecValue cast_sat(VecValue v, Scalar to);
VecValue math(MathFn fn, std::initializer_list<VecValue> args);
/// Every lane set to `v`.
VecValue splat(Value v, unsigned lanes);
/// A vector of the given lanes (2, 3, 4, 8 or 16 values of one type).
VecValue make_vector(std::span<const Value> lanes);
/// Lane `lane` (a constant below lanes(); UserError otherwise).
Value extract(VecValue v, unsigned lane);
/// Lane `lane` chosen at run time, taken modulo lanes() (as shift amounts are: never undefined).
Value extract(VecValue v, Value lane);
/// A copy of `v` with lane `lane` replaced by `x`.
VecValue insert(VecValue v, unsigned lane, Value x);
VecValue insert(VecValue v, Value lane, Value x);
/// Lanes picked from `a` (0 .. n-1) and `b` (n .. 2n-1), n = a.lanes(); mask.size() lanes out.
/// (Not named `shuffle`: with a std::span argument, lookup would also find std::shuffle.)
VecValue shuffle_vector(VecValue a, VecValue b, std::span<const int> mask);
/// One value from all lanes. The order is fixed, pairwise by halves: the low half combined
/// lane by lane with the high half, repeated (for 3 lanes: (v0 op v1) op v2); floats may differ
/// from a left-to-right loop in the last bits. And/Or/Xor take integers or bool.
Value reduce(ReduceOp op, VecValue v);
/// Elements first .. first + lanes - 1 of `p` (f16 elements widened to f32, bit for bit as
/// scalar loads give them).
VecValue load_vector(const Pointer& p, Value first, unsigned lanes, VectorAlign align);
/// Stores `v`'s lanes at elements first .. first + lanes - 1 (f32 lanes into f16 memory round
/// to nearest even, as scalar stores do).
void store_vector(const Pointer& p, Value first, VecValue v, VectorAlign align);
/// "f32x4"
std::string shape_name(Scalar element, unsigned lanes);

namespace detail {
[[noreturn]] void throw_vector_mismatch(Scalar expected, unsigned lanes, const VecValue& given);
/// An array of Vec made with `rank` extents (not 1 or 2), or indexed with `given` indices
/// (0: at its making).
[[noreturn]] void throw_vec_array_rank(unsigned rank, std::size_t given);
}  // namespace detail

/// The scalar types with arithmetic: every kernel scalar but bool (f16 never is a value).
template <class T>
concept KernelArithmetic = KernelScalar<T> && !std::is_same_v<T, bool>;

/// A statically typed vector of N lanes of T.
template <KernelScalar T, unsigned N>
class Vec : public VecValue {
  static_assert(!std::is_same_v<T, half>, "f16 is storage only: vector loads give Vec<float, N>");
  static_assert(valid_lanes(N), "Vec<T, N>: N must be 2, 3, 4, 8 or 16");

 public:
  using element_type = T;
  static constexpr unsigned lanes_v = N;

  Vec() = default;
  /// Adopts a dynamically typed vector; throws UserError unless it has N lanes of T.
  explicit Vec(VecValue v) : VecValue(v) {
    if (v.element() != scalar_of<T> || v.lanes() != N)
      detail::throw_vector_mismatch(scalar_of<T>, N, v);
  }
  /// Every lane `x`.
  static Vec splat(Val<T> x) { return Vec(spvjit::splat(x, N)); }

  /// Lane `lane` (a constant) or a lane chosen at run time (taken modulo N).
  Val<T> operator[](unsigned lane) const { return Val<T>(extract(*this, lane)); }
  template <class I>
  requires(std::is_integral_v<I>) Val<T>
  operator[](Val<I> lane) const { return Val<T>(extract(*this, static_cast<Value>(lane))); }
  /// A copy with one lane replaced.
  Vec with(unsigned lane, Val<T> x) const { return Vec(insert(*this, lane, x)); }
  template <class I>
  requires(std::is_integral_v<I>) Vec with(Val<I> lane, Val<T> x)
  const { return Vec(insert(*this, static_cast<Value>(lane), x)); }
};

/// A vector from N values: `make_vec(a, b, c, d)` is a Vec<T, 4>.
template <KernelScalar T, class... More>
requires(std::conjunction_v<std::is_same<More, Val<T>>...>&& valid_lanes(
    sizeof...(More) + 1)) Vec<T, sizeof...(More) + 1> make_vec(Val<T> first, More... more) {
  const Value lanes[] = {first, more...};
  return Vec<T, sizeof...(More) + 1>(make_vector(lanes));
}

/// A vector of literals: `vec_literal<float, 4>(kb, {1, 2, 3, 4})`.
template <KernelScalar T, unsigned N>
Vec<T, N> vec_literal(KernelBuilder& kb, const std::array<T, N>& values) {
  std::array<Value, N> lanes;
  for (unsigned i = 0; i < N; ++i) lanes[i] = kb.lit(values[i]);
  return Vec<T, N>(make_vector(lanes));
}

template <KernelScalar To, KernelScalar From, unsigned N>
Vec<To, N> cast(Vec<From, N> v) {
  return Vec<To, N>(cast(static_cast<VecValue>(v), scalar_of<To>));
}

template <KernelScalar To, KernelScalar From, unsigned N>
Vec<To, N> bit_cast(Vec<From, N> v) {
  static_assert(
      sizeof(To) == sizeof(From) && !std::is_same_v<To, bool> && !std::is_same_v<From, bool>,
      "spvjit: bit_cast needs two types of one size (float and int32_t or uint32_t, "
      "double and int64_t or uint64_t)");
  return Vec<To, N>(bit_cast(static_cast<VecValue>(v), scalar_of<To>));
}

template <KernelScalar To, KernelScalar From, unsigned N>
Vec<To, N> cast_sat(Vec<From, N> v) {
  static_assert(std::is_integral_v<To> && !std::is_same_v<To, bool>,
                "spvjit: cast_sat converts to integer types; use cast<T>() for floats");
  return Vec<To, N>(cast_sat(static_cast<VecValue>(v), scalar_of<To>));
}

#define SPVJIT_VECTOR_BINARY(sym, op)                                                             \
  template <KernelScalar T, unsigned N>                                                           \
  Vec<T, N> operator sym(Vec<T, N> a, Vec<T, N> b) {                                              \
    return Vec<T, N>(binary(BinaryOp::op, a, b));                                                 \
  }                                                                                               \
  template <KernelScalar T, unsigned N>                                                           \
  Vec<T, N> operator sym(Vec<T, N> a, Val<T> b) {                                                 \
    return Vec<T, N>(binary(BinaryOp::op, a, splat(b, N)));                                       \
  }                                                                                               \
  template <KernelScalar T, unsigned N>                                                           \
  Vec<T, N> operator sym(Val<T> a, Vec<T, N> b) {                                                 \
    return Vec<T, N>(binary(BinaryOp::op, splat(a, N), b));                                       \
  }                                                                                               \
  template <KernelScalar T, unsigned N>                                                           \
  Vec<T, N> operator sym(Vec<T, N> a, std::type_identity_t<T> b) {                                \
    return Vec<T, N>(binary(BinaryOp::op, a, splat(detail::literal(detail::state_of(a), b), N))); \
  }                                                                                               \
  template <KernelScalar T, unsigned N>                                                           \
  Vec<T, N> operator sym(std::type_identity_t<T> a, Vec<T, N> b) {                                \
    return Vec<T, N>(binary(BinaryOp::op, splat(detail::literal(detail::state_of(b), a), N), b)); \
  }
SPVJIT_VECTOR_BINARY(+, Add)
SPVJIT_VECTOR_BINARY(-, Sub)
SPVJIT_VECTOR_BINARY(*, Mul)
SPVJIT_VECTOR_BINARY(/, Div)
SPVJIT_VECTOR_BINARY(%, Rem)
SPVJIT_VECTOR_BINARY(&, And)
SPVJIT_VECTOR_BINARY(|, Or)
SPVJIT_VECTOR_BINARY(^, Xor)
SPVJIT_VECTOR_BINARY(<<, Shl)
SPVJIT_VECTOR_BINARY(>>, Shr)
#undef SPVJIT_VECTOR_BINARY

#define SPVJIT_VECTOR_COMPARE(sym, op)                                                 \
  template <KernelScalar T, unsigned N>                                                \
  Vec<bool, N> operator sym(Vec<T, N> a, Vec<T, N> b) {                                \
    return Vec<bool, N>(compare(CompareOp::op, a, b));                                 \
  }                                                                                    \
  template <KernelScalar T, unsigned N>                                                \
  Vec<bool, N> operator sym(Vec<T, N> a, Val<T> b) {                                   \
    return Vec<bool, N>(compare(CompareOp::op, a, splat(b, N)));                       \
  }                                                                                    \
  template <KernelScalar T, unsigned N>                                                \
  Vec<bool, N> operator sym(Vec<T, N> a, std::type_identity_t<T> b) {                  \
    return Vec<bool, N>(                                                               \
        compare(CompareOp::op, a, splat(detail::literal(detail::state_of(a), b), N))); \
  }
SPVJIT_VECTOR_COMPARE(<, Lt)
SPVJIT_VECTOR_COMPARE(<=, Le)
SPVJIT_VECTOR_COMPARE(>, Gt)
SPVJIT_VECTOR_COMPARE(>=, Ge)
SPVJIT_VECTOR_COMPARE(==, Eq)
SPVJIT_VECTOR_COMPARE(!=, Ne)
#undef SPVJIT_VECTOR_COMPARE

template <KernelScalar T, unsigned N>
Vec<T, N> operator-(Vec<T, N> a) {
  return Vec<T, N>(negate(a));
}
template <unsigned N>
Vec<bool, N> operator!(Vec<bool, N> a) {
  return Vec<bool, N>(logical_not(a));
}
template <KernelScalar T, unsigned N>
requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) Vec<T, N>
operator~(Vec<T, N> a) { return Vec<T, N>(logical_not(a)); }

/// Lane by lane: `cond[k] ? a[k] : b[k]`.
template <KernelScalar T, unsigned N>
Vec<T, N> select(Vec<bool, N> cond, Vec<T, N> a, Vec<T, N> b) {
  return Vec<T, N>(
      select(static_cast<VecValue>(cond), static_cast<VecValue>(a), static_cast<VecValue>(b)));
}
template <KernelScalar T, unsigned N>
Vec<T, N> min(Vec<T, N> a, Vec<T, N> b) {
  return Vec<T, N>(binary(BinaryOp::Min, a, b));
}
template <KernelScalar T, unsigned N>
Vec<T, N> max(Vec<T, N> a, Vec<T, N> b) {
  return Vec<T, N>(binary(BinaryOp::Max, a, b));
}

// The math set, lane by lane (OpenCL's vector builtins: the same accuracy as the scalar ones,
// though not always the same bits): one function per row of spvjit/math_functions.def, made by
// its shape; the two-result ones give each lane the scalar function's results.
std::pair<VecValue, VecValue> math_pair(MathFn fn, std::initializer_list<VecValue> args);
#define SPVJIT_VECTOR_UNARY(op, fn, Concept) \
  template <Concept T, unsigned N>           \
  Vec<T, N> fn(Vec<T, N> x) {                \
    return Vec<T, N>(math(MathFn::op, {x})); \
  }
#define SPVJIT_VECTOR_FloatUnary(op, fn) SPVJIT_VECTOR_UNARY(op, fn, KernelFloat)
#define SPVJIT_VECTOR_IntegerUnary(op, fn) SPVJIT_VECTOR_UNARY(op, fn, KernelInteger)
#define SPVJIT_VECTOR_FloatTest(op, fn)         \
  template <KernelFloat T, unsigned N>          \
  Vec<bool, N> fn(Vec<T, N> x) {                \
    return Vec<bool, N>(math(MathFn::op, {x})); \
  }
#define SPVJIT_VECTOR_FloatToI32(op, fn)                \
  template <KernelFloat T, unsigned N>                  \
  Vec<std::int32_t, N> fn(Vec<T, N> x) {                \
    return Vec<std::int32_t, N>(math(MathFn::op, {x})); \
  }
#define SPVJIT_VECTOR_BINARY(op, fn, Concept)   \
  template <Concept T, unsigned N>              \
  Vec<T, N> fn(Vec<T, N> x, Vec<T, N> y) {      \
    return Vec<T, N>(math(MathFn::op, {x, y})); \
  }
#define SPVJIT_VECTOR_FloatBinary(op, fn) SPVJIT_VECTOR_BINARY(op, fn, KernelFloat)
#define SPVJIT_VECTOR_IntegerBinary(op, fn) SPVJIT_VECTOR_BINARY(op, fn, KernelInteger)
#define SPVJIT_VECTOR_FloatExponent(op, fn)           \
  template <KernelFloat T, unsigned N>                \
  Vec<T, N> fn(Vec<T, N> x, Vec<std::int32_t, N> n) { \
    return Vec<T, N>(math(MathFn::op, {x, n}));       \
  }
#define SPVJIT_VECTOR_TERNARY(op, fn, Concept)          \
  template <Concept T, unsigned N>                      \
  Vec<T, N> fn(Vec<T, N> a, Vec<T, N> b, Vec<T, N> c) { \
    return Vec<T, N>(math(MathFn::op, {a, b, c}));      \
  }
#define SPVJIT_VECTOR_FloatTernary(op, fn) SPVJIT_VECTOR_TERNARY(op, fn, KernelFloat)
#define SPVJIT_VECTOR_IntegerTernary(op, fn) SPVJIT_VECTOR_TERNARY(op, fn, KernelInteger)
#define SPVJIT_VECTOR_AnyTernary(op, fn) SPVJIT_VECTOR_TERNARY(op, fn, detail::KernelNumber)
#define SPVJIT_VECTOR_PAIR(op, fn, Second)               \
  template <KernelFloat T, unsigned N>                   \
  std::pair<Vec<T, N>, Vec<Second, N>> fn(Vec<T, N> x) { \
    auto [a, b] = math_pair(MathFn::op, {x});            \
    return {Vec<T, N>(a), Vec<Second, N>(b)};            \
  }
#define SPVJIT_VECTOR_FloatPairI32(op, fn) SPVJIT_VECTOR_PAIR(op, fn, std::int32_t)
#define SPVJIT_VECTOR_FloatPairSame(op, fn) SPVJIT_VECTOR_PAIR(op, fn, T)
#define SPVJIT_VECTOR_FloatSinCos(op, fn) SPVJIT_VECTOR_PAIR(op, fn, T)
#define SPVJIT_VECTOR_FloatBinaryPairI32(op, fn)                            \
  template <KernelFloat T, unsigned N>                                      \
  std::pair<Vec<T, N>, Vec<std::int32_t, N>> fn(Vec<T, N> x, Vec<T, N> y) { \
    auto [a, b] = math_pair(MathFn::op, {x, y});                            \
    return {Vec<T, N>(a), Vec<std::int32_t, N>(b)};                         \
  }
#define SPVJIT_MATH_FUNCTION(op, fn, shape) SPVJIT_VECTOR_##shape(op, fn)
#include "spvjit/math_functions.def"
#undef SPVJIT_MATH_FUNCTION
#undef SPVJIT_VECTOR_FloatBinaryPairI32
#undef SPVJIT_VECTOR_FloatSinCos
#undef SPVJIT_VECTOR_FloatPairSame
#undef SPVJIT_VECTOR_FloatPairI32
#undef SPVJIT_VECTOR_PAIR
#undef SPVJIT_VECTOR_AnyTernary
#undef SPVJIT_VECTOR_IntegerTernary
#undef SPVJIT_VECTOR_FloatTernary
#undef SPVJIT_VECTOR_TERNARY
#undef SPVJIT_VECTOR_FloatExponent
#undef SPVJIT_VECTOR_IntegerBinary
#undef SPVJIT_VECTOR_FloatBinary
#undef SPVJIT_VECTOR_BINARY
#undef SPVJIT_VECTOR_FloatToI32
#undef SPVJIT_VECTOR_FloatTest
#undef SPVJIT_VECTOR_IntegerUnary
#undef SPVJIT_VECTOR_FloatUnary
#undef SPVJIT_VECTOR_UNARY

/// Lane by lane a * b + c, fused or not as the code generator chooses (see the scalar mul_add).
VecValue mul_add(VecValue a, VecValue b, VecValue c);
template <KernelFloat T, unsigned N>
Vec<T, N> mul_add(Vec<T, N> a, Vec<T, N> b, Vec<T, N> c) {
  return Vec<T, N>(
      mul_add(static_cast<VecValue>(a), static_cast<VecValue>(b), static_cast<VecValue>(c)));
}
/// Lanes of `a` (0 .. N-1) and `b` (N .. 2N-1) picked by a constant mask: `shuffle(a, b, {0,
/// 4, 1, 5})` interleaves the low halves of two Vec<T, 4>.
template <KernelScalar T, unsigned N, std::size_t M>
requires(valid_lanes(M)) Vec<T, M> shuffle(Vec<T, N> a, Vec<T, N> b, const int (&mask)[M]) {
  return Vec<T, M>(shuffle_vector(static_cast<VecValue>(a), static_cast<VecValue>(b),
                                  std::span<const int>(mask)));
}
/// Lanes of `a` picked by a constant mask (OpenCL's swizzles): `shuffle(v, {3, 2, 1, 0})`.
template <KernelScalar T, unsigned N, std::size_t M>
requires(valid_lanes(M)) Vec<T, M> shuffle(Vec<T, N> a, const int (&mask)[M]) {
  return Vec<T, M>(shuffle_vector(static_cast<VecValue>(a), static_cast<VecValue>(a),
                                  std::span<const int>(mask)));
}

#define SPVJIT_VECTOR_REDUCE(fn, op, Concept) \
  template <Concept T, unsigned N>            \
  Val<T> fn(Vec<T, N> v) {                    \
    return Val<T>(reduce(ReduceOp::op, v));   \
  }
SPVJIT_VECTOR_REDUCE(reduce_add, Add, KernelArithmetic)
SPVJIT_VECTOR_REDUCE(reduce_mul, Mul, KernelArithmetic)
SPVJIT_VECTOR_REDUCE(reduce_min, Min, KernelArithmetic)
SPVJIT_VECTOR_REDUCE(reduce_max, Max, KernelArithmetic)
SPVJIT_VECTOR_REDUCE(reduce_and, And, KernelInteger)
SPVJIT_VECTOR_REDUCE(reduce_or, Or, KernelInteger)
SPVJIT_VECTOR_REDUCE(reduce_xor, Xor, KernelInteger)
#undef SPVJIT_VECTOR_REDUCE
/// True when any (every) lane is true.
template <unsigned N>
Val<bool> any(Vec<bool, N> v) {
  return Val<bool>(reduce(ReduceOp::Or, v));
}
template <unsigned N>
Val<bool> all(Vec<bool, N> v) {
  return Val<bool>(reduce(ReduceOp::And, v));
}

/// N consecutive elements starting at element `first` (not at vector index `first`, unlike
/// OpenCL's vloadn): `vload<8>(X, i)` reads X[i] .. X[i + 7]. Half memory gives Vec<float, N>.
template <unsigned N, class T, AddressSpace Space, class I>
requires(std::is_integral_v<I>) Vec<arithmetic_t<T>, N> vload(
    const Ptr<T, Space>& p, Val<I> first, VectorAlign align = VectorAlign::Element) {
  return Vec<arithmetic_t<T>, N>(load_vector(p, first, N, align));
}
template <unsigned N, class T, AddressSpace Space>
Vec<arithmetic_t<T>, N> vload(const Ptr<T, Space>& p, std::int64_t first,
                              VectorAlign align = VectorAlign::Element) {
  return Vec<arithmetic_t<T>, N>(
      load_vector(p, detail::literal(detail::state_of(p), first), N, align));
}
/// Stores v's lanes at elements first .. first + N - 1.
template <class T, AddressSpace Space, class I, unsigned N>
requires(std::is_integral_v<I> &&
         !std::is_const_v<T>) void vstore(const Ptr<T, Space>& p, Val<I> first,
                                          Vec<arithmetic_t<T>, N> v,
                                          VectorAlign align = VectorAlign::Element) {
  store_vector(p, first, v, align);
}
template <class T, AddressSpace Space, unsigned N>
requires(!std::is_const_v<T>) void vstore(const Ptr<T, Space>& p, std::int64_t first,
                                          Vec<arithmetic_t<T>, N> v,
                                          VectorAlign align = VectorAlign::Element) {
  store_vector(p, detail::literal(detail::state_of(p), first), v, align);
}

/// A mutable private vector variable (an accumulator kept across loop iterations).
template <KernelScalar T, unsigned N>
class VecVar {
 public:
  VecVar() = default;
  VecVar(const VecVar&) = default;  // copies the handle; assignment stores into the variable
  explicit VecVar(const Pointer& slot) : slot_(slot) {}
  operator Vec<T, N>() const { return get(); }
  Vec<T, N> get() const {
    return Vec<T, N>(load_vector(slot_, detail::literal(detail::state_of(slot_), std::int64_t{0}),
                                 N, VectorAlign::Vector));
  }
  const VecVar& operator=(Vec<T, N> v) const {
    store_vector(slot_, detail::literal(detail::state_of(slot_), std::int64_t{0}), v,
                 VectorAlign::Vector);
    return *this;
  }
  const VecVar& operator=(const VecVar& v) const { return *this = v.get(); }
  const VecVar& operator+=(Vec<T, N> v) const { return *this = get() + v; }
  const VecVar& operator-=(Vec<T, N> v) const { return *this = get() - v; }
  const VecVar& operator*=(Vec<T, N> v) const { return *this = get() * v; }

 private:
  Pointer slot_;
};

namespace detail {
/// A private slot for one vector, aligned to its size.
Pointer make_vector_variable(KernelBuilder& kb, Scalar element, unsigned lanes);
}  // namespace detail

/// A private vector variable initialised to `init`.
template <KernelScalar T, unsigned N>
VecVar<T, N> vec_var(KernelBuilder& kb, Vec<T, N> init) {
  VecVar<T, N> v(detail::make_vector_variable(kb, scalar_of<T>, N));
  v = init;
  return v;
}

/// One Vec<T, N> element of a VecArray: reads as the vector, assigns from one, and `[k]` is its
/// lane k as an element (read and assigned: `t(j, r)[3] = z`).
template <KernelScalar T, unsigned N, ArrayLayout L>
class VecElement {
 public:
  VecElement(const Array<T, AddressSpace::Private>& lanes, std::array<Value, 2> index,
             unsigned rank)
      : lanes_(lanes), index_(index), rank_(rank) {}

  /// Lane k: a scalar element of the array's memory, checked like any other.
  template <class K>
  Ref<T> operator[](const K& k) const {
    if constexpr (std::is_same_v<L, RowMajor>) {
      return rank_ == 1 ? lanes_(index_[0], k) : lanes_(index_[0], index_[1], k);
    } else {
      return rank_ == 1 ? lanes_(k, index_[0]) : lanes_(k, index_[0], index_[1]);
    }
  }
  Vec<T, N> get() const {
    std::array<Value, N> values;
    for (unsigned k = 0; k < N; ++k) values[k] = (*this)[std::int64_t{k}].get();
    return Vec<T, N>(make_vector(values));
  }
  operator Vec<T, N>() const { return get(); }
  const VecElement& operator=(const Vec<T, N>& v) const {
    for (unsigned k = 0; k < N; ++k) (*this)[std::int64_t{k}] = v[k];
    return *this;
  }
  const VecElement& operator=(const VecElement& other) const { return *this = other.get(); }

 private:
  Array<T, AddressSpace::Private> lanes_;
  std::array<Value, 2> index_;
  unsigned rank_;
};

/// An array of Vec<T, N> private to each work-item (KA's `@private` or an `MArray` of
/// `SVector`s: `MArray{Tuple{4, 3}, Vec4f32}`), made by `private_array<Vec<float, 4>>(kb, {4, 3})`.
/// `t(j, r)` is a VecElement: `t(j, r) = v`, `Vec<float, 4> v = t(j, r)`, and lane k `t(j, r)[k]`
/// (SVector's `.x .y .z .w` are lanes 0 to 3). Its memory is the scalars of an array with one
/// more dimension, the lanes (the last for RowMajor, the first for ColumnMajor: each vector's
/// lanes adjacent either way), so every index is checked against its extent, and an array read
/// and written at constant elements becomes registers. One or two dimensions.
template <KernelScalar T, unsigned N, ArrayLayout L = RowMajor>
class VecArray {
 public:
  VecArray(const Array<T, AddressSpace::Private>& lanes, unsigned rank)
      : lanes_(lanes), rank_(rank) {}

  /// The vector at (i) or (i, j): as many indices as the array has dimensions.
  template <class... I>
  VecElement<T, N, L> operator()(const I&... indices) const {
    static_assert(sizeof...(I) == 1 || sizeof...(I) == 2,
                  "spvjit: an array of Vec has one or two dimensions");
    if (sizeof...(I) != rank_) detail::throw_vec_array_rank(rank_, sizeof...(I));
    std::array<Value, 2> index = {
        detail::index_value(detail::state_of(lanes_.data()), indices)...,
    };
    return VecElement<T, N, L>(lanes_, index, rank_);
  }
  unsigned rank() const { return rank_; }
  /// The array of the lanes as scalars (one more dimension than this one).
  const Array<T, AddressSpace::Private>& lanes() const { return lanes_; }

 private:
  Array<T, AddressSpace::Private> lanes_;
  unsigned rank_;
};

namespace detail {
template <class V>
inline constexpr bool is_vec_v = false;
template <KernelScalar T, unsigned N>
inline constexpr bool is_vec_v<Vec<T, N>> = true;
}  // namespace detail

/// A statically sized array of vectors private to each work-item: see VecArray.
template <class V, ArrayLayout L = RowMajor>
requires detail::is_vec_v<V> VecArray<typename V::element_type, V::lanes_v, L> private_array(
    KernelBuilder& kb, std::initializer_list<std::int64_t> extents) {
  using T = typename V::element_type;
  constexpr std::int64_t N = V::lanes_v;
  const auto rank = static_cast<unsigned>(extents.size());
  if (rank < 1 || rank > 2) detail::throw_vec_array_rank(rank, 0);
  const std::int64_t e0 = *extents.begin(), e1 = rank == 2 ? *(extents.begin() + 1) : 0;
  auto lanes = rank == 1 ? (std::is_same_v<L, RowMajor> ? private_array<T, L>(kb, {e0, N})
                                                        : private_array<T, L>(kb, {N, e0}))
                         : (std::is_same_v<L, RowMajor> ? private_array<T, L>(kb, {e0, e1, N})
                                                        : private_array<T, L>(kb, {N, e0, e1}));
  return VecArray<T, V::lanes_v, L>(lanes, rank);
}

}  // namespace spvjit

SPVJIT_API_END
