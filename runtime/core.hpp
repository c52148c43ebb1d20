// RuntimeCore: the OpenCL objects behind a Runtime (devices, context, queues) and the device facts
// queried once at start. Shared by Runtime, buffers and kernels; private to runtime/ and jit/.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/bounds_records.hpp"
#include "runtime/cl_handle.hpp"
#include "runtime/inline_pool.hpp"
#include "runtime/kernel_runner.hpp"
#include "spvjit/runtime.hpp"

namespace spvjit::detail {

/// How long an inline worker spins for the next launch before it blocks: launches in a loop
/// find it awake, an idle program stops spending a core within this time.
/// SPVJIT_INLINE_SPIN_US replaces it (0: block at once; a woken worker joins a launch late).
inline constexpr std::chrono::microseconds inline_spin{200};

class RuntimeCore {
 public:
  explicit RuntimeCore(const RuntimeOptions& options);
  ~RuntimeCore();
  RuntimeCore(const RuntimeCore&) = delete;
  RuntimeCore& operator=(const RuntimeCore&) = delete;

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;  ///< the main device (with Dispatch::Adaptive: PoCL's pthread)
  DeviceInfo info;
  ClHandle<cl_context> context;
  ClHandle<cl_command_queue> queue;

  // Dispatch::Adaptive only: PoCL's `basic` device, which runs a command in the thread that
  // waits for it, in the same context. Launches of at most `inline_threshold` work-items go here.
  bool adaptive = false;
  cl_device_id inline_device = nullptr;
  DeviceInfo inline_info;
  ClHandle<cl_command_queue> inline_queue;
  std::atomic<std::size_t> inline_threshold{0};

  /// Every device in the context: programs are built for all of them.
  std::vector<cl_device_id> devices() const;

  /// The queue for a launch of `items` work-items.
  cl_command_queue queue_for(std::size_t items) const noexcept {
    if (!adaptive) return queue.get();
    return items <= inline_threshold.load(std::memory_order_relaxed) ? inline_queue.get()
                                                                     : queue.get();
  }

  /// The queue for a transfer: any will do (the devices share memory), so the one used last.
  cl_command_queue transfer_queue() const noexcept {
    return adaptive ? last_queue_.load(std::memory_order_acquire) : queue.get();
  }

  /// Makes `q` the queue the next command goes to and returns the lock that keeps it so until
  /// the command is enqueued. The two queues of an adaptive runtime are in-order each but not
  /// with each other: on a switch the other queue is finished first, so commands still run in
  /// the order they were enqueued. A single-device runtime takes no lock.
  [[nodiscard]] std::unique_lock<std::mutex> enter(cl_command_queue q) {
    if (!adaptive) return {};
    return enter_adaptive(q);
  }

  /// clFinish on every queue that may hold work; nothing when every launch counted so far was
  /// waited for by an earlier finish() (an idle runtime's synchronize is then two atomic loads
  /// instead of a PoCL call: the algorithms synchronize before their host route).
  void finish();

  /// Counts a launch once its enqueue has returned (counted before, a finish() running
  /// meanwhile could mark it waited for without having waited). Transfers need no count: they
  /// are blocking or finish their queue themselves.
  void count_launch() noexcept { launches_.fetch_add(1, std::memory_order_release); }

  /// The slots checked kernels report bounds failures to (after the context, which frees them).
  BoundsRecords bounds_records{*this};

  /// Dispatch::Adaptive with more than one inline thread: runs launches above the threshold of
  /// kernels that allow it on `basic` from several threads (runtime/inline_pool.hpp). Declared
  /// last, so its threads stop before the queues and the context go.
  std::unique_ptr<InlinePool> inline_pool;
  /// Launches above this many work-items of kernels that allow it run split on inline_pool.
  std::atomic<std::size_t> split_threshold{SIZE_MAX};
  /// Launches that inline_pool ran split (for tests and SPVJIT_LOG).
  std::atomic<std::uint64_t> split_launches{0};
  /// The parts those launches were cut into (runtime/inline_pool.hpp's split_parts), for tests.
  std::atomic<std::uint64_t> split_parts{0};
  /// Dispatch::Adaptive unless SPVJIT_DIRECT_LAUNCH is off (issue #64): PoCL's kernel
  /// runner (runtime/kernel_runner.hpp), which launches on `basic` and the parts of split ones
  /// call instead of clEnqueueNDRangeKernel. Empty (`create` null) where PoCL lacks it: the
  /// launches enqueue as before.
  KernelRunnerApi kernel_runner;
  /// Launches (and split parts' launches) the kernel runner ran, for tests and SPVJIT_LOG.
  std::atomic<std::uint64_t> direct_launches{0};

 private:
  std::unique_lock<std::mutex> enter_adaptive(cl_command_queue q);

  std::mutex dispatch_mutex_;  ///< adaptive only: held from a switch through the enqueue
  // Written under dispatch_mutex_; read without it by finish(): only the queue used last can
  // hold work, since a switch finishes the other one first.
  std::atomic<cl_command_queue> last_queue_{nullptr};
  std::atomic<std::uint64_t> launches_{0};
  std::atomic<std::uint64_t> launches_finished_{0};  ///< launches_ as a finish() last saw it
};

/// The largest launches (in work-items) that PoCL's basic device alone runs faster than pthread
/// (`inline_items`) and than the inline threads splitting it (`split_items`; SIZE_MAX without
/// a pool), measured with a small kernel on an adaptive core.
struct Thresholds {
  std::size_t inline_items = 0;
  std::size_t split_items = SIZE_MAX;
};
Thresholds measure_thresholds(RuntimeCore& core);

/// Whether spvjit has made an OpenCL call in this process (Runtime, list_devices).
bool opencl_started() noexcept;
void mark_opencl_started() noexcept;

/// Every device of every platform, with the facts spvjit needs.
struct SeenDevice {
  cl_platform_id platform;
  cl_device_id device;
  DeviceInfo info;
};
std::vector<SeenDevice> enumerate_devices();

}  // namespace spvjit::detail
