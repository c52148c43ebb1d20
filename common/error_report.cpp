#include "common/error_report.hpp"

#include <exception>

#include "spvjit/error.hpp"

namespace spvjit::detail {

std::string Where::to_string() const {
  std::string out(operation);
  if (!kernel.empty()) {
    out += " of kernel '";
    out += kernel;
    out += '\'';
  }
  return out;
}

void throw_user_error(std::string_view operation, const std::string& message) {
  throw UserError(Where{operation}.to_string() + ": " + message);
}

ErrorReport::ErrorReport(ErrorKind kind, Where where, const char* file, int line)
    : kind_(kind), uncaught_(std::uncaught_exceptions()) {
  if (kind == ErrorKind::User) {
    message_ = where.to_string() + ": ";
    return;
  }
  // An internal error names the file as the source tree does, not the build machine's path.
  std::string_view path(file);
  for (std::string_view root : {"/common/", "/ir/", "/jit/", "/runtime/", "/algorithms/"}) {
    if (const auto at = path.rfind(root); at != std::string_view::npos) {
      path.remove_prefix(at + 1);
      break;
    }
  }
  message_ = "internal error at " + std::string(path) + ":" + std::to_string(line) + ": ";
}

ErrorReport::~ErrorReport() noexcept(false) {
  // An exception thrown while the message was built (bad_alloc) is already on its way.
  if (std::uncaught_exceptions() > uncaught_) return;
  if (kind_ == ErrorKind::Internal) {
    throw InternalError(message_ + " (a bug in spvjit: please report it with this message)");
  }
  throw UserError(message_);
}

}  // namespace spvjit::detail
