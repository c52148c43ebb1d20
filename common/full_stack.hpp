// Work that needs a full-sized thread stack, run on one when the calling thread's is smaller.
//
// Thread pools often give their threads 64-256 KiB. LLVM's passes (spvjit's compile, PoCL's
// work-group compile at a kernel's first launch) need more than that, and PoCL's `basic`
// device runs a whole work-group on the launching thread, its work-items' private arrays in
// context arrays on that thread's stack, sized by spvjit against glibc's default thread stack
// (common/group_stack.hpp). A call made on a thread whose stack is smaller than that default
// therefore runs on a helper thread that has it, while the caller waits: the same answer, a
// thread hand-off (tens of microseconds) slower. Threads with a default-sized stack or larger
// (the main thread, std::thread, PoCL's workers) run it directly: a thread-local read.
#pragma once

#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>

#include "common/exit_gate.hpp"

namespace spvjit::detail {

/// The calling thread's whole stack in bytes (pthread_getattr_np), read once per thread.
std::uint64_t this_thread_stack_bytes() noexcept;

/// True when the calling thread's stack is at least glibc's default thread stack.
bool this_thread_has_full_stack() noexcept;

/// Runs `job(context)` on the helper thread (started on first use, with a stack of
/// max(default, 8 MiB)) and waits for it; an exception it throws is rethrown here.
void run_on_full_stack_thread(void (*job)(void*), void* context);

/// `f()` here when this thread's stack is full-sized, else on the helper thread.
template <class F>
decltype(auto) with_full_stack(F&& f) {
  const WorkScope scope;  // the work it runs is spvjit's: exit() waits for it (exit_gate.hpp)
  if (this_thread_has_full_stack()) [[likely]]
    return std::forward<F>(f)();
  using R = decltype(std::forward<F>(f)());
  if constexpr (std::is_void_v<R>) {
    run_on_full_stack_thread([](void* p) { (*static_cast<std::remove_reference_t<F>*>(p))(); }, &f);
  } else {
    struct Call {
      std::remove_reference_t<F>* f;
      std::aligned_storage_t<sizeof(R), alignof(R)> storage;
      bool made = false;
      ~Call() {
        if (made) reinterpret_cast<R*>(&storage)->~R();
      }
    } call{&f, {}, false};
    run_on_full_stack_thread(
        [](void* p) {
          auto* c = static_cast<Call*>(p);
          ::new (&c->storage) R((*c->f)());
          c->made = true;
        },
        &call);
    return R(std::move(*reinterpret_cast<R*>(&call.storage)));
  }
}

}  // namespace spvjit::detail
