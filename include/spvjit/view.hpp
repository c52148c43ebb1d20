// Views into buffers, and KernelAbstractions-style copies (`copyto!`) between host memory,
// buffers and views. A view is a window of `size()` elements starting `offset()` elements into
// a buffer; kernels see it as a buffer that starts there (an OpenCL sub-buffer).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "spvjit/runtime.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
_cl_mem* buffer_sub_create(_cl_mem* parent, std::size_t offset, std::size_t bytes);
void buffer_copy_region(RuntimeCore& core, _cl_mem* from, std::size_t from_offset, _cl_mem* to,
                        std::size_t to_offset, std::size_t bytes);
/// CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: a sub-buffer's origin must be a multiple of it.
std::size_t sub_buffer_alignment(const RuntimeCore& core) noexcept;
}  // namespace detail

/// Elements [offset, offset + size) of a Buffer. Copyable; keeps the buffer's memory alive. The
/// offset in bytes must be a multiple of the device's base address alignment (128 bytes on
/// PoCL: 16 doubles, 32 floats, 64 halves), an OpenCL rule for sub-buffers.
template <KernelElement T>
class BufferView {
 public:
  using value_type = T;
  BufferView() = default;
  BufferView(const Buffer<T>& buffer, std::size_t offset, std::size_t size)
      : parent_(buffer.handle()), offset_(offset), size_(size) {
    if (!buffer.valid()) detail::throw_user_error("view", "the buffer is empty (moved from?)");
    if (offset > buffer.size() || size > buffer.size() - offset) {
      detail::throw_user_error("view", "elements [" + std::to_string(offset) + ", " +
                                           std::to_string(offset) + "+" + std::to_string(size) +
                                           ") are outside the buffer of " +
                                           std::to_string(buffer.size()) + " elements");
    }
    const std::shared_ptr<detail::RuntimeCore>& core = buffer.mem_.core();
    const std::size_t align = detail::sub_buffer_alignment(*core);
    if ((offset * sizeof(T)) % align != 0) {
      detail::throw_user_error(
          "view", "offset " + std::to_string(offset) + " (" + std::to_string(offset * sizeof(T)) +
                      " bytes) is not a multiple of the device's base address alignment of " +
                      std::to_string(align) + " bytes (" + std::to_string(align / sizeof(T)) +
                      " elements)");
    }
    // OpenCL rejects empty sub-buffers; an empty view passes none
    mem_ = detail::Owned<detail::MemObject>(
        core,
        size ? detail::buffer_sub_create(parent_, offset * sizeof(T), size * sizeof(T)) : nullptr);
  }

  std::size_t size() const noexcept { return size_; }
  std::size_t offset() const noexcept { return offset_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  /// The sub-buffer kernels receive (null for an empty view).
  _cl_mem* handle() const noexcept { return mem_.get(); }

  void write(std::span<const T> data) {
    check_size("write", data.size());
    detail::buffer_write(core(), parent_, offset_ * sizeof(T), bytes(), data.data());
  }
  void read(std::span<T> out) const {
    check_size("read", out.size());
    detail::buffer_read(core(), parent_, offset_ * sizeof(T), bytes(), out.data());
  }
  std::vector<T> to_vector() const {
    return detail::read_into_vector<T>(size_, [this](std::span<T> out) { read(out); });
  }
  void write(const std::vector<bool>& data) requires std::is_same_v<T, bool> {
    write(std::span<const bool>(detail::bool_bytes(data).get(), data.size()));
  }
  /// Sets every element of the view to `value`, on the device (blocking).
  void fill(const T& value) {
    check_size("fill", size_);
    detail::buffer_fill(core(), parent_, offset_ * sizeof(T), bytes(), &value, sizeof(T));
  }

  // The parent's memory and the byte offset into it: what transfers use.
  _cl_mem* parent() const noexcept { return parent_; }
  std::size_t byte_offset() const noexcept { return offset_ * sizeof(T); }
  detail::RuntimeCore& core() const { return *mem_.core(); }

 private:
  void check_size(const char* what, std::size_t given) const {
    if (!parent_) detail::throw_user_error(std::string("BufferView::") + what, "the view is empty");
    if (given != size_) {
      detail::throw_user_error(std::string("BufferView::") + what,
                               "size mismatch: view holds " + std::to_string(size_) +
                                   " elements, host side has " + std::to_string(given));
    }
  }

  detail::Owned<detail::MemObject> mem_;  ///< the sub-buffer, and the Runtime of the buffer
  _cl_mem* parent_ = nullptr;
  std::size_t offset_ = 0;
  std::size_t size_ = 0;
};

/// Elements [offset, offset + size) of `buffer` (KernelAbstractions: `view(A, range)`).
template <KernelElement T>
BufferView<T> view(const Buffer<T>& buffer, std::size_t offset, std::size_t size) {
  return BufferView<T>(buffer, offset, size);
}

/// The whole buffer as a view.
template <KernelElement T>
BufferView<T> view(const Buffer<T>& buffer) {
  return BufferView<T>(buffer, 0, buffer.size());
}

// copyto(dst, src), after KernelAbstractions' copyto!: sizes must match; blocking. Host sides
// are spans (a std::vector converts); views are taken by value, like the handles they are.
template <KernelElement T>
void copyto(BufferView<T> dst, const BufferView<T>& src) {
  if (dst.size() != src.size()) {
    detail::throw_user_error("copyto", "size mismatch: destination holds " +
                                           std::to_string(dst.size()) + " elements, source " +
                                           std::to_string(src.size()));
  }
  detail::buffer_copy_region(src.core(), src.parent(), src.byte_offset(), dst.parent(),
                             dst.byte_offset(), src.bytes());
}
template <KernelElement T>
void copyto(Buffer<T>& dst, const Buffer<T>& src) {
  copyto(view(dst), view(src));
}
template <KernelElement T>
void copyto(Buffer<T>& dst, const BufferView<T>& src) {
  copyto(view(dst), src);
}
template <KernelElement T>
void copyto(BufferView<T> dst, const Buffer<T>& src) {
  copyto(dst, view(src));
}
template <KernelElement T>
void copyto(Buffer<T>& dst, std::type_identity_t<std::span<const T>> src) {
  dst.write(src);
}
template <KernelElement T>
void copyto(BufferView<T> dst, std::type_identity_t<std::span<const T>> src) {
  dst.write(src);
}
template <KernelElement T>
void copyto(std::type_identity_t<std::span<T>> dst, const Buffer<T>& src) {
  src.read(dst);
}
template <KernelElement T>
void copyto(std::type_identity_t<std::span<T>> dst, const BufferView<T>& src) {
  src.read(dst);
}

}  // namespace spvjit

SPVJIT_API_END
