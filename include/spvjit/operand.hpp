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

}  // namespace spvjit

SPVJIT_API_END
