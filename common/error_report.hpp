// One way to raise an error, after Halide's user_assert / internal_assert (src/Error.h): a
// report gathers the message with <<, and throws when its statement ends.
//
//   user_assert(n > 0, {"launch", name}) << "ndrange " << n << "; expected at least 1";
//   internal_assert(arg < fn.arg_size()) << "argument " << arg << " of " << fn.arg_size();
//
// Every message starts with where it arose, in one scheme: "<operation> of kernel '<name>': "
// (the operation as the user called it: compile, launch, finish, store, ...), or
// "<operation>: " where no kernel is concerned (Jit::compile on a moved-from Jit, Buffer::read,
// kernel_from_bitcode). Then what was wrong, then what was expected or what to do instead.
// An InternalError also names the file and line that found it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace spvjit::detail {

/// Where an error arose, as its message starts.
struct Where {
  std::string_view operation;
  std::string_view kernel = {};  ///< empty: no kernel is concerned

  /// "launch of kernel 'k'" or "launch".
  std::string to_string() const;
};

enum class ErrorKind { User, Internal };

class ErrorReport {
 public:
  /// A user error starts with `where`; an internal one with `file` and `line` instead.
  ErrorReport(ErrorKind kind, Where where, const char* file, int line);
  ErrorReport(const ErrorReport&) = delete;
  ErrorReport& operator=(const ErrorReport&) = delete;
  /// Throws UserError or InternalError with the message, unless an exception is already on its
  /// way (one thrown while the message was built), which then goes on. Not [[noreturn]] for
  /// that reason: a function ending in a report still needs its own return or throw after it.
  ~ErrorReport() noexcept(false);

  ErrorReport& operator<<(std::string_view text) {
    message_ += text;
    return *this;
  }
  ErrorReport& operator<<(const char* text) { return *this << std::string_view(text); }
  ErrorReport& operator<<(const std::string& text) { return *this << std::string_view(text); }
  ErrorReport& operator<<(char c) {
    message_ += c;
    return *this;
  }
  template <class Number>
  requires std::is_arithmetic_v<Number> ErrorReport& operator<<(Number n) {
    message_ += std::to_string(n);
    return *this;
  }

 private:
  ErrorKind kind_;
  std::string message_;
  int uncaught_;
};

}  // namespace spvjit::detail

#define spvjit_report_if(kind, cond, where) \
  if (cond) [[likely]] {                    \
  } else                                    \
    ::spvjit::detail::ErrorReport(::spvjit::detail::ErrorKind::kind, where, __FILE__, __LINE__)

/// A misuse of the API, when `cond` fails: a UserError "<where>: <message>".
#define user_assert(cond, ...) spvjit_report_if(User, (cond), (::spvjit::detail::Where __VA_ARGS__))
/// A misuse found without a single condition to test.
#define user_error(...)                                            \
  ::spvjit::detail::ErrorReport(::spvjit::detail::ErrorKind::User, \
                                ::spvjit::detail::Where __VA_ARGS__, __FILE__, __LINE__)
/// An invariant of spvjit's own, when `cond` fails: an InternalError naming this file and line.
#define internal_assert(cond) spvjit_report_if(Internal, (cond), (::spvjit::detail::Where{}))
#define internal_error                                                                            \
  ::spvjit::detail::ErrorReport(::spvjit::detail::ErrorKind::Internal, ::spvjit::detail::Where{}, \
                                __FILE__, __LINE__)
