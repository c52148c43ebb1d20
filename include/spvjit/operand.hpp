// What the math set and the conversions take as an operand: a Val<T>, anything that reads as
// one (an element `a[i]`, a Var), or a plain C++ number beside one of those. `sqrt(a[i])`,
// `pow(x, 2)` and `ldexp(x, 3)` need no `.get()` and no literal wrapper; operands of two
// different kernel types stop the compile with a message that says which cast to insert.
#pragma once

#include <concepts>
#include <limits>
#include <type_traits>
#include <tuple>
#include <utility>

#include "spvjit/value.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
template <class V>
inline constexpr bool is_val_v = false;
template <KernelScalar T>
inline constexpr bool is_val_v<Val<T>> = true;

template <class X>
struct operand_of {};
template <KernelScalar T>
struct operand_of<Val<T>> {
  using type = T;
};
/// An element or a variable: whatever `.get()` reads as a Val.
template <class X>
requires(!is_val_v<X> && requires(const X& x) {
  requires is_val_v<std::remove_cvref_t<decltype(x.get())>>;
}) struct operand_of<X> {
  using type = typename std::remove_cvref_t<decltype(std::declval<const X&>().get())>::type;
};
}  // namespace detail

/// A kernel value, element or variable.
template <class X>
concept KernelOperand = requires {
  typename detail::operand_of<std::remove_cvref_t<X>>::type;
};

namespace detail {
template <class X>
using operand_t = typename operand_of<std::remove_cvref_t<X>>::type;

/// A plain C++ number (not bool), which takes the type of the kernel operand beside it.
template <class X>
concept PlainNumber =
    std::is_arithmetic_v<std::remove_cvref_t<X>> && !std::is_same_v<std::remove_cvref_t<X>, bool>;

template <class X>
concept OperandOrNumber = KernelOperand<X> || PlainNumber<X>;

/// The kernel type of an operation on `Xs...`: the first kernel operand's. It is inherited, not
/// named, so that operands with no kernel operand among them leave `type` undefined (a
/// substitution failure) rather than a hard error, which Clang reports for the named form.
template <class... Xs>
struct first_operand {};
template <class X, class... Rest>
struct first_operand<X, Rest...>
    : std::conditional_t<KernelOperand<X>, operand_of<std::remove_cvref_t<X>>,
                         first_operand<Rest...>> {};
template <class... Xs>
using first_operand_t = typename first_operand<Xs...>::type;

/// Whether every kernel operand among `Xs...` has type T (plain numbers are converted).
template <class T, class X>
constexpr bool operand_agrees() {
  if constexpr (KernelOperand<X>) {
    return std::is_same_v<operand_t<X>, T>;
  } else {
    return true;
  }
}
template <class T, class... Xs>
constexpr bool operands_agree() {
  return (operand_agrees<T, Xs>() && ...);
}

/// Throws UserError when integer `n` does not fit kernel type T: `clamp(x, 0, 300)` on a u8.
[[noreturn]] void throw_number_does_not_fit(Scalar to, long double n);
template <class T, class N>
void check_number_fits(N n) {
  if constexpr (std::is_integral_v<T> && std::is_integral_v<N>) {
    if (!std::in_range<T>(n)) throw_number_does_not_fit(scalar_of<T>, static_cast<long double>(n));
  }
}

/// A kernel operand read once (an element is loaded here); a plain number as it is.
template <class X>
auto read(const X& x) {
  if constexpr (PlainNumber<X>) {
    return x;
  } else if constexpr (is_val_v<std::remove_cvref_t<X>>) {
    return x;
  } else {
    return x.get();
  }
}

/// The builder of the first Val among `xs...` (what read() gave).
template <class X, class... Rest>
BuilderState* builder_of(const X& x, const Rest&... rest) {
  if constexpr (is_val_v<X>) {
    return state_of(x);
  } else {
    return builder_of(rest...);
  }
}

/// A read operand as a Val<T>: a number becomes a literal of `s`.
template <class T, class X>
Val<T> number_as_val(BuilderState* s, const X& x) {
  if constexpr (PlainNumber<X>) {
    check_number_fits<T>(x);
    return Val<T>(literal(s, static_cast<T>(x)));
  } else {
    return x;
  }
}

/// `fn` on operands `xs...` of kernel type T (numbers converted), through the dynamically
/// typed `call`: each operand read once, left to right.
template <class T, class Call, class... Xs>
auto apply_operands(Call&& call, const Xs&... xs) {
  static_assert(operands_agree<T, Xs...>(),
                "spvjit: the operands have different kernel types; convert one with cast<T>(x)");
  const auto values = std::make_tuple(read(xs)...);
  return std::apply(
      [&](const auto&... v) {
        BuilderState* s = builder_of(v...);
        return call(number_as_val<T>(s, v)...);
      },
      values);
}
}  // namespace detail

namespace detail {
template <class X, class Y>
concept MixedOperands =
    KernelOperand<X> && KernelOperand<Y> && !std::is_same_v<operand_t<X>, operand_t<Y>>;
template <class...>
inline constexpr bool always_false = false;
}  // namespace detail

