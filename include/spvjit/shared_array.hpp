// SharedArray: memory the host and the kernels both address directly (OpenCL fine-grained
// buffer SVM; on PoCL's CPU devices, plain host memory). No transfers: write through data() or
// operator[], launch, synchronize, read. SharedSpan is a window into one, at any offset.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "spvjit/runtime.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
void* svm_allocate(RuntimeCore& core, std::size_t bytes);
/// Waits for every queued command, then frees: a kernel may still be using the memory.
void svm_free(RuntimeCore& core, void* ptr) noexcept;
}  // namespace detail

template <KernelElement T>
class SharedArray;

/// `size()` elements at `data()`, inside a SharedArray (made by SharedArray::view or the
/// conversion from a SharedArray, so that a launch can tell whose memory it is).
template <KernelElement T>
class SharedSpan {
 public:
  using value_type = T;
  SharedSpan() = default;
  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  T& operator[](std::size_t i) const noexcept { return data_[i]; }
  std::span<T> span() const noexcept { return {data_, size_}; }
  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + size_; }
  /// The Runtime (context) of the SharedArray this is a window into; launches check it.
  const detail::RuntimeCore* owner() const noexcept { return owner_; }

 private:
  friend class SharedArray<T>;
  SharedSpan(T* data, std::size_t size, const detail::RuntimeCore* owner)
      : data_(data), size_(size), owner_(owner) {}

  T* data_ = nullptr;
  std::size_t size_ = 0;
  const detail::RuntimeCore* owner_ = nullptr;
};

/// Fine-grained shared virtual memory of `size()` elements. Move-only. Host accesses are
/// coherent with kernels at Runtime::synchronize(); the destructor waits for queued work.
template <KernelElement T>
class SharedArray {
 public:
  using value_type = T;
  SharedArray() = default;
  SharedArray(std::shared_ptr<detail::RuntimeCore> core, std::size_t size)
      : core_(std::move(core)),
        data_(static_cast<T*>(detail::svm_allocate(*core_, (size ? size : 1) * sizeof(T)))),
        size_(size) {}
  ~SharedArray() {
    if (data_) detail::svm_free(*core_, data_);
  }
  SharedArray(SharedArray&& o) noexcept
      : core_(std::move(o.core_)), data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)) {}
  SharedArray& operator=(SharedArray&& o) noexcept {
    if (this != &o) {
      if (data_) detail::svm_free(*core_, data_);
      core_ = std::move(o.core_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  SharedArray(const SharedArray&) = delete;
  SharedArray& operator=(const SharedArray&) = delete;

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool valid() const noexcept { return data_ != nullptr; }
  T& operator[](std::size_t i) const noexcept { return data_[i]; }
  std::span<T> span() const noexcept { return {data_, size_}; }
  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + size_; }
  /// The Runtime (context) the memory was allocated in; launches check it matches theirs.
  const detail::RuntimeCore* owner() const noexcept { return core_.get(); }

  /// Elements [offset, offset + count): any offset (kernels get a pointer into the array).
  SharedSpan<T> view(std::size_t offset, std::size_t count) const {
    if (offset > size_ || count > size_ - offset) {
      throw UserError("SharedArray::view: elements [" + std::to_string(offset) + ", " +
                      std::to_string(offset) + "+" + std::to_string(count) +
                      ") are outside the array of " + std::to_string(size_) + " elements");
    }
    return SharedSpan<T>(data_ + offset, count, core_.get());
  }
  operator SharedSpan<T>() const noexcept { return SharedSpan<T>(data_, size_, core_.get()); }

 private:
  std::shared_ptr<detail::RuntimeCore> core_;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Uninitialized shared memory of `size` elements on `rt`'s context.
template <KernelElement T>
[[nodiscard]] SharedArray<T> allocate_shared(Runtime& rt, std::size_t size) {
  return SharedArray<T>(rt.shared_core(), size);
}

/// Zero-filled shared memory.
template <KernelElement T>
[[nodiscard]] SharedArray<T> zeros_shared(Runtime& rt, std::size_t size) {
  SharedArray<T> a(rt.shared_core(), size);
  for (auto& v : a) v = T{};
  return a;
}

}  // namespace spvjit

SPVJIT_API_END
