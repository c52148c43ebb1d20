// The OpenCL side of spvjit: device selection, context and queue, buffers. Includes no OpenCL
// header: handles are forward-declared, so embedding applications need none either.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "spvjit/error.hpp"
#include "spvjit/handle.hpp"
#include "spvjit/struct_layout.hpp"
#include "spvjit/types.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

struct _cl_mem;

namespace spvjit {

/// What spvjit learned about a device, queried once when the runtime starts.
struct DeviceInfo {
  std::string platform_name;
  std::string platform_version;
  std::string name;
  std::string version;
  std::string driver_version;
  std::string il_version;  ///< e.g. "SPIR-V_1.2"; empty if the device takes no IL
  std::string extensions;
  std::size_t max_workgroup_size = 0;
  std::array<std::size_t, 3> max_work_item_sizes{0, 0, 0};
  std::uint64_t local_mem_size = 0;
  std::uint64_t global_mem_size = 0;
  std::size_t base_address_alignment = 0;  ///< bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8)
  unsigned compute_units = 0;
  bool fp64 = false;
  bool fp16 = false;
  bool cpu = false;  ///< CL_DEVICE_TYPE_CPU: kernels are coarsened (JitOptions::coarsen)
  /// CL_FP_FMA in CL_DEVICE_SINGLE_FP_CONFIG / CL_DEVICE_DOUBLE_FP_CONFIG: hardware fused
  /// multiply-add, so llvm.fmuladd in a kernel is compiled fused (docs/runtime.md).
  bool fma_f32 = false;
  bool fma_f64 = false;
  /// CL_FP_DENORM: subnormal numbers are kept, not flushed to zero (OpenCL lets a device
  /// without it flush float subnormals; double's are required).
  bool denormals_f32 = false;
  bool denormals_f64 = false;
  /// CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT in CL_DEVICE_SINGLE_FP_CONFIG: float `/` and sqrt
  /// round correctly (without it OpenCL allows 2.5 ulp for `/` and 3 for sqrt; double's always
  /// round correctly).
  bool correctly_rounded_divide_sqrt_f32 = false;
  /// CL_DEVICE_PREFERRED_VECTOR_WIDTH_ for char, short, int, long, float, double (0: none).
  std::array<unsigned, 6> preferred_vector_width{1, 1, 1, 1, 1, 1};

