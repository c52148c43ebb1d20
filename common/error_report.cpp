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

ErrorReport::ErrorReport(ErrorKind kind, Where where, const char* file, int line)
    : kind_(kind), message_(where.to_string() + ": "), uncaught_(std::uncaught_exceptions()) {
  if (kind == ErrorKind::Internal) {
    // The file as the source tree names it, not the build machine's absolute path.
    std::string_view path(file);
    for (std::string_view root : {"/common/", "/ir/", "/jit/", "/runtime/", "/algorithms/"}) {
      if (const auto at = path.rfind(root); at != std::string_view::npos) {
        path.remove_prefix(at + 1);
        break;
      }
    }
    message_ = "internal error at ";
    message_ += path;
    message_ += ':';
    message_ += std::to_string(line);
    message_ += ": ";
  }
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
