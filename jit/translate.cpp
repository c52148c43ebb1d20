// Translation to SPIR-V. Validation catches every input we know the translator rejects; as a
// second line of defence the translation itself runs in a forked copy of this process, because
// llvm::writeSpirv reports some errors by calling std::exit (SPIRVErrorLog::checkError with
// SPIRVDbgError = Exit, not exported, so it cannot be switched off). A translator that exits
// then takes down only the copy, and the caller gets a TranslationError with what it printed.
// The fork costs about a millisecond; SPVJIT_TRANSLATE_IN_PROCESS=1 skips it.
#include "jit/translate.hpp"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "jit/validate.hpp"
#include "jit/warn.hpp"
#include "spvjit/error.hpp"

namespace spvjit::detail {

namespace {

SPIRV::TranslatorOpts translator_options() {
  // PoCL 6.0 on LLVM 15 reports "IL version SPIR-V_1.2". Float atomic add (OpAtomicFAddEXT)
  // needs its extension allowed; only modules that use it declare it, and the JIT lowers it
  // away for devices without cl_ext_float_atomics.
  return SPIRV::TranslatorOpts(SPIRV::VersionNumber::SPIRV_1_2,
                               {{SPIRV::ExtensionID::SPV_EXT_shader_atomic_float_add, true}});
}

std::vector<std::uint32_t> to_words(const std::string& bytes, const std::string& kernel,
                                    const llvm::Module& m) {
  if (bytes.size() % 4 != 0 || bytes.size() < 20) {
    throw TranslationError(kernel, "translator produced " + std::to_string(bytes.size()) +
                                       " bytes, not a SPIR-V module", module_text(m));
  }
  std::vector<std::uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

std::vector<std::uint32_t> translate_in_process(llvm::Module& m, const std::string& kernel) {
  std::ostringstream os;
  std::string error;
  if (!llvm::writeSpirv(&m, translator_options(), os, error)) {
    throw TranslationError(kernel, "SPIRV-LLVM-Translator: " + error, module_text(m));
  }
  return to_words(os.str(), kernel, m);
}

bool write_all(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Child side: translate, send "<ok byte><payload>" and leave without running atexit handlers.
[[noreturn]] void child_translate(llvm::Module& m, int out_fd, int err_fd) {
  ::dup2(err_fd, STDERR_FILENO);
  std::ostringstream os;
  std::string error;
  const bool ok = llvm::writeSpirv(&m, translator_options(), os, error);
  const std::string payload = ok ? os.str() : error;
  const char status = ok ? 1 : 0;
  const bool sent = write_all(out_fd, &status, 1) && write_all(out_fd, payload.data(), payload.size());
  ::_exit(sent ? 0 : 3);
}

// How long the forked translation may take before it is presumed stuck. fork() copies only
// the calling thread: a lock another thread held at that moment stays locked in the copy. glibc's
// malloc guards against that, but not every allocator does — GCC 12's AddressSanitizer
// allocator deadlocked a copy here while other threads compiled. A translation takes tens of
// milliseconds; after this long the copy is killed and the (validated) module is translated in
// this process instead.
std::chrono::milliseconds child_timeout() {
  if (const char* env = std::getenv("SPVJIT_TRANSLATE_TIMEOUT_MS")) {
    char* end = nullptr;
    const long ms = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && ms > 0) return std::chrono::milliseconds(ms);
  }
  return std::chrono::seconds(20);
}

// The SPIR-V, or nothing when the copy had to be killed for taking too long.
std::optional<std::vector<std::uint32_t>> translate_in_child(llvm::Module& m,
                                                             const std::string& kernel) {
  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw Error("translate: pipe failed: " + std::string(std::strerror(errno)));
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    throw Error("translate: pipe failed: " + std::string(std::strerror(errno)));
  }
  std::fflush(nullptr);  // or the child's exit() would print our buffered output twice
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    child_translate(m, out_pipe[1], err_pipe[1]);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (pid < 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    throw Error("translate: fork failed: " + std::string(std::strerror(errno)));
  }
  std::string out;
  std::string err;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buffer[65536];
  const auto deadline = std::chrono::steady_clock::now() + child_timeout();
  bool timed_out = false;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (ready == 0) continue;
    for (auto& f : fds) {
      if (f.fd < 0 || !(f.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(f.fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(f.fd);
        f.fd = -1;
        --open_fds;
        continue;
      }
      (&f == &fds[0] ? out : err).append(buffer, static_cast<size_t>(n));
    }
  }
  for (auto& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return std::nullopt;
  const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !out.empty();
  if (!clean) {
    std::string how = WIFEXITED(status) ? "called exit(" + std::to_string(WEXITSTATUS(status)) + ")"
                      : WIFSIGNALED(status) ? "was killed by signal " + std::to_string(WTERMSIG(status))
                                            : "stopped";
    while (!err.empty() && err.back() == '\n') err.pop_back();
    throw TranslationError(kernel,
                           "SPIRV-LLVM-Translator " + how + " while translating" +
                               (err.empty() ? std::string() : ": " + err),
                           module_text(m));
  }
  if (out[0] != 1) {
    throw TranslationError(kernel, "SPIRV-LLVM-Translator: " + out.substr(1), module_text(m));
  }
  return to_words(out.substr(1), kernel, m);
}

bool isolate() {
  const char* env = std::getenv("SPVJIT_TRANSLATE_IN_PROCESS");
  return !(env && std::strcmp(env, "1") == 0);
}

}  // namespace

std::vector<std::uint32_t> translate_to_spirv(llvm::Module& module, const std::string& kernel,
                                              bool validate) {
  if (validate) validate_for_spirv(module, kernel);
  if (isolate()) {
    if (auto words = translate_in_child(module, kernel)) return std::move(*words);
    warn_once("translate-timeout",
              "the isolated SPIR-V translation of kernel '" + kernel +
                  "' did not finish in time (a lock held by another thread at fork()?); "
                  "translating in this process instead");
  }
  return translate_in_process(module, kernel);
}

}  // namespace spvjit::detail