  bool accepts_spirv() const { return il_version.find("SPIR-V") != std::string::npos; }
  /// One line: "<platform> / <device> (IL: <il or none>)".
  std::string summary() const;
};

/// How a Runtime spreads launches over devices.
enum class Dispatch : std::uint8_t {
  /// One device: the first that accepts SPIR-V (see RuntimeOptions::device_name_contains).
  Single,
  /// PoCL's `basic` device (runs a launch inline, in the thread that waits for it: ~0.6 us for
  /// 16 work-items) and its `pthread` device (worker threads: ~25-35 us, but parallel) in one
  /// context. Launches of at most `inline_threshold` work-items go to `basic`, the rest to
  /// `pthread`; buffers are shared. PoCL exposes `basic` only when POCL_DEVICES names it, and
  /// reads POCL_DEVICES once, at the first OpenCL call of the process: set
  /// POCL_DEVICES="basic pthread" before that. If it is unset when an adaptive Runtime starts
  /// and spvjit has made no OpenCL call yet (no Runtime, no list_devices), spvjit sets it; code
  /// outside spvjit must not have called OpenCL before either.
  Adaptive,
};

/// Designated initializers may name any subset: `{.dispatch = Dispatch::Adaptive}`.
struct RuntimeOptions {
  /// Choose the first SPIR-V device whose name contains this text (empty: the first one).
  /// The environment variable SPVJIT_DEVICE overrides an empty value. Dispatch::Single only.
  std::string device_name_contains = {};
  Dispatch dispatch = Dispatch::Single;
  /// Dispatch::Adaptive: launches of at most this many work-items (counted after rounding up
  /// to whole work-groups) run on `basic`. 0 forces every launch onto `pthread`, SIZE_MAX onto
  /// `basic`. Unset: SPVJIT_INLINE_THRESHOLD; unset too: measured when the first adaptive
  /// Runtime of the process starts (a Float64 scale kernel timed on both devices at 2^8 ...
  /// 2^20 work-items; 50-70 ms on 2 loaded cores).
  std::optional<std::size_t> inline_threshold = {};
  /// Dispatch::Adaptive: how many threads (the launching one included) run a launch above the
  /// threshold on `basic` together, each a part of its work-groups, instead of sending it to
  /// `pthread` (kernels that use atomics still go to `pthread`, and so do those that read
  /// group ids, the global size or offset unless PoCL's kernel runner runs the parts: see
  /// docs/runtime.md, "Direct launches"). 0 or 1: never split. Unset: SPVJIT_INLINE_THREADS; unset
  /// too: the hardware threads. The extra threads wait for work spinning 200 us after each launch
  /// (SPVJIT_INLINE_SPIN_US: another bound, 0 for none), then blocked.
  std::optional<unsigned> inline_threads = {};
  /// Dispatch::Adaptive with 2+ inline threads: launches above this many work-items (of
  /// kernels that allow it) run split over them, smaller ones on `basic` alone (never on
  /// `pthread`); inline_threshold then applies only to kernels that cannot be split. Unset:
  /// SPVJIT_SPLIT_THRESHOLD; unset too: measured with the inline threshold. Both thresholds
  /// count indices: a coarsened launch counts its work-items times the coarsening width.
  std::optional<std::size_t> split_threshold = {};
};

namespace detail {
class RuntimeCore;
void buffer_write(RuntimeCore& core, _cl_mem* mem, std::size_t offset, std::size_t bytes,
                  const void* src);
void buffer_read(RuntimeCore& core, _cl_mem* mem, std::size_t offset, std::size_t bytes, void* dst);
void buffer_fill_zero(RuntimeCore& core, _cl_mem* mem, std::size_t bytes);
/// `bytes` from `offset` on set to copies of `pattern` (both multiples of `pattern_bytes`).
void buffer_fill(RuntimeCore& core, _cl_mem* mem, std::size_t offset, std::size_t bytes,
                 const void* pattern, std::size_t pattern_bytes);

// std::vector<bool> packs its bits and has no data(): bool transfers go through a byte array.
template <class T, class Read>
std::vector<T> read_into_vector(std::size_t n, Read&& read) {
  if constexpr (std::is_same_v<T, bool>) {
    std::unique_ptr<bool[]> bytes(new bool[n]);
    read(std::span<bool>(bytes.get(), n));
    return std::vector<bool>(bytes.get(), bytes.get() + n);
  } else {
    std::vector<T> out(n);
    read(std::span<T>(out));
    return out;
  }
}
inline std::unique_ptr<bool[]> bool_bytes(const std::vector<bool>& data) {
  std::unique_ptr<bool[]> bytes(new bool[data.size()]);
  for (std::size_t i = 0; i < data.size(); ++i) bytes[i] = data[i];
  return bytes;
}
void buffer_copy(RuntimeCore& core, _cl_mem* from, _cl_mem* to, std::size_t bytes);
_cl_mem* buffer_create(RuntimeCore& core, std::size_t bytes);
/// The core of a live Runtime; throws UserError for a moved-from one (a null core).
RuntimeCore& live_core(const std::shared_ptr<RuntimeCore>& core);
}  // namespace detail

class Runtime;
namespace detail {
/// The core behind a Runtime (spvjit's own code: the Jit, the algorithms, shared arrays);
/// throws UserError for a moved-from Runtime.
RuntimeCore& core_of(const Runtime& rt);
const std::shared_ptr<RuntimeCore>& shared_core_of(const Runtime& rt);
}  // namespace detail

/// A device buffer of `size()` elements of T (T = half for Float16 storage, or a struct
/// described with SPVJIT_STRUCT), made by Runtime::allocate, zeros or upload. Move-only (a
/// moved-from buffer is empty); frees its memory when destroyed. Transfers are blocking.
template <KernelElement T>
class Buffer {
 public:
  using value_type = T;
  Buffer() = default;

  std::size_t size() const noexcept { return mem_.count(); }
  std::size_t bytes() const noexcept { return size() * sizeof(T); }
  bool valid() const noexcept { return mem_.get() != nullptr; }
  _cl_mem* handle() const noexcept { return mem_.get(); }
  /// The Runtime (context) the buffer was allocated in; launches check it matches theirs.
  const detail::RuntimeCore* owner() const noexcept { return mem_.core().get(); }

  /// Copies host data in; `data.size()` must equal `size()`.
  void write(std::span<const T> data) {
    check_size("write", data.size());
    detail::buffer_write(*mem_.core(), handle(), 0, bytes(), data.data());
  }
  /// Copies the buffer out; `out.size()` must equal `size()`.
  void read(std::span<T> out) const {
    check_size("read", out.size());
    detail::buffer_read(*mem_.core(), handle(), 0, bytes(), out.data());
  }
  /// A `std::vector<bool>` for a Buffer<bool>, as for every other T.
  std::vector<T> to_vector() const {
    return detail::read_into_vector<T>(size(), [this](std::span<T> out) { read(out); });
  }
  /// For Buffer<bool>: std::vector<bool> holds no array of bool to copy from.
  void write(const std::vector<bool>& data) requires std::is_same_v<T, bool> {
    write(std::span<const bool>(detail::bool_bytes(data).get(), data.size()));
  }
  /// Sets every element to `value`, on the device (blocking, like the other transfers).
  void fill(const T& value) {
    check_size("fill", size());
    detail::buffer_fill(*mem_.core(), handle(), 0, bytes(), &value, sizeof(T));
  }
  /// Copies this buffer's contents into `dst` (same size) on the device.
  void copy_to(Buffer& dst) const {
    dst.check_size("copy_to", size());
    check_size("copy_to", dst.size());
    if (dst.owner() != owner())
      detail::throw_user_error("Buffer::copy_to", "the buffers belong to different Runtimes");
    detail::buffer_copy(*mem_.core(), handle(), dst.handle(), bytes());
  }

