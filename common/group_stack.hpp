// The stack a work-group runs on. PoCL 6.0's CPU devices run each work-group on one thread and
// keep every work-item's private arrays and values live across barriers in context arrays on
// that thread's stack (lib/llvmopencl/WorkitemLoops.cc, getContextArray: allocas of
// workgroup-size elements in the work-group function's entry block). Too large a group
// overflows the stack: SIGSEGV, the host application gone. The JIT estimates the bytes per
// work-item (ir/analysis/group_stack.hpp); this decides how many work-items a group may have.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace spvjit::detail {

/// glibc's default thread stack (pthread_getattr_default_np): what threads created without
/// attributes get, PoCL's pthread workers (lib/CL/devices/pthread/pthread_scheduler.c passes
/// no attributes to pthread_create) and spvjit's inline workers alike. glibc takes it from
/// RLIMIT_STACK's soft limit when the process starts (8 MiB on Debian 12), 2 MiB on x86-64
/// when that is unlimited. PoCL's `basic` device runs a group in the launching thread instead,
/// which needs at least as much.
std::uint64_t default_thread_stack_bytes();

/// A kernel's work-items against the stack of the thread that runs its groups.
struct GroupStack {
  std::uint64_t per_item = 0;      ///< bytes each work-item keeps there (an upper bound)
  std::uint64_t thread_stack = 0;  ///< the thread's whole stack

  /// What a group may use: half the stack, the rest for the frames around the work-group
  /// function and the thread's static TLS (libLLVM's among it). Measured with PoCL 6.0, 2 KiB
  /// per work-item held across a barrier: an 8 MiB stack ran 3840 work-items and crashed at
  /// 4096; a 4 MiB one ran 1900 and crashed at 2048; 2 MiB ran 960 and crashed at 1024.
  std::uint64_t budget() const noexcept { return thread_stack / 2; }
  /// The most work-items per group that fit; at least 1, SIZE_MAX when nothing is kept.
  std::size_t max_items() const noexcept {
    if (per_item == 0) return SIZE_MAX;
    return static_cast<std::size_t>(std::max<std::uint64_t>(1, budget() / per_item));
  }
  bool fits(std::size_t items) const noexcept {
    return per_item == 0 || items <= budget() / per_item;
  }
  /// Why a group of `items` work-items (`group` says which: "static workgroup (4096,)") does
  /// not fit, and what to do instead, for a UserError.
  std::string refusal(const std::string& group, std::size_t items) const;
};

}  // namespace spvjit::detail
