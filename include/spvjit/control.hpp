// What KernelBuilder's loops and lazy conditionals accept: Julia-style ranges for `for_`, the
// rules that give a loop counter its type, and those that give `ternary` its result type.
//
//   kb.for_(0, n, [&](Val<std::int64_t> i) { ... });              // for i in 0..n-1
//   kb.for_(range(n, -1, 1), [&](Val<std::int64_t> i) { ... });   // for i in n:-1:1
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include "spvjit/pointer.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

template <KernelScalar T>
class Var;

/// An inclusive range for KernelBuilder::for_, as Julia's `first:last` and `first:step:last`:
/// `range(1, n)` visits 1, 2, ..., n; `range(n, -1, 1)` visits n, n-1, ..., 1. Each part is a
/// plain integer or an integer Val/Var/element; the counter takes the kernel value's type.
template <class First, class Step, class Last>
struct Range {
  First first;
  Step step;
  Last last;
};
template <class First, class Last>
Range<First, int, Last> range(const First& first, const Last& last) {
  return {first, 1, last};
}
template <class First, class Step, class Last>
Range<First, Step, Last> range(const First& first, const Step& step, const Last& last) {
  return {first, step, last};
}

namespace detail {

/// The scalar a kernel value holds (Val<T>, Var<T>, an element of T); void for anything else,
/// e.g. a plain C++ number, which adapts to the kernel values beside it.
template <class X>
struct KernelValueType {
  using type = void;
};
template <class T>
struct KernelValueType<Val<T>> {
  using type = T;
};
template <class T>
struct KernelValueType<Var<T>> {
  using type = T;
};
template <class T>
struct KernelValueType<Ref<T>> {
  using type = arithmetic_t<T>;
};

/// `x` as a Val<T>: a kernel value as it is (a Var or an element read now, once), a plain C++
/// number as a literal.
template <class T, class X>
Val<T> as_val(BuilderState* state, const X& x) {
  if constexpr (std::is_arithmetic_v<X>) {
    return Val<T>(literal(state, static_cast<T>(x)));
  } else if constexpr (std::is_same_v<X, Val<T>>) {
    return x;
  } else {
    return x.get();
  }
}

template <class I>
inline constexpr bool counter_type_v =
    std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, char> &&
    !std::is_same_v<I, wchar_t> && !std::is_same_v<I, char8_t> && !std::is_same_v<I, char16_t> &&
    !std::is_same_v<I, char32_t>;

/// A loop bound or step: a plain integer, or a kernel integer (Val, Var or element).
template <class B>
concept LoopBound = counter_type_v<B> || counter_type_v<typename KernelValueType<B>::type>;

/// Instantiated only when two bounds are kernel values of different integer types: the
/// compiler's message names both (`LoopBoundsDiffer<int, long int>`).
template <class A, class B>
struct LoopBoundsDiffer {
  static_assert(sizeof(A) == 0,
                "for_: the bounds and step are kernel integers of different types; cast<I>() "
                "one of them (plain C++ integers adapt to the others)");
  using type = A;
};

template <class A, class B>
struct JoinCounter {
  using type = typename LoopBoundsDiffer<A, B>::type;
};
template <class A>
struct JoinCounter<A, A> {
  using type = A;
};
template <class A>
struct JoinCounter<A, void> {
  using type = A;
};
template <class B>
struct JoinCounter<void, B> {
  using type = B;
};
template <>
struct JoinCounter<void, void> {
  using type = void;
};

template <class... B>
struct LoopCounter {
  using type = void;
};
template <class B, class... Rest>
struct LoopCounter<B, Rest...> {
  using type = typename JoinCounter<typename KernelValueType<B>::type,
                                    typename LoopCounter<Rest...>::type>::type;
};

/// The counter type of a loop over these bounds: the kernel values' type; int64_t when every
/// bound is a plain integer.
template <class... B>
using loop_counter_t = std::conditional_t<std::is_void_v<typename LoopCounter<B...>::type>,
                                          std::int64_t, typename LoopCounter<B...>::type>;

[[noreturn]] void throw_loop_literal_range(const BuilderState* state, const char* what,
                                           const std::string& value, Scalar counter);

/// A bound as a kernel value of the counter type. A plain integer must fit that type.
template <class I, class B>
Val<I> loop_value(BuilderState* state, const B& bound, const char* what) {
  if constexpr (std::is_integral_v<B>) {
    if (!std::in_range<I>(bound))
      throw_loop_literal_range(state, what, std::to_string(bound), scalar_of<I>);
  }
  return as_val<I>(state, bound);  // a Var or an element is read once, before the loop
}

/// What one side of a ternary gives: a kernel value of `type`, or a plain C++ number.
template <class R>
struct TernarySide {
  using held = typename KernelValueType<R>::type;
  static constexpr bool kernel = !std::is_void_v<held>;
  static constexpr bool plain = std::is_arithmetic_v<R>;
  using type = std::conditional_t<kernel, held, R>;
};

/// Instantiated only when the sides of a ternary give different types: the compiler's message
/// names both (`TernarySidesDiffer<float, int>`).
template <class A, class B>
struct TernarySidesDiffer {
  static_assert(sizeof(A) == 0,
                "ternary: both sides must give the same type (a Val<T>, Var<T> or element of T, "
                "or a plain C++ number, which takes the other side's T); cast<T>() one of them");
  using type = A;
};

/// The result type of `ternary` whose sides return RA and RB. A plain number beside a kernel
/// value takes its type, as in `x * 2`.
template <class RA, class RB>
auto ternary_result() {
  using A = TernarySide<std::remove_cvref_t<RA>>;
  using B = TernarySide<std::remove_cvref_t<RB>>;
  static_assert(A::kernel || A::plain,
                "ternary: the first side must return a Val<T>, a Var<T>, an element or a number");
  static_assert(B::kernel || B::plain,
                "ternary: the second side must return a Val<T>, a Var<T>, an element or a number");
  using a = typename A::type;
  using b = typename B::type;
  if constexpr (std::is_same_v<a, b>) {
    return std::type_identity<a>{};
  } else if constexpr (A::kernel && B::plain && std::is_convertible_v<b, a>) {
    return std::type_identity<a>{};
  } else if constexpr (B::kernel && A::plain && std::is_convertible_v<a, b>) {
    return std::type_identity<b>{};
  } else {
    return std::type_identity<typename TernarySidesDiffer<a, b>::type>{};
  }
}
template <class RA, class RB>
using ternary_t = typename decltype(ternary_result<RA, RB>())::type;

}  // namespace detail

}  // namespace spvjit

SPVJIT_API_END
