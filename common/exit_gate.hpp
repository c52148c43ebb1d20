// exit() while another thread is inside spvjit (issue #53). exit() runs the host's atexit
// handlers and then destroys every static object, a host's static Runtime and Jit, LLVM's and
// PoCL's globals among them, while the process's other threads go on: a thread compiling,
// launching or reading a buffer at that moment used a context clReleaseContext had freed
// (SIGSEGV in clCreateProgramWithIL, PoCL's "PTHREAD ERROR in POclReleaseEvent").
//
// So each call that does spvjit's work (a compile, a launch, a wait, a buffer transfer) runs
// inside a WorkScope, and spvjit registers an atexit handler when such a call ends (after a
// Runtime or Jit is made, and at each thread's 1st, 2nd, 4th, ... call): registered after the
// host's static Runtime and Jit were constructed and after the statics LLVM and PoCL make
// during the first compiles and launches, it runs before any of them is destroyed (exit() runs
// handlers last-registered first). It closes the gate, waits (up to
// exit_wait_for_work_seconds) for the threads inside to leave, then for the work they left to
// threads spvjit does not own (ExitDrain: a launch's command in PoCL's pthread queue, whose
// driver thread compiles and runs it after the enqueue returned), and a thread that comes to
// the gate afterwards waits there, touching nothing, until the process is gone. The host's own
// atexit handlers and exit status are untouched; quick_exit destroys nothing and needs no gate.
#pragma once

#include <chrono>

namespace spvjit::detail {

/// How long exit() waits for work in flight (a cold compile takes well under a second; a
/// synchronize may wait on a long kernel) before it goes on regardless.
inline constexpr int exit_wait_for_work_seconds = 10;

/// The calling thread is doing spvjit's work for this object's lifetime. Scopes nest; the
/// outermost one parks the thread for good if the process has begun to exit.
class WorkScope {
 public:
  /// A scope on a thread that runs work on another's behalf (the full-stack companion), while
  /// that thread waits inside its own scope: it nests, and never parks.
  struct Lent {};
  /// A scope that never registers the handler when it ends: a launch, the hot path that must not
  /// allocate (a registration may: glibc grows its atexit table in blocks of 32).
  struct Quiet {};

  WorkScope() noexcept;
  explicit WorkScope(Lent) noexcept;
  explicit WorkScope(Quiet) noexcept;
  ~WorkScope();
  /// The calling thread's outermost scope only looked up a kernel compiled before (a warm
  /// Jit::compile): like a launch, it makes no statics, so it neither counts as a piece of work
  /// nor registers the handler, unless a build in the same scope calls note_build(). A warm
  /// lookup must not allocate, and a registration may.
  static void note_lookup() noexcept;
  /// The scope built something (a compile, a disk-cache load): it counts, whatever else it did.
  static void note_build() noexcept;
  /// What this thread noted and has not yet reported, reset. The full-stack companion runs its
  /// caller's work under a Lent scope: it takes what the work noted and the caller adopts it,
  /// so that the caller's outermost scope weighs it (common/full_stack.cpp).
  enum class Noted : unsigned char { Nothing, Lookup, Build };
  static Noted take_noted() noexcept;
  static void adopt_noted(Noted noted) noexcept;
  WorkScope(const WorkScope&) = delete;
  WorkScope& operator=(const WorkScope&) = delete;

 private:
  void enter() noexcept;
  bool counted_ = false;   ///< this scope made the thread count as inside
  bool registers_ = true;  ///< registers the handler when it ends, at the counts above
};

/// Waits, until `deadline` at the latest, for the work `owner` handed to threads spvjit does not
/// own. Called by exit()'s handler after the threads inside spvjit left, before any static is
/// destroyed, with no spvjit call in flight (the gate is closed): so it may not make one.
using ExitDrain = void (*)(void* owner, std::chrono::steady_clock::time_point deadline);

/// `drain(owner, ...)` runs at exit() until remove_exit_drain(owner); `owner` must stay alive
/// until then. The two serialize with a running exit handler: an owner removed while exit()
/// drains it is destroyed only after its drain returned.
void add_exit_drain(void* owner, ExitDrain drain);
void remove_exit_drain(void* owner) noexcept;

/// How many times the exit handler was registered in this process (for tests: a warm lookup
/// must register none).
std::uint64_t exit_handler_registrations() noexcept;

/// A Runtime or Jit was made: the next outermost WorkScope to end registers the exit handler again,
/// so that it runs before that object's destructor (registered when its constructor returned).
void note_new_owner() noexcept;

}  // namespace spvjit::detail
