#include "common/child_process.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "spvjit/error.hpp"

extern char** environ;

namespace spvjit::detail {

namespace {

// What the child needs, prepared by the parent: between clone and execve the child shares the
// parent's memory and must neither allocate nor take a lock.
struct ChildSetup {
  const char* program;
  char* const* argv;
  char* const* envp;
  int stdin_fd, stdout_fd, stderr_fd;
  const sigset_t* parent_mask;
};

// The kernel's struct sigaction (the one rt_sigaction takes), not glibc's.
struct KernelSigaction {
  void (*handler)(int);
  unsigned long flags;
  void (*restorer)();
  unsigned long mask;
};

// Raw system calls only: no libc wrapper that a sanitizer intercepts or that takes a lock.
__attribute__((no_sanitize("address", "thread", "undefined"))) int child_start(void* arg) {
  const auto* setup = static_cast<const ChildSetup*>(arg);
  // The host's handlers must not run in this copy of its address space: back to the default
  // for every handled signal (ignored ones stay ignored, as across any exec) while all are
  // blocked, then the host's mask as it was.
  for (long sig = 1; sig < 65; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    KernelSigaction old{};
    if (syscall(SYS_rt_sigaction, sig, nullptr, &old, 8) != 0) continue;
    if (old.handler != SIG_DFL && old.handler != SIG_IGN) {
      KernelSigaction dfl{};
      dfl.handler = SIG_DFL;
      syscall(SYS_rt_sigaction, sig, &dfl, nullptr, 8);
    }
  }
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, setup->parent_mask, nullptr, 8);
  if (syscall(SYS_dup2, setup->stdin_fd, 0) < 0 || syscall(SYS_dup2, setup->stdout_fd, 1) < 0 ||
      syscall(SYS_dup2, setup->stderr_fd, 2) < 0) {
    syscall(SYS_exit, 126);
  }
  syscall(SYS_execve, setup->program, setup->argv, setup->envp);
  syscall(SYS_exit, 127);
  return 127;
}

// glibc's own clone, looked up in libc rather than bound to whatever defines the symbol first.
// ThreadSanitizer defines one: its interceptor runs TSan's after-fork bookkeeping in the child,
// and with CLONE_VM that is this process's memory and this thread's state. TSan then takes the
// whole process for the child of a multithreaded fork: it ignores the thread's synchronisation,
// loses the order pthread_join gives, and reported a joined compile thread's writes as racing
// with the main thread's later delete (CI at becf57b). PoCL starts its translator the same way
// (third_party/pocl/patches/0001). child_start makes raw system calls only, so no interceptor
// has anything to see in it. Looked up once per process.
using CloneFn = int (*)(int (*)(void*), void*, int, void*, ...);
CloneFn libc_clone() noexcept {
  static const CloneFn fn = [] {
    CloneFn found = nullptr;
    if (void* libc = ::dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD)) {
      found = reinterpret_cast<CloneFn>(::dlsym(libc, "clone"));
      ::dlclose(libc);
    }
    return found ? found : &::clone;
  }();
  return fn;
}

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

[[noreturn]] void fail(const std::string& what) {
  throw SystemError("run_child: " + what + ": " + std::strerror(errno));
}

// A host that closed fds 0-2 (daemons do) gets its next descriptors there: the child's dup2 of
// such a one onto its own number is no dup at all and keeps close-on-exec, so the program
// started with that stream closed. Every descriptor the child is given lives above 2.
int above_standard_streams(int fd, const char* what) {
  if (fd < 0) fail(what);
  if (fd > 2) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  const int saved = errno;
  ::close(fd);
  errno = saved;
  if (moved < 0) fail(std::string(what) + " (moving it above fd 2)");
  return moved;
}

}  // namespace

ChildResult run_child(const std::string& program, const std::vector<std::string>& args,
                      std::string_view input, std::chrono::milliseconds timeout) {
  // Standard input from a memory file: no pipe to write to, so no SIGPIPE for the host when the
  // child ends before reading it all.
  Fd in(above_standard_streams(::memfd_create("spvjit-child-input", MFD_CLOEXEC), "memfd_create"));
  for (std::size_t done = 0; done < input.size();) {
    const ssize_t n = ::write(in.get(), input.data() + done, input.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("writing the child's input");
    done += static_cast<std::size_t>(n);
  }
  if (::lseek(in.get(), 0, SEEK_SET) != 0) fail("lseek");
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) fail("pipe2");
  Fd out_read(out_pipe[0]);
  Fd out_write(above_standard_streams(out_pipe[1], "pipe2"));
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) fail("pipe2");
  Fd err_read(err_pipe[0]);
  Fd err_write(above_standard_streams(err_pipe[1], "pipe2"));

  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  sigset_t all, previous;
  sigfillset(&all);
  ChildSetup setup{program.c_str(), argv.data(),     environ,  in.get(),
                   out_write.get(), err_write.get(), &previous};
  // The child's stack; the parent is suspended until the child has called execve (CLONE_VFORK).
  constexpr std::size_t stack_size = 64 * 1024;
  void* stack = ::mmap(nullptr, stack_size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) fail("mmap");
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  int pidfd = -1;
  const CloneFn start = libc_clone();
  const pid_t pid = start(child_start, static_cast<char*>(stack) + stack_size,
                          CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &setup, &pidfd);
  const int clone_errno = errno;
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ::munmap(stack, stack_size);
  if (pid < 0) {
    errno = clone_errno;
    fail("cannot start " + program +
         (clone_errno == EAGAIN ? " (the process is at its pids or "
                                  "process-count limit?)"
                                : ""));
  }
  Fd child(pidfd);
  out_write.reset();
  err_write.reset();
  in.reset();

  ChildResult result;
  pollfd fds[2] = {{out_read.get(), POLLIN, 0}, {err_read.get(), POLLIN, 0}};
  int open_fds = 2;
  // On the heap: the calling thread may be a thread pool's, with a stack of 64 KiB or less.
  std::vector<char> buffer(65536);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    for (auto& f : fds) {
      if (f.fd < 0 || !(f.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(f.fd, buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        f.fd = -1;
        --open_fds;
        continue;
      }
      (&f == &fds[0] ? result.out : result.err).append(buffer.data(), static_cast<std::size_t>(n));
    }
  }
  if (result.timed_out) ::syscall(SYS_pidfd_send_signal, child.get(), SIGKILL, nullptr, 0);
  siginfo_t info{};
  int waited;
  constexpr int wait_on_pidfd = 3;  // P_PIDFD (Linux 5.4); glibc 2.36's headers lack it
  while ((waited = ::waitid(static_cast<idtype_t>(wait_on_pidfd), static_cast<id_t>(child.get()),
                            &info, WEXITED | __WALL)) < 0 &&
         errno == EINTR) {
  }
  if (waited < 0) {
    if (errno != ECHILD) fail("waiting for " + program);
    result.status_known = false;  // reaped by the host's SIGCHLD handling
    return result;
  }
  result.exited = info.si_code == CLD_EXITED;
  result.exit_code = result.exited ? info.si_status : 0;
  result.signal = result.exited ? 0 : info.si_status;
  return result;
}

}  // namespace spvjit::detail
