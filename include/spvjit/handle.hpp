// The one ownership rule behind the runtime's handles (Buffer, BufferView, SharedArray, Event):
// an OpenCL object or SVM block, the Runtime it came from and how many elements it holds,
// released exactly once. A move leaves the source empty (null, 0 elements); a copy, where the
// object can be retained (sub-buffers), shares it. Each handle class holds one of these and
// writes no move, copy or destructor of its own.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

struct _cl_mem;
struct _cl_event;

namespace spvjit::detail {

class RuntimeCore;

void buffer_release(_cl_mem* mem) noexcept;
void buffer_retain(_cl_mem* mem) noexcept;
/// Waits for every queued command, then frees: a kernel may still be using the memory.
void svm_free(RuntimeCore& core, void* ptr) noexcept;
void event_release(_cl_event* e) noexcept;

/// How each kind of object is let go (and, for retainable ones, shared).
struct MemObject {
  using pointer = _cl_mem*;
  static constexpr bool retainable = true;
  static void release(RuntimeCore*, pointer m) noexcept { buffer_release(m); }
  static void retain(pointer m) noexcept { buffer_retain(m); }
};
struct SvmBlock {
  using pointer = void*;
  static constexpr bool retainable = false;
  static void release(RuntimeCore* core, pointer p) noexcept { svm_free(*core, p); }
};
struct EventObject {
  using pointer = _cl_event*;
  static constexpr bool retainable = false;
  static void release(RuntimeCore*, pointer e) noexcept { event_release(e); }
};

template <class Kind>
class Owned {
 public:
  using pointer = typename Kind::pointer;

  Owned() = default;
  /// Takes `object` (may be null: nothing to release); `core` may be null for objects that need
  /// no Runtime to release (events of a launch without bounds checks).
  Owned(std::shared_ptr<RuntimeCore> core, pointer object, std::size_t count = 0) noexcept
      : core_(std::move(core)), object_(object), count_(count) {}
  ~Owned() { reset(); }

  Owned(Owned&& o) noexcept
      : core_(std::move(o.core_)),
        object_(std::exchange(o.object_, nullptr)),
        count_(std::exchange(o.count_, 0)) {}
  Owned& operator=(Owned&& o) noexcept {
    if (this != &o) {
      reset();
      core_ = std::move(o.core_);
      object_ = std::exchange(o.object_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  Owned(const Owned& o) noexcept requires Kind::retainable : core_(o.core_),
                                                             object_(o.object_),
                                                             count_(o.count_) {
    if (object_) Kind::retain(object_);
  }
  Owned& operator=(const Owned& o) noexcept requires Kind::retainable {
    Owned copy(o);
    return *this = std::move(copy);
  }

  pointer get() const noexcept { return object_; }
  std::size_t count() const noexcept { return count_; }
  const std::shared_ptr<RuntimeCore>& core() const noexcept { return core_; }

 private:
  void reset() noexcept {
    if (object_) Kind::release(core_.get(), object_);
    object_ = nullptr;
    count_ = 0;
  }

  std::shared_ptr<RuntimeCore> core_;
  pointer object_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace spvjit::detail

SPVJIT_API_END
