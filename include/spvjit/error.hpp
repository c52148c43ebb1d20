// The one exception hierarchy of spvjit, split by whose fault an error is (after Halide's
// Error.h): the user's (UserError), the translator's (TranslationError), the OpenCL
// implementation's (OpenCLError, BuildError), or ours (InternalError).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// Base of every exception spvjit throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Misuse of the API: a type mismatch in the builder, a wrong launch argument, a bad size.
class UserError : public Error {
 public:
  using Error::Error;
};

/// A kernel indexed memory outside what it was given: a buffer, view, shared array, local or
/// private array (see KernelBuilder::inbounds). The access was skipped (a read gave 0); the
/// runtime and later launches are unaffected, and what the failing launch wrote is unspecified.
/// Thrown by the next Runtime::synchronize() or Event::wait() after the launch, or by the launch
/// itself when the failure is certain before it runs (raw modules' `x[get_global_id(0)]`).
class BoundsError : public UserError {
 public:
  BoundsError(std::string kernel, std::string array, const std::string& message)
      : UserError(message), kernel_(std::move(kernel)), array_(std::move(array)) {}
  const std::string& kernel_name() const noexcept { return kernel_; }
  /// The array as the message names it: "Z", "local array tile", ...
  const std::string& array_name() const noexcept { return array_; }

 private:
  std::string kernel_;
  std::string array_;
};

/// A kernel converted a float to an integer type that cannot hold it: cast<std::int8_t>(x) of
/// 200.0 or of NaN (Julia's InexactError; cast_sat<T> clamps instead). Checked, reported and
/// turned off (KernelBuilder::inbounds, JitOptions::bounds_checks) as bounds checks are; the
/// conversion gave 0. array_name() is empty.
class InexactError : public BoundsError {
 public:
  using BoundsError::BoundsError;
};

/// A bug in spvjit itself: an invariant that should have held did not.
class InternalError : public Error {
 public:
  using Error::Error;
};

/// The LLVM module could not be turned into SPIR-V; carries the offending IR.
class TranslationError : public Error {
 public:
  TranslationError(const std::string& kernel, const std::string& reason, std::string ir);
  const std::string& kernel_name() const noexcept { return kernel_; }
  const std::string& reason() const noexcept { return reason_; }
  /// The module's textual LLVM IR as it was handed to the translator (may be long).
  const std::string& ir() const noexcept { return ir_; }

 private:
  std::string kernel_;
  std::string reason_;
  std::string ir_;
};

/// An OpenCL call failed: names the C function and the error code.
class OpenCLError : public Error {
 public:
  OpenCLError(const char* function, int code, const std::string& context = {});
  int code() const noexcept { return code_; }
  /// The symbolic name of the code, e.g. "CL_INVALID_VALUE".
  const char* code_name() const noexcept;
  const char* function() const noexcept { return function_; }

 private:
  const char* function_;
  int code_;
};

/// clBuildProgram failed: carries the device's build log and the kernel's name.
class BuildError : public OpenCLError {
 public:
  BuildError(int code, const std::string& kernel, std::string log);
  const std::string& kernel_name() const noexcept { return kernel_; }
  const std::string& build_log() const noexcept { return log_; }

 private:
  std::string kernel_;
  std::string log_;
};

/// The operating system refused what a call needed: a pipe or a process for the translator
/// program, a thread with a full-sized stack. The process and spvjit live on; the call may
/// succeed later (fewer processes or threads, more memory).
class SystemError : public Error {
 public:
  using Error::Error;
};

/// No device that accepts SPIR-V was found; the message lists every device that was seen.
class DeviceNotFoundError : public Error {
 public:
  using Error::Error;
};

namespace detail {
/// Throws UserError("<operation>: <message>"), the scheme every user error's message follows
/// (common/error_report.hpp): for the public headers' inline code, which cannot reach the
/// library's user_assert. `operation` is the call as the user wrote it ("Buffer::read",
/// "view", "histogram").
[[noreturn]] void throw_user_error(std::string_view operation, const std::string& message);
}  // namespace detail

/// The symbolic name of an OpenCL error code ("CL_OUT_OF_RESOURCES"), or "CL_UNKNOWN_ERROR(n)".
const char* cl_error_name(int code) noexcept;

}  // namespace spvjit

SPVJIT_API_END