// An operator on values of two kernel types (`a[i] * x` with a double element and a float x)
// stops the compile with one line that says what to do, instead of a list of overloads.
#define SPVJIT_MIXED_OPERATOR(sym)                                               \
  template <class X, class Y>                                                    \
  requires detail::MixedOperands<X, Y>                                           \
  void operator sym(const X&, const Y&) {                                        \
    static_assert(detail::always_false<X, Y>,                                    \
                  "spvjit: the operands of '" #sym                               \
                  "' have different kernel types; convert one with cast<T>(x)"); \
  }
SPVJIT_MIXED_OPERATOR(+)
SPVJIT_MIXED_OPERATOR(-)
SPVJIT_MIXED_OPERATOR(*)
SPVJIT_MIXED_OPERATOR(/)
SPVJIT_MIXED_OPERATOR(%)
SPVJIT_MIXED_OPERATOR(&)
SPVJIT_MIXED_OPERATOR(|)
SPVJIT_MIXED_OPERATOR(^)
SPVJIT_MIXED_OPERATOR(<<)
SPVJIT_MIXED_OPERATOR(>>)
SPVJIT_MIXED_OPERATOR(<)
SPVJIT_MIXED_OPERATOR(>)
SPVJIT_MIXED_OPERATOR(<=)
SPVJIT_MIXED_OPERATOR(>=)
SPVJIT_MIXED_OPERATOR(==)
SPVJIT_MIXED_OPERATOR(!=)
#undef SPVJIT_MIXED_OPERATOR

// `A[i, j]` is C++'s comma operator inside one subscript: it means A[j], silently (only a
// deprecation warning), where a Julia port means two indices. Any comma with a kernel value on
// either side stops the compile and says what to write instead.
template <class X, class Y>
requires(KernelOperand<X> || KernelOperand<Y>) void operator,(const X&, const Y&) {
  static_assert(detail::always_false<X, Y>,
                "spvjit: ',' between kernel values is C++'s comma operator, so A[i, j] would "
                "mean A[j]; index a view or array parameter with A(i, j), memory with A[i]");
}

/// The operands of one operation: at least one kernel operand, the rest kernel operands or
/// plain numbers.
template <class... Xs>
concept MathOperands = (detail::OperandOrNumber<Xs> && ...) && (KernelOperand<Xs> || ...);

namespace detail {
/// A condition: a Val<bool>, or a variable or element of bool.
template <class C>
concept Condition = KernelOperand<C> && std::is_same_v < operand_t<C>,
bool > ;
/// What select(Val<bool>, Val<T>, Val<T>) of value.hpp takes as it is.
template <class C, class A, class B>
inline constexpr bool plain_select_v =
    is_val_v<std::remove_cvref_t<C>>&& is_val_v<std::remove_cvref_t<A>>&&
        std::is_same_v<std::remove_cvref_t<A>, std::remove_cvref_t<B>>;
}  // namespace detail

/// `select(c, a, b)` with elements, variables or plain numbers for a and b: `select(c, 4.0f,
/// 2.0f)` (KA's `c ? 4f0 : 2f0`, both sides evaluated), `select(c, x, 0)`, `select(c, a[i], y)`.
/// The result has the kernel type of the first kernel operand among a and b (a number beside it
/// takes that type); with two numbers, theirs, which must be the same C++ type.
template <class C, class A, class B>
requires(detail::Condition<C>&& detail::OperandOrNumber<A>&& detail::OperandOrNumber<B> &&
         !detail::plain_select_v<C, A, B>) auto select(const C& c, const A& a, const B& b) {
  const Val<bool> condition = detail::read(c);
  if constexpr (KernelOperand<A> || KernelOperand<B>) {
    using T = detail::first_operand_t<A, B>;
    return detail::apply_operands<T>([&](Val<T> x, Val<T> y) { return select(condition, x, y); }, a,
                                     b);
  } else {
    using N = std::remove_cvref_t<A>;
    static_assert(std::is_same_v<N, std::remove_cvref_t<B>>,
                  "spvjit: select(c, a, b) with two numbers of different types; write both in "
                  "the type the result should have (select(c, 4.0f, 2.0f) is a float)");
    static_assert(KernelScalar<N>, "spvjit: select(c, a, b): the numbers' type is no kernel type");
    detail::BuilderState* s = detail::state_of(condition);
    return select(condition, Val<N>(detail::literal(s, a)), Val<N>(detail::literal(s, b)));
  }
}

/// `x ^ 2` on a float: C++'s `^` is exclusive or, which floats do not have; Julia's power is
/// pow(). Stops the compile with that said, rather than a list of operator overloads.
template <class X, class Y>
requires(!detail::MixedOperands<X, Y> &&
         ((KernelOperand<X> && std::is_floating_point_v<detail::operand_t<X>> &&
           (detail::PlainNumber<Y> || KernelOperand<Y>)) ||
          (KernelOperand<Y> && std::is_floating_point_v<detail::operand_t<Y>> &&
           detail::PlainNumber<X>))) void
operator^(const X&, const Y&) {
  static_assert(detail::always_false<X, Y>,
                "spvjit: '^' is C++'s exclusive or, not a power: write Julia's x^2 as pow(x, 2) "
                "or x * x");
}

}  // namespace spvjit

SPVJIT_API_END
