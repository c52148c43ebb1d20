// HostSignalHandlersKept: the host's handlers for SIGHUP, SIGINT, SIGTERM, SIGUSR1 and SIGUSR2
// are the same after the OpenCL calls it scopes as before, when an LLVM took them meanwhile.
//
// Starting an OpenCL platform's devices may run an LLVM that puts its own handlers over the
// host's (lib/Support/Unix/Signals.inc, RegisterHandlers: the first time a file is registered
// for removal on a signal). Debian's PoCL 3.1 does so through the shared libLLVM-15 when its
// devices start (pocl_install_sigfpe_handler), and spvjit lists every platform's devices
// whenever a Runtime starts; our PoCL 6.0 no longer does (third_party/pocl/patches/0009). With
// LLVM's handlers there, SIGUSR1 never reached the host's handler again, and the others ran
// LLVM's first (issue #53). Only handlers that now live in a libLLVM are put back, so a
// handler an OpenCL vendor installs on purpose (PoCL's SIGFPE, its opt-in SIGUSR2 report) is
// left alone; LLVM's own handlers for faults (SIGSEGV, SIGFPE, ...) stay, and still end in the
// host's when a fault comes.
#pragma once

#include <signal.h>

#include <iterator>

namespace spvjit::detail {

class HostSignalHandlersKept {
 public:
  HostSignalHandlersKept() noexcept;
  ~HostSignalHandlersKept();
  HostSignalHandlersKept(const HostSignalHandlersKept&) = delete;
  HostSignalHandlersKept& operator=(const HostSignalHandlersKept&) = delete;

  /// The signals whose handlers are kept: LLVM 15's "interrupt" and "info" signals.
  static constexpr int signals[] = {SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2};

 private:
  struct sigaction before_[std::size(signals)];
  bool read_[std::size(signals)] = {};
};

}  // namespace spvjit::detail
