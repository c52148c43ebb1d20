// Message formatting for the exception hierarchy.
#include "spvjit/error.hpp"

namespace spvjit {

TranslationError::TranslationError(const std::string& kernel, const std::string& reason,
                                   std::string ir)
    : Error("cannot translate kernel '" + kernel + "' to SPIR-V: " + reason),
      kernel_(kernel),
      reason_(reason),
      ir_(std::move(ir)) {}

namespace {
std::string opencl_message(const char* function, int code, const std::string& context) {
  std::string msg = std::string(function) + " failed with " + cl_error_name(code);
  if (!context.empty()) msg += " (" + context + ")";
  return msg;
}
}  // namespace

OpenCLError::OpenCLError(const char* function, int code, const std::string& context)
    : Error(opencl_message(function, code, context)), function_(function), code_(code) {}

const char* OpenCLError::code_name() const noexcept { return cl_error_name(code_); }

BuildError::BuildError(int code, const std::string& kernel, std::string log)
    : OpenCLError("clBuildProgram", code,
                  "kernel '" + kernel + "'; build log:\n" + (log.empty() ? "(empty)" : log)),
      kernel_(kernel),
      log_(std::move(log)) {}

}  // namespace spvjit
