// Buffer transfers. All blocking: a returned write may be reused, a returned read is complete.
// They go to the main queue, through RuntimeCore::enter, so that on an adaptive runtime they
// wait for launches still running on the other device.
#include "runtime/core.hpp"

namespace spvjit::detail {

_cl_mem* buffer_create(RuntimeCore& core, std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(core.context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check_cl(err, "clCreateBuffer", std::to_string(bytes) + " bytes");
  return mem;
}

void buffer_release(_cl_mem* mem) noexcept {
  if (mem) clReleaseMemObject(mem);
}

void buffer_write(RuntimeCore& core, _cl_mem* mem, std::size_t offset, std::size_t bytes,
                  const void* src) {
  if (bytes == 0) return;
  const auto lock = core.enter(core.queue.get());
  check_cl(clEnqueueWriteBuffer(core.queue.get(), mem, CL_TRUE, offset, bytes, src, 0, nullptr,
                                nullptr),
           "clEnqueueWriteBuffer");
}

void buffer_read(RuntimeCore& core, _cl_mem* mem, std::size_t offset, std::size_t bytes,
                 void* dst) {
  if (bytes == 0) return;
  const auto lock = core.enter(core.queue.get());
  check_cl(clEnqueueReadBuffer(core.queue.get(), mem, CL_TRUE, offset, bytes, dst, 0, nullptr,
                               nullptr),
           "clEnqueueReadBuffer");
}

void buffer_fill_zero(RuntimeCore& core, _cl_mem* mem, std::size_t bytes) {
  if (bytes == 0) return;
  const auto lock = core.enter(core.queue.get());
  const cl_uchar zero = 0;
  check_cl(clEnqueueFillBuffer(core.queue.get(), mem, &zero, 1, 0, bytes, 0, nullptr, nullptr),
           "clEnqueueFillBuffer");
  check_cl(clFinish(core.queue.get()), "clFinish");
}

void buffer_copy(RuntimeCore& core, _cl_mem* from, _cl_mem* to, std::size_t bytes) {
  if (bytes == 0) return;
  const auto lock = core.enter(core.queue.get());
  check_cl(clEnqueueCopyBuffer(core.queue.get(), from, to, 0, 0, bytes, 0, nullptr, nullptr),
           "clEnqueueCopyBuffer");
  check_cl(clFinish(core.queue.get()), "clFinish");
}

}  // namespace spvjit::detail
