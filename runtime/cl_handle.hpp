// One move-only RAII handle template for every OpenCL object type, plus the check that turns a
// failed cl* call into an OpenCLError naming the function. Private to runtime/ and jit/.
#pragma once

#include <CL/cl.h>

#include <utility>

#include "spvjit/error.hpp"

namespace spvjit::detail {

template <class T>
struct ClTraits;
template <>
struct ClTraits<cl_context> {
  static void release(cl_context h) { clReleaseContext(h); }
};
template <>
struct ClTraits<cl_command_queue> {
  static void release(cl_command_queue h) { clReleaseCommandQueue(h); }
};
template <>
struct ClTraits<cl_program> {
  static void release(cl_program h) { clReleaseProgram(h); }
};
template <>
struct ClTraits<cl_kernel> {
  static void release(cl_kernel h) { clReleaseKernel(h); }
};
template <>
struct ClTraits<cl_mem> {
  static void release(cl_mem h) { clReleaseMemObject(h); }
};
template <>
struct ClTraits<cl_event> {
  static void release(cl_event h) { clReleaseEvent(h); }
};

template <class T>
class ClHandle {
 public:
  ClHandle() = default;
  explicit ClHandle(T h) noexcept : h_(h) {}
  ~ClHandle() { reset(); }
  ClHandle(ClHandle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  ClHandle& operator=(ClHandle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  ClHandle(const ClHandle&) = delete;
  ClHandle& operator=(const ClHandle&) = delete;

  T get() const noexcept { return h_; }
  explicit operator bool() const noexcept { return h_ != nullptr; }
  [[nodiscard]] T release() noexcept { return std::exchange(h_, nullptr); }
  void reset() noexcept {
    if (h_) ClTraits<T>::release(h_);
    h_ = nullptr;
  }

 private:
  T h_ = nullptr;
};

/// Throws OpenCLError("<function> failed with CL_...") unless `code` is CL_SUCCESS.
inline void check_cl(cl_int code, const char* function, const std::string& context = {}) {
  if (code != CL_SUCCESS) throw OpenCLError(function, code, context);
}

}  // namespace spvjit::detail
