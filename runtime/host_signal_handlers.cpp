#include "runtime/host_signal_handlers.hpp"

#include <dlfcn.h>

#include <cstring>
#include <iterator>

namespace spvjit::detail {

namespace {

// The handler's address, whichever of the two forms the action uses.
void* handler_of(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) ? reinterpret_cast<void*>(action.sa_sigaction)
                                        : reinterpret_cast<void*>(action.sa_handler);
}

// True when the handler is a function of a shared libLLVM (libLLVM-15.so.1, libLLVM.so...).
bool in_libllvm(void* handler) {
  if (handler == reinterpret_cast<void*>(SIG_DFL) || handler == reinterpret_cast<void*>(SIG_IGN))
    return false;
  Dl_info info{};
  if (::dladdr(handler, &info) == 0 || info.dli_fname == nullptr) return false;
  const char* slash = std::strrchr(info.dli_fname, '/');
  const char* file = slash ? slash + 1 : info.dli_fname;
  return std::strncmp(file, "libLLVM", 7) == 0;
}

}  // namespace

HostSignalHandlersKept::HostSignalHandlersKept() noexcept {
  for (std::size_t i = 0; i < std::size(signals); ++i) {
    read_[i] = ::sigaction(signals[i], nullptr, &before_[i]) == 0;
  }
}

HostSignalHandlersKept::~HostSignalHandlersKept() {
  for (std::size_t i = 0; i < std::size(signals); ++i) {
    if (!read_[i]) continue;
    struct sigaction now {};
    if (::sigaction(signals[i], nullptr, &now) != 0) continue;
    if (handler_of(now) != handler_of(before_[i]) && in_libllvm(handler_of(now))) {
      ::sigaction(signals[i], &before_[i], nullptr);
    }
  }
}

}  // namespace spvjit::detail
