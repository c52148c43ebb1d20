// Formatted printing from a kernel (KernelAbstractions' `@print`), through OpenCL C's printf.
//
//   print(kb, "item %ld of group %ld: x = %f\n", kb.local_index(), kb.group_index(), x[i]);
//   print(kb, "%s: %d\n", "count", n);   // a C++ string is written into the format
//
// Arguments are kernel values (Val<T>, a var, an element `a[i]`) of any scalar type, plain C++
// scalars, and C++ strings (for %s). The format is checked when print() is called: one
// argument per conversion, each of the type its conversion expects (%d/%i: a signed integer of
// at most 32 bits, %ld: i64; %u/%x/%X/%o: an integer, unsigned for %u, %lu/%lx/...: 64 bits;
// %hd, %hhd, ...: 16 and 8 bits; %c: an integer; %f/%e/%g/%a (and upper case): f32 or f64;
// %s: a C++ string; %%), else a UserError naming the argument. Only OpenCL C's conversions are
// accepted (no %n, %p, %ll, `*` widths).
//
// Each work-item prints its own line(s); the order between work-items is unspecified. The text
// reaches the process's standard output (file descriptor 1) when the launch completes, so
// Runtime::synchronize() or Event::wait() makes it visible; a launch of a printing kernel first
// flushes std::printf/std::cout's buffered output so that the text keeps the program's order.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "spvjit/builder.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
/// One argument of print: a kernel value, or text written into the format when built.
struct PrintArg {
  Value value;
  std::string text;
  bool is_text = false;
};

void print(KernelBuilder& kb, std::string_view format, std::span<const PrintArg> args);

template <class A>
PrintArg print_arg(KernelBuilder& kb, const A& a) {
  if constexpr (std::is_convertible_v<const A&, std::string_view>) {
    return {Value(), std::string(std::string_view(a)), true};
  } else if constexpr (std::is_base_of_v<Value, A>) {
    return {a, {}, false};
  } else if constexpr (requires { a.get(); }) {  // a var or an element: read it
    return {Value(a.get()), {}, false};
  } else if constexpr (std::is_same_v<A, char>) {
    return {Value(kb.lit(static_cast<std::int8_t>(a))), {}, false};
  } else {
    static_assert(KernelScalar<A>,
                  "print: each argument must be a kernel value (Val<T>, a var, an element), a "
                  "C++ scalar of a kernel type (int32_t, int64_t, float, ...) or a string");
    return {Value(kb.lit(a)), {}, false};
  }
}
}  // namespace detail

/// Prints from each work-item that runs it, formatted as OpenCL C's printf does.
template <class... A>
void print(KernelBuilder& kb, std::string_view format, const A&... args) {
  const std::array<detail::PrintArg, sizeof...(A)> list{detail::print_arg(kb, args)...};
  detail::print(kb, format, list);
}

}  // namespace spvjit

SPVJIT_API_END
