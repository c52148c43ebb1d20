// Buffer transfers. All blocking: a returned write may be reused, a returned read is complete.
// On an adaptive runtime they go to the queue used last (both devices share the memory), so a
// transfer between two small launches does not switch devices and wait twice.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "common/exit_gate.hpp"
#include "runtime/core.hpp"
#include "runtime/released_memory.hpp"
#include "spvjit/view.hpp"

namespace spvjit::detail {

_cl_mem* buffer_create(RuntimeCore& core, std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(core.context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check_cl(err, "clCreateBuffer", std::to_string(bytes) + " bytes");
  return mem;
}

void buffer_release(_cl_mem* mem) noexcept {
  if (!mem) return;
  note_memory_released();
  clReleaseMemObject(mem);
}

void buffer_retain(_cl_mem* mem) noexcept {
  if (mem) clRetainMemObject(mem);
}

_cl_mem* buffer_sub_create(_cl_mem* parent, std::size_t offset, std::size_t bytes) {
  const cl_buffer_region region{offset, bytes};
  cl_int err = CL_SUCCESS;
  cl_mem mem =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  check_cl(err, "clCreateSubBuffer",
           std::to_string(bytes) + " bytes at offset " + std::to_string(offset));
  return mem;
}

std::size_t sub_buffer_alignment(const RuntimeCore& core) noexcept {
  std::size_t align = std::max<std::size_t>(core.info.base_address_alignment, 1);
  if (core.adaptive) align = std::max(align, core.inline_info.base_address_alignment);
  return align;
}

namespace {

// One transfer's queue and its order (RuntimeCore::enter), held until the command is enqueued,
// inside a WorkScope made first: exit() waits for the transfer (common/exit_gate.hpp).
struct Transfer {
  explicit Transfer(RuntimeCore& core) : queue(core.transfer_queue()), order(core.enter(queue)) {}
  WorkScope scope;
  cl_command_queue queue;
  std::unique_lock<std::mutex> order;
};

}  // namespace

void buffer_write(RuntimeCore& core, _cl_mem* mem, std::size_t offset, std::size_t bytes,
                  const void* src) {
  if (bytes == 0) return;
  const Transfer t(core);
  check_cl(clEnqueueWriteBuffer(t.queue, mem, CL_TRUE, offset, bytes, src, 0, nullptr, nullptr),
           "clEnqueueWriteBuffer");
}

void buffer_read(RuntimeCore& core, _cl_mem* mem, std::size_t offset, std::size_t bytes,
                 void* dst) {
  if (bytes == 0) return;
  const Transfer t(core);
  check_cl(clEnqueueReadBuffer(t.queue, mem, CL_TRUE, offset, bytes, dst, 0, nullptr, nullptr),
           "clEnqueueReadBuffer");
}

void buffer_fill_zero(RuntimeCore& core, _cl_mem* mem, std::size_t bytes) {
  if (bytes == 0) return;
  const Transfer t(core);
  const cl_uchar zero = 0;
  check_cl(clEnqueueFillBuffer(t.queue, mem, &zero, 1, 0, bytes, 0, nullptr, nullptr),
           "clEnqueueFillBuffer");
  check_cl(clFinish(t.queue), "clFinish");
}

void buffer_fill(RuntimeCore& core, _cl_mem* mem, std::size_t offset, std::size_t bytes,
                 const void* pattern, std::size_t pattern_bytes) {
  if (bytes == 0) return;
  // OpenCL fills with patterns of 1 to 128 bytes, powers of two; a struct of another size is
  // written from a host copy.
  if (pattern_bytes > 128 || (pattern_bytes & (pattern_bytes - 1)) != 0) {
    std::vector<unsigned char> copies(bytes);
    for (std::size_t at = 0; at < bytes; at += pattern_bytes) {
      std::memcpy(copies.data() + at, pattern, pattern_bytes);
    }
    buffer_write(core, mem, offset, bytes, copies.data());
    return;
  }
  const Transfer t(core);
  check_cl(
      clEnqueueFillBuffer(t.queue, mem, pattern, pattern_bytes, offset, bytes, 0, nullptr, nullptr),
      "clEnqueueFillBuffer");
  check_cl(clFinish(t.queue), "clFinish");
}

void buffer_copy(RuntimeCore& core, _cl_mem* from, _cl_mem* to, std::size_t bytes) {
  buffer_copy_region(core, from, 0, to, 0, bytes);
}

void buffer_copy_region(RuntimeCore& core, _cl_mem* from, std::size_t from_offset, _cl_mem* to,
                        std::size_t to_offset, std::size_t bytes) {
  if (bytes == 0) return;
  const Transfer t(core);
  check_cl(
      clEnqueueCopyBuffer(t.queue, from, to, from_offset, to_offset, bytes, 0, nullptr, nullptr),
      "clEnqueueCopyBuffer");
  check_cl(clFinish(t.queue), "clFinish");
}

}  // namespace spvjit::detail
