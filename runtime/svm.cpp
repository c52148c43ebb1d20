// Fine-grained buffer SVM for SharedArray. PoCL's CPU devices report coarse, fine-grained
// buffer and fine-grained system sharing; spvjit asks for fine-grained buffers, so host accesses
// need no map/unmap.
#include "common/error_report.hpp"
#include "runtime/core.hpp"
#include "runtime/launch_state.hpp"
#include "runtime/released_memory.hpp"
#include "spvjit/shared_array.hpp"

namespace spvjit::detail {

namespace {

bool has_svm(cl_device_id device, cl_device_svm_capabilities wanted) {
  cl_device_svm_capabilities caps = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps), &caps, nullptr) !=
      CL_SUCCESS) {
    return false;
  }
  return (caps & wanted) != 0;
}

bool fine_grained(cl_device_id device) { return has_svm(device, CL_DEVICE_SVM_FINE_GRAIN_BUFFER); }

}  // namespace

bool fine_grained_svm(const RuntimeCore& core) {
  for (cl_device_id d : core.devices()) {
    if (!fine_grained(d)) return false;
  }
  return true;
}

bool fine_grained_system_svm(const RuntimeCore& core) {
  for (cl_device_id d : core.devices()) {
    if (!has_svm(d, CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)) return false;
  }
  return true;
}

void allow_struct_pointers(const RuntimeCore& core, cl_kernel kernel,
                           const std::string& kernel_name, const std::vector<Param>& params) {
  std::string member;
  for (const Param& p : params) {
    if (p.struct_layout) member = p.struct_layout->first_pointer_member();
    if (!member.empty()) break;
  }
  if (member.empty()) return;
  if (fine_grained_system_svm(core)) {
    const cl_bool allowed = CL_TRUE;
    const cl_int err = clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                           sizeof(allowed), &allowed);
    check_cl(err, "clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM)",
             "kernel '" + kernel_name + "'");
    return;
  }
  for (cl_device_id d : core.devices()) {
    if (!has_svm(d, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) {
      user_error({"compile", kernel_name})
          << "struct member " << member << " is a pointer, but device '" << core.info.name
          << "' has no shared virtual memory (CL_DEVICE_SVM_CAPABILITIES) to dereference it; "
             "pass the data as a Buffer parameter instead";
    }
  }
  // Buffer SVM only: the pointers must point into SharedArrays (documented in structs.hpp).
}

void* svm_allocate(RuntimeCore& core, std::size_t bytes) {
  for (cl_device_id d : core.devices()) {
    user_assert(fine_grained(d), {"SharedArray"})
        << "device '" << core.info.name
        << "' has no fine-grained buffer SVM (CL_DEVICE_SVM_FINE_GRAIN_BUFFER); use Buffer<T> "
           "instead";
  }
  void* p =
      clSVMAlloc(core.context.get(), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, bytes, 0);
  if (!p) {
    throw OpenCLError("clSVMAlloc", CL_MEM_OBJECT_ALLOCATION_FAILURE,
                      std::to_string(bytes) + " bytes of fine-grained SVM");
  }
  return p;
}

void svm_free(RuntimeCore& core, void* ptr) noexcept {
  try {
    core.finish();
  } catch (...) {
    // A failed clFinish leaves nothing better to do than free: the queue is broken anyway.
  }
  note_memory_released();
  clSVMFree(core.context.get(), ptr);
}

}  // namespace spvjit::detail
