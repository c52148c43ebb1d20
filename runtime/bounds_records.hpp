// Where checked kernels report a failed bounds check (common/bounds.hpp): one 128-byte slot per
// compiled kernel in fine-grained SVM, which the kernel writes and the host reads after a
// synchronize without a map. Kernels get a slot's address as a number, which fine-grained
// system sharing (CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) lets them dereference without the runtime
// naming it to OpenCL. A slot is taken when a LaunchState is made and given back when it
// goes; synchronize() and Event::wait() turn a filled slot into a BoundsError.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace spvjit::detail {

class RuntimeCore;
class LaunchState;

class BoundsRecords {
 public:
  explicit BoundsRecords(RuntimeCore& core) : core_(core) {}
  ~BoundsRecords();
  BoundsRecords(const BoundsRecords&) = delete;
  BoundsRecords& operator=(const BoundsRecords&) = delete;

  /// Whether the devices can hold records (fine-grained buffer and system SVM); without them
  /// the Jit builds kernels without checks.
  bool available() const;
  /// A zeroed slot for `owner`'s launches; null when unavailable.
  std::uint64_t* acquire(const LaunchState* owner);
  void release(std::uint64_t* slot) noexcept;
  /// After the queues are finished: throws BoundsError for a failure recorded since the last
  /// call, clearing every filled slot. Nothing to do (one atomic load) while no checked kernel
  /// exists.
  void throw_failures() {
    if (live_.load(std::memory_order_acquire) != 0) scan();
  }

 private:
  static constexpr unsigned slots_per_region = 256;
  struct Region {
    std::uint64_t* memory = nullptr;
    const LaunchState* owner[slots_per_region] = {};
    unsigned used = 0;  ///< slots handed out so far (the high-water mark)
  };
  void scan();

  RuntimeCore& core_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Region>> regions_;
  std::vector<std::uint64_t*> free_;
  std::atomic<unsigned> live_{0};
  /// -1: not asked yet. Atomic: Jits of one Runtime ask from their compiling threads.
  mutable std::atomic<int> available_{-1};
};

}  // namespace spvjit::detail
