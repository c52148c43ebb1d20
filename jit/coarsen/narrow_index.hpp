// `const int i = get_global_id(0);` — an OpenCL C port's index (cast<int32_t>(global_index()) in
// the builder) — reaches memory as sext(trunc(gid)) (or its shift form, ashr(shl(gid, 32), 32);
// for an unsigned int, zext(trunc(gid)) or gid & 0xffffffff). The coarsening analysis takes it
// for "a value other than get_global_id(0)" and gives up. Below 2^31 work-items (2^32 for the
// unsigned forms) each of those is gid itself, so the coarsening rewrites them to gid and the
// launch then refuses a larger ndrange(0) by name (EntryLaunch::index_bits), instead of running
// the kernel's wrapped 32-bit index differently.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace llvm {
class Function;
class Use;
class Value;
}  // namespace llvm

namespace spvjit::detail {

/// The rewrite of one kernel, undone unless kept: a kernel that is not coarsened after all keeps
/// its own 32-bit index and takes any ndrange.
class WidenedIndex {
 public:
  WidenedIndex() = default;
  WidenedIndex(WidenedIndex&&) noexcept;
  WidenedIndex& operator=(WidenedIndex&&) = delete;
  WidenedIndex(const WidenedIndex&) = delete;
  ~WidenedIndex();

  /// 0: nothing rewritten; 31 or 32: get_global_id(0) must stay below 2^bits.
  unsigned bits() const noexcept { return bits_; }
  /// The rewrite stays (the kernel was coarsened with it).
  void keep() noexcept { undo_.clear(); }

 private:
  friend WidenedIndex widen_narrowed_global_ids(llvm::Function&, std::optional<std::uint64_t>);
  unsigned bits_ = 0;
  std::vector<std::pair<llvm::Use*, llvm::Value*>> undo_;  ///< each use and what it held
};

/// Rewrites every 32-bit narrowing of get_global_id(0) named above to get_global_id(0), unless
/// the static ndrange(0) (`static_extent0`) does not fit the narrowed type.
WidenedIndex widen_narrowed_global_ids(llvm::Function& kernel,
                                       std::optional<std::uint64_t> static_extent0);

}  // namespace spvjit::detail
