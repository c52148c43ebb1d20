#include "common/exit_gate.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "common/thread_slots.hpp"

namespace spvjit::detail {

namespace {

// Never destroyed: threads parked at the gate, and work that outlasts the wait, still read it
// after exit() has destroyed the other statics.
struct Gate {
  std::atomic<bool> exiting{false};
  /// Threads with an outermost WorkScope open: those with a thread slot each in their own flag
  /// (common/thread_slots.hpp: no read-modify-write on a line every thread shares, on each
  /// compile and launch), the others in the count.
  struct alignas(64) Inside {
    std::atomic<bool> flag{false};
  };
  std::array<Inside, max_thread_slots> inside{};
  std::atomic<int> threads_inside{0};
  std::atomic<std::uint64_t> owners{0};         ///< Runtimes and Jits made
  std::atomic<std::uint64_t> registered{0};     ///< `owners` when the handler was last registered
  std::atomic<std::uint64_t> registrations{0};  ///< successful std::atexit calls
  std::mutex registering;
  std::mutex draining;  ///< held while exit() drains, and by add and remove
  std::vector<std::pair<void*, ExitDrain>> drains;
};
Gate& gate() {
  static Gate* const g = new Gate;
  return *g;
}

// Initial-exec: every compile() and launch reads these; from a shared library the default
// model reaches them through a __tls_get_addr call, this one with one %fs-relative access.
#define SPVJIT_FAST_TLS __attribute__((tls_model("initial-exec")))
thread_local int depth SPVJIT_FAST_TLS = 0;
thread_local std::uint64_t finished_here SPVJIT_FAST_TLS = 0;  ///< outermost scopes closed here
/// What the open outermost scope noted, as far as registering goes (note_lookup, note_build).
thread_local WorkScope::Noted noted_here SPVJIT_FAST_TLS = WorkScope::Noted::Nothing;
#undef SPVJIT_FAST_TLS

[[noreturn]] void park() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// Whether a thread other than the caller (inside its own scope when `own`) is inside one.
bool others_inside(Gate& g, bool own) {
  const int mine = own ? thread_slot() : -1;
  if (g.threads_inside.load(std::memory_order_seq_cst) > (own && mine < 0 ? 1 : 0)) return true;
  for (int i = 0; i < max_thread_slots; ++i) {
    if (i != mine && g.inside[i].flag.load(std::memory_order_acquire)) return true;
  }
  return false;
}

void close_gate_and_wait() {
  Gate& g = gate();
  g.exiting.store(true, std::memory_order_seq_cst);
  // A thread entering stores its flag, then reads `exiting`: after this barrier on its core,
  // either its flag is seen below or it sees the gate closed and stays out.
  fence_all_threads();
  // exit() called from inside a scope (its own thread's work) does not wait for itself.
  const bool own = depth > 0;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(exit_wait_for_work_seconds);
  while (others_inside(g, own) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // Then the work they handed on: a launch returns once enqueued, and PoCL's pthread driver
  // thread compiled its work-group function while exit() destroyed libpocl's statics (SIGSEGV
  // in pocl::OptimizeWorkItemFuncCalls, 1 in 4 to 24 exits during launches under ASan). Its own
  // deadline: a drain is the commands already enqueued, as a synchronize would wait for.
  const auto drain_deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(exit_wait_for_work_seconds);
  std::lock_guard<std::mutex> lock(g.draining);
  for (const auto& [owner, drain] : g.drains) drain(owner, drain_deadline);
}

void register_handler(Gate& g) {
  const std::uint64_t owners = g.owners.load(std::memory_order_acquire);
  std::lock_guard<std::mutex> lock(g.registering);
  if (g.exiting.load(std::memory_order_seq_cst)) return;
  // A failed registration (the table full) leaves exit as it was before: nothing to report.
  if (std::atexit(close_gate_and_wait) == 0) {
    g.registered.store(owners, std::memory_order_relaxed);
    g.registrations.fetch_add(1, std::memory_order_relaxed);
  }
}

void leave(Gate& g) noexcept {
  const int slot = thread_slot();
  if (slot >= 0) {
    g.inside[slot].flag.store(false, std::memory_order_release);
  } else {
    g.threads_inside.fetch_sub(1, std::memory_order_seq_cst);
  }
}

}  // namespace

WorkScope::WorkScope() noexcept { enter(); }

WorkScope::WorkScope(Quiet) noexcept : registers_(false) { enter(); }

void WorkScope::enter() noexcept {
  if (depth++ > 0) return;
  counted_ = true;
  Gate& g = gate();
  // Either the handler sees this thread inside and waits, or this thread sees the gate closed
  // and stays out: with a slot, by the handler's fence_all_threads between its store and its
  // loads; without one, by the seq_cst add and load against the handler's seq_cst store and
  // load.
  const int slot = thread_slot();
  if (slot >= 0) {
    g.inside[slot].flag.store(true, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    g.threads_inside.fetch_add(1, std::memory_order_seq_cst);
  }
  if (g.exiting.load(std::memory_order_seq_cst)) [[unlikely]] {
    leave(g);
    park();
  }
}

WorkScope::WorkScope(Lent) noexcept { ++depth; }

WorkScope::~WorkScope() {
  --depth;
  if (!counted_) return;
  Gate& g = gate();
  leave(g);
  const Noted done = take_noted();
  if (!registers_) return;
  const bool new_owner =
      g.registered.load(std::memory_order_relaxed) != g.owners.load(std::memory_order_relaxed);
  if (done == Noted::Lookup && !new_owner) return;
  // Registered again after the work, not before it: LLVM's and PoCL's function-local statics
  // made during a compile or a first launch are destroyed by exit() before any handler
  // registered ahead of them runs, and a compile in flight crashed on them while the handler
  // waited (SIGSEGV in PoCL's codegen, 6 runs of 6 with the disk cache on). After a new
  // Runtime or Jit, and after each thread's 1st, 2nd, 4th, 8th, ... piece of work: the
  // statics are made by the first compiles and launches, and the table grows by a logarithm.
  const std::uint64_t n = ++finished_here;
  if ((n & (n - 1)) == 0 || new_owner) [[unlikely]]
    register_handler(g);
}

void WorkScope::note_lookup() noexcept {
  if (noted_here == Noted::Nothing) noted_here = Noted::Lookup;
}

void WorkScope::note_build() noexcept { noted_here = Noted::Build; }

WorkScope::Noted WorkScope::take_noted() noexcept {
  return std::exchange(noted_here, Noted::Nothing);
}

void WorkScope::adopt_noted(Noted noted) noexcept {
  if (noted == Noted::Build) note_build();
  if (noted == Noted::Lookup) note_lookup();
}

void add_exit_drain(void* owner, ExitDrain drain) {
  Gate& g = gate();
  std::lock_guard<std::mutex> lock(g.draining);
  g.drains.emplace_back(owner, drain);
}

void remove_exit_drain(void* owner) noexcept {
  Gate& g = gate();
  std::lock_guard<std::mutex> lock(g.draining);
  std::erase_if(g.drains, [owner](const auto& d) { return d.first == owner; });
}

std::uint64_t exit_handler_registrations() noexcept {
  return gate().registrations.load(std::memory_order_relaxed);
}

void note_new_owner() noexcept { gate().owners.fetch_add(1, std::memory_order_acq_rel); }

}  // namespace spvjit::detail
