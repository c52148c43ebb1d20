#include "common/child_process.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
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

// Starts `program` with `args` on the given standard streams (each above fd 2); returns a pidfd.
int spawn_child(const std::string& program, const std::vector<std::string>& args, int in_fd,
                int out_fd, int err_fd) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  sigset_t all, previous;
  sigfillset(&all);
  ChildSetup setup{program.c_str(), argv.data(), environ, in_fd, out_fd, err_fd, &previous};
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
  return pidfd;
}

// Waits for the child of `pidfd` and puts how it ended in `result`.
void wait_child(int pidfd, const std::string& program, ChildResult& result) {
  siginfo_t info{};
  int waited;
  constexpr int wait_on_pidfd = 3;  // P_PIDFD (Linux 5.4); glibc 2.36's headers lack it
  while ((waited = ::waitid(static_cast<idtype_t>(wait_on_pidfd), static_cast<id_t>(pidfd), &info,
                            WEXITED | __WALL)) < 0 &&
         errno == EINTR) {
  }
  if (waited < 0) {
    if (errno != ECHILD) fail("waiting for " + program);
    result.status_known = false;  // reaped by the host's SIGCHLD handling
    return;
  }
  result.exited = info.si_code == CLD_EXITED;
  result.exit_code = result.exited ? info.si_status : 0;
  result.signal = result.exited ? 0 : info.si_status;
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
  Fd child(spawn_child(program, args, in.get(), out_write.get(), err_write.get()));
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
  wait_child(child.get(), program, result);
  return result;
}

ChildServer::ChildServer(std::string program, std::vector<std::string> args, std::string goodbye)
    : program_(std::move(program)), args_(std::move(args)), goodbye_(std::move(goodbye)) {}

ChildServer::~ChildServer() {
  std::lock_guard lock(mutex_);
  if (pidfd_ >= 0 && owner_ == ::getpid()) {
    ChildResult ignored;
    try {
      stop(&ignored, std::chrono::steady_clock::now() + std::chrono::seconds(10));
    } catch (const Error&) {
    }
  }
}

unsigned ChildServer::starts() const {
  std::lock_guard lock(mutex_);
  return starts_;
}

void ChildServer::start() {
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) fail("socketpair");
  // Ours above fd 2 as well: a host that closed its standard streams must not write into it.
  Fd ours(above_standard_streams(pair[0], "socketpair"));
  Fd theirs(above_standard_streams(pair[1], "socketpair"));
  int err_pipe[2];
  if (::pipe2(err_pipe, O_CLOEXEC | O_NONBLOCK) != 0) fail("pipe2");
  Fd err_read(above_standard_streams(err_pipe[0], "pipe2"));
  Fd err_write(above_standard_streams(err_pipe[1], "pipe2"));
  // The child's end of the error pipe blocks as a program expects its standard error to.
  const int flags = ::fcntl(err_write.get(), F_GETFL);
  if (flags < 0 || ::fcntl(err_write.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) fail("fcntl");
  pidfd_ = above_standard_streams(
      spawn_child(program_, args_, theirs.get(), theirs.get(), err_write.get()), "clone");
  socket_ = ours.release();
  err_ = err_read.release();
  owner_ = ::getpid();
  ++starts_;
}

void ChildServer::stop(ChildResult* result, std::chrono::steady_clock::time_point kill_at) {
  // The end of its input first: a server between requests exits on it.
  ::close(socket_);
  socket_ = -1;
  // Then until kill_at for it to end: one that closed its output but lives on would otherwise
  // hold the caller in the wait for ever.
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        kill_at - std::chrono::steady_clock::now());
    pollfd ended{pidfd_, POLLIN, 0};
    const int ready = ::poll(&ended, 1, static_cast<int>(std::max<long long>(left.count(), 0)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) ::syscall(SYS_pidfd_send_signal, pidfd_, SIGKILL, nullptr, 0);
    break;
  }
  wait_child(pidfd_, program_, *result);
  ::close(pidfd_);
  pidfd_ = -1;
  // What it wrote to standard error before it ended.
  char buffer[4096];
  while (err_ >= 0) {
    const ssize_t n = ::read(err_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    result->err.append(buffer, static_cast<std::size_t>(n));
  }
  if (err_ >= 0) ::close(err_);
  err_ = -1;
}

ChildResult ChildServer::exchange(std::string_view request,
                                  const std::function<bool(std::string_view)>& whole,
                                  std::chrono::milliseconds timeout) {
  std::lock_guard lock(mutex_);
  ChildResult result = exchange_locked(request, whole, timeout);
  // It left idle as the request came (its goodbye, then its end): it read none of it.
  if (!goodbye_.empty() && result.out == goodbye_ && !result.timed_out) {
    result = exchange_locked(request, whole, timeout);
  }
  return result;
}

ChildResult ChildServer::exchange_locked(std::string_view request,
                                         const std::function<bool(std::string_view)>& whole,
                                         std::chrono::milliseconds timeout) {
  ChildResult result;
  if (pidfd_ >= 0 && owner_ != ::getpid()) {
    // A fork's copy of the descriptors: the child belongs to the parent, which may be talking to
    // it now. Close the copies, untouched, and start one of this process's own.
    ::close(socket_);
    if (err_ >= 0) ::close(err_);
    ::close(pidfd_);
    socket_ = err_ = pidfd_ = -1;
  }
  if (pidfd_ >= 0) {
    // One that ended while idle (of its own accord, killed, or out of memory) is waited for
    // and replaced before the request: the request was never its.
    pollfd ended{pidfd_, POLLIN, 0};
    if (::poll(&ended, 1, 0) > 0) {
      ChildResult idle_end;
      stop(&idle_end, std::chrono::steady_clock::now());
    }
  }
  if (pidfd_ < 0) start();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t sent = 0;
  // On the heap: the calling thread may be a thread pool's, with a stack of 64 KiB or less.
  std::vector<char> buffer(65536);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      stop(&result, std::chrono::steady_clock::now());
      return result;
    }
    pollfd fds[2] = {
        {socket_, static_cast<short>(POLLIN | (sent < request.size() ? POLLOUT : 0)), 0},
        {err_, POLLIN, 0}};
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) fail("poll");
    if (ready <= 0) continue;
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t n = ::read(err_, buffer.data(), buffer.size());
      if (n > 0) {
        result.err.append(buffer.data(), static_cast<std::size_t>(n));
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        // It closed its standard error: polling it would only wake this loop again at once.
        ::close(err_);
        err_ = -1;
      }
    }
    if (sent < request.size() && (fds[0].revents & POLLOUT)) {
      const ssize_t n = ::send(socket_, request.data() + sent, request.size() - sent,
                               MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        sent += static_cast<std::size_t>(n);
      } else if (n < 0 && errno != EINTR && errno != EAGAIN) {
        stop(&result, deadline);  // it ended before reading the whole request
        return result;
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t n = ::recv(socket_, buffer.data(), buffer.size(), MSG_DONTWAIT);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        stop(&result, deadline);  // it ended (or closed its output) without a whole answer
        return result;
      }
      result.out.append(buffer.data(), static_cast<std::size_t>(n));
      if (whole(result.out)) return result;
    }
  }
}

}  // namespace spvjit::detail
