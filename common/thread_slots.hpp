// Thread slots: a number of its own for each of the process's first `max_thread_slots` threads
// (claimed at its first call and kept for the process's life), and a full memory barrier run on
// every core running one of the process's threads (Linux membarrier). Together they let a hot
// path announce "this thread is inside" with a plain store into its own slot, no atomic
// read-modify-write and no fence, while the rare thread that must know who is inside (exit()'s
// gate, a cache freeing what lookups may still see) pays for the fence: it stores its own flag,
// calls fence_all_threads(), then reads the slots. A thread either stored "inside" before the
// barrier ran on its core (and is seen) or reads the flag after it (and sees it).
//
// Users keep arrays indexed by thread_slot(); a thread without a slot (-1: all taken, or a
// kernel without membarrier) counts itself with atomic read-modify-writes as before.
#pragma once

namespace spvjit::detail {

inline constexpr int max_thread_slots = 128;

namespace thread_slots_detail {
// -2: not claimed yet. Initial-exec and __thread (no dynamic initialization): one %fs-relative
// load from a shared library, not a __tls_get_addr call or a TLS wrapper.
extern __thread int slot __attribute__((tls_model("initial-exec")));
int claim() noexcept;
}  // namespace thread_slots_detail

/// This thread's slot, 0 to max_thread_slots - 1, or -1 when it has none.
inline int thread_slot() noexcept {
  const int s = thread_slots_detail::slot;
  return s != -2 ? s : thread_slots_detail::claim();
}

/// A full barrier on every core running a thread of this process. False when the kernel refused
/// it; slots are then no longer handed out, and a caller must not rely on stores in slots
/// being ordered.
bool fence_all_threads() noexcept;

}  // namespace spvjit::detail
