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
  T* data() const noexcept { return static_cast<T*>(block_.get()); }
  std::size_t size() const noexcept { return block_.count(); }
  bool valid() const noexcept { return data() != nullptr; }
  T& operator[](std::size_t i) const noexcept { return data()[i]; }
  std::span<T> span() const noexcept { return {data(), size()}; }
  T* begin() const noexcept { return data(); }
  T* end() const noexcept { return data() + size(); }
  /// The Runtime (context) the memory was allocated in; launches check it matches theirs.
  const detail::RuntimeCore* owner() const noexcept { return block_.core().get(); }

  /// Elements [offset, offset + count): any offset (kernels get a pointer into the array).
  SharedSpan<T> view(std::size_t offset, std::size_t count) const {
    if (offset > size() || count > size() - offset) {
      detail::throw_user_error("SharedArray::view", "elements [" + std::to_string(offset) + ", " +
                                                        std::to_string(offset) + "+" +
                                                        std::to_string(count) +
                                                        ") are outside the array of " +
                                                        std::to_string(size()) + " elements");
    }
    return SharedSpan<T>(data() + offset, count, owner());
  }
  operator SharedSpan<T>() const noexcept { return SharedSpan<T>(data(), size(), owner()); }

 private:
  template <KernelElement U>
  friend SharedArray<U> allocate_shared(Runtime& rt, std::size_t size);
  SharedArray(const std::shared_ptr<detail::RuntimeCore>& core, std::size_t size)
      : block_(core, detail::svm_allocate(detail::live_core(core), (size ? size : 1) * sizeof(T)),
               size) {}

  detail::Owned<detail::SvmBlock> block_;
};

/// Uninitialized shared memory of `size` elements on `rt`'s context.
template <KernelElement T>
[[nodiscard]] SharedArray<T> allocate_shared(Runtime& rt, std::size_t size) {
  return SharedArray<T>(detail::shared_core_of(rt), size);
}

/// Zero-filled shared memory.
template <KernelElement T>
[[nodiscard]] SharedArray<T> zeros_shared(Runtime& rt, std::size_t size) {
  SharedArray<T> a = allocate_shared<T>(rt, size);
  for (auto& v : a) v = T{};
  return a;
}

}  // namespace spvjit

SPVJIT_API_END
