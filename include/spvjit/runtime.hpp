// The OpenCL side of spvjit: device selection, context and queue, buffers. Includes no OpenCL
// header: handles are forward-declared, so embedding applications need none either.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "spvjit/error.hpp"
#include "spvjit/types.hpp"

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
  unsigned compute_units = 0;
  bool fp64 = false;
  bool fp16 = false;
  bool cpu = false;  ///< CL_DEVICE_TYPE_CPU: kernels are coarsened (JitOptions::coarsen)
  /// CL_DEVICE_PREFERRED_VECTOR_WIDTH_ for char, short, int, long, float, double (0: none).
  std::array<unsigned, 6> preferred_vector_width{1, 1, 1, 1, 1, 1};

  bool accepts_spirv() const { return il_version.find("SPIR-V") != std::string::npos; }
  /// One line: "<platform> / <device> (IL: <il or none>)".
  std::string summary() const;
};

struct RuntimeOptions {
  /// Choose the first SPIR-V device whose name contains this text (empty: the first one).
  /// The environment variable SPVJIT_DEVICE overrides an empty value.
  std::string device_name_contains;
};

namespace detail {
class RuntimeCore;
void buffer_write(RuntimeCore& core, _cl_mem* mem, std::size_t offset, std::size_t bytes,
                  const void* src);
void buffer_read(RuntimeCore& core, _cl_mem* mem, std::size_t offset, std::size_t bytes,
                 void* dst);
void buffer_fill_zero(RuntimeCore& core, _cl_mem* mem, std::size_t bytes);
void buffer_copy(RuntimeCore& core, _cl_mem* from, _cl_mem* to, std::size_t bytes);
_cl_mem* buffer_create(RuntimeCore& core, std::size_t bytes);
void buffer_release(_cl_mem* mem) noexcept;
}  // namespace detail

/// A device buffer of `size()` elements of T (T = half for Float16 storage). Move-only; frees
/// its memory when destroyed. Transfers are blocking.
template <KernelScalar T>
class Buffer {
 public:
  using value_type = T;
  Buffer() = default;
  Buffer(std::shared_ptr<detail::RuntimeCore> core, std::size_t size)
      : core_(std::move(core)), mem_(detail::buffer_create(*core_, bytes_for(size))), size_(size) {}
  ~Buffer() { detail::buffer_release(mem_); }
  Buffer(Buffer&& o) noexcept : core_(std::move(o.core_)), mem_(o.mem_), size_(o.size_) {
    o.mem_ = nullptr;
    o.size_ = 0;
  }
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      detail::buffer_release(mem_);
      core_ = std::move(o.core_);
      mem_ = o.mem_;
      size_ = o.size_;
      o.mem_ = nullptr;
      o.size_ = 0;
    }
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool valid() const noexcept { return mem_ != nullptr; }
  _cl_mem* handle() const noexcept { return mem_; }

  /// Copies host data in; `data.size()` must equal `size()`.
  void write(std::span<const T> data) {
    check_size("write", data.size());
    detail::buffer_write(*core_, mem_, 0, bytes(), data.data());
  }
  /// Copies the buffer out; `out.size()` must equal `size()`.
  void read(std::span<T> out) const {
    check_size("read", out.size());
    detail::buffer_read(*core_, mem_, 0, bytes(), out.data());
  }
  std::vector<T> to_vector() const {
    std::vector<T> out(size_);
    read(out);
    return out;
  }
  /// Copies this buffer's contents into `dst` (same size) on the device.
  void copy_to(Buffer& dst) const {
    dst.check_size("copy_to", size_);
    detail::buffer_copy(*core_, mem_, dst.mem_, bytes());
  }

 private:
  static std::size_t bytes_for(std::size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw UserError("Buffer: size overflows size_t");
    return (n == 0 ? 1 : n) * sizeof(T);  // OpenCL rejects zero-byte buffers
  }
  void check_size(const char* what, std::size_t given) const {
    if (!mem_) throw UserError(std::string("Buffer::") + what + ": buffer is empty (moved from?)");
    if (given != size_) {
      throw UserError(std::string("Buffer::") + what + ": size mismatch: buffer holds " +
                      std::to_string(size_) + " elements, host side has " +
                      std::to_string(given));
    }
  }

  std::shared_ptr<detail::RuntimeCore> core_;
  _cl_mem* mem_ = nullptr;
  std::size_t size_ = 0;
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

  const DeviceInfo& device() const;

  template <KernelScalar T>
  [[nodiscard]] Buffer<T> allocate(std::size_t size) {
    return Buffer<T>(core_, size);
  }
  template <KernelScalar T>
  [[nodiscard]] Buffer<T> zeros(std::size_t size) {
    Buffer<T> b(core_, size);
    detail::buffer_fill_zero(*core_, b.handle(), b.bytes());
    return b;
  }
  template <KernelScalar T>
  [[nodiscard]] Buffer<T> upload(std::span<const T> data) {
    Buffer<T> b(core_, data.size());
    if (!data.empty()) b.write(data);
    return b;
  }
  template <KernelScalar T>
  [[nodiscard]] Buffer<T> upload(const std::vector<T>& data) {
    return upload(std::span<const T>(data));
  }

  /// Waits until every command queued so far has finished.
  void synchronize();

  detail::RuntimeCore& core() const { return *core_; }
  const std::shared_ptr<detail::RuntimeCore>& shared_core() const { return core_; }

 private:
  std::shared_ptr<detail::RuntimeCore> core_;
};

}  // namespace spvjit