 private:
  friend class Runtime;
  template <KernelElement>
  friend class BufferView;
  Buffer(std::shared_ptr<detail::RuntimeCore> core, std::size_t size)
      : mem_(core, detail::buffer_create(detail::live_core(core), bytes_for(size)), size) {}

  static std::size_t bytes_for(std::size_t n) {
    if (n > SIZE_MAX / sizeof(T)) detail::throw_user_error("Buffer", "size overflows size_t");
    return (n == 0 ? 1 : n) * sizeof(T);  // OpenCL rejects zero-byte buffers
  }
  void check_size(const char* what, std::size_t given) const {
    if (!valid())
      detail::throw_user_error(std::string("Buffer::") + what, "buffer is empty (moved from?)");
    if (given != size()) {
      detail::throw_user_error(std::string("Buffer::") + what,
                               "size mismatch: buffer holds " + std::to_string(size()) +
                                   " elements, host side has " + std::to_string(given));
    }
  }

  detail::Owned<detail::MemObject> mem_;
};

/// An OpenCL device that accepts SPIR-V, with its context and in-order queue.
class Runtime {
 public:
  /// Selects the first device whose CL_DEVICE_IL_VERSION names SPIR-V; throws
  /// DeviceNotFoundError listing every device seen when there is none.
  Runtime();
  explicit Runtime(const RuntimeOptions& options);
  ~Runtime();
  Runtime(Runtime&&) noexcept;
  Runtime& operator=(Runtime&&) noexcept;

  /// Every OpenCL device visible to the ICD loader (empty when there are no platforms).
  static std::vector<DeviceInfo> list_devices();

  /// The device launches go to (with Dispatch::Adaptive: the `pthread` one).
  const DeviceInfo& device() const;
  /// Dispatch::Adaptive: the `basic` device that runs small launches inline; else nullptr.
  const DeviceInfo* inline_device() const;
  Dispatch dispatch() const;
  /// Dispatch::Adaptive: launches of at most this many work-items run inline on `basic`.
  std::size_t inline_threshold() const;
  /// Dispatch::Adaptive: the threads that run a large launch on `basic` together (1: no
  /// splitting); 0 for Dispatch::Single.
  unsigned inline_threads() const;
  /// Launches above this many work-items run split over the inline threads when the kernel
  /// allows it, smaller ones on `basic`; SIZE_MAX: never split, every launch routed by the
  /// inline threshold alone. The setter has no effect with fewer than 2 inline threads.
  std::size_t split_threshold() const;
  void set_split_threshold(std::size_t work_items);
  /// Changes the threshold for launches enqueued after this call (any thread).
  void set_inline_threshold(std::size_t work_items);

  template <KernelElement T>
  [[nodiscard]] Buffer<T> allocate(std::size_t size) {
    return Buffer<T>(core_, size);
  }
  template <KernelElement T>
  [[nodiscard]] Buffer<T> zeros(std::size_t size) {
    Buffer<T> b(core_, size);
    detail::buffer_fill_zero(*core_, b.handle(), b.bytes());
    return b;
  }
  template <KernelElement T>
  [[nodiscard]] Buffer<T> upload(std::span<const T> data) {
    Buffer<T> b(core_, data.size());
    if (!data.empty()) b.write(data);
    return b;
  }
  template <KernelElement T>
  [[nodiscard]] Buffer<T> upload(const std::vector<T>& data) {
    if constexpr (std::is_same_v<T, bool>) {
      return upload(std::span<const bool>(detail::bool_bytes(data).get(), data.size()));
    } else {
      return upload(std::span<const T>(data));
    }
  }
  /// A buffer of `size` elements, each `value`.
  template <KernelElement T>
  [[nodiscard]] Buffer<T> filled(std::size_t size, const T& value) {
    Buffer<T> b(core_, size);
    b.fill(value);
    return b;
  }

  /// Waits until every command queued so far has finished (on every queue).
  void synchronize();

 private:
  friend detail::RuntimeCore& detail::core_of(const Runtime& rt);
  friend const std::shared_ptr<detail::RuntimeCore>& detail::shared_core_of(const Runtime& rt);

  std::shared_ptr<detail::RuntimeCore> core_;
};

namespace detail {
inline RuntimeCore& core_of(const Runtime& rt) { return live_core(rt.core_); }
inline const std::shared_ptr<RuntimeCore>& shared_core_of(const Runtime& rt) {
  live_core(rt.core_);
  return rt.core_;
}
}  // namespace detail

}  // namespace spvjit

SPVJIT_API_END
