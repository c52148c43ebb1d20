// The launch path: argument checks against the signature, geometry (KernelAbstractions'
// partition rules), clSetKernelArg from the caller's stack, one clEnqueueNDRangeKernel.
// Nothing here allocates unless it is about to throw.
#include <algorithm>

#include "runtime/launch_state.hpp"

namespace spvjit {

namespace detail {

std::string Extent3::to_string() const {
  std::string out = "(";
  for (unsigned d = 0; d < dims; ++d) out += (d ? "," : "") + std::to_string(size[d]);
  return out + (dims == 1 ? ",)" : ")");
}

LaunchState::LaunchState(std::shared_ptr<RuntimeCore> core_,
                         std::shared_ptr<ClHandle<cl_program>> program_, std::string name_,
                         std::vector<Param> params_, bool hidden_ndrange_, Specialization spec_)
    : core(std::move(core_)),
      program(std::move(program_)),
      name(std::move(name_)),
      params(std::move(params_)),
      hidden_ndrange(hidden_ndrange_),
      spec(std::move(spec_)) {
  cl_int err = CL_SUCCESS;
  kernel = ClHandle<cl_kernel>(clCreateKernel(program->get(), name.c_str(), &err));
  check_cl(err, "clCreateKernel", "kernel '" + name + "'");
  size_t wg = 0;
  check_cl(clGetKernelWorkGroupInfo(kernel.get(), core->device, CL_KERNEL_WORK_GROUP_SIZE,
                                    sizeof(wg), &wg, nullptr),
           "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
  max_workgroup = std::min(wg, core->info.max_workgroup_size);
  size_t multiple = 1;
  if (clGetKernelWorkGroupInfo(kernel.get(), core->device,
                               CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(multiple),
                               &multiple, nullptr) == CL_SUCCESS && multiple > 0) {
    preferred_multiple = multiple;
  }
  max_items = core->info.max_work_item_sizes;
  local_mem_size = core->info.local_mem_size;
  memo.resize(params.size() + (hidden_ndrange ? hidden_ndrange_params : 0));
}

namespace {

[[noreturn]] void bad_argument(const LaunchState& s, std::size_t i, const ArgView& given) {
  std::string got;
  switch (given.kind) {
    case ParamKind::Scalar: got = "a scalar " + std::string(name(given.type)); break;
    case ParamKind::Pointer: got = "Buffer<" + std::string(name(given.type)) + ">"; break;
    case ParamKind::LocalArray: got = "LocalMemory"; break;
  }
  throw UserError("launch of kernel '" + s.name + "': argument " + std::to_string(i) + " '" +
                  s.params[i].name + "': expected " + s.params[i].describe() + ", got " + got);
}

void check_argument(const LaunchState& s, std::size_t i, const ArgView& a) {
  const Param& p = s.params[i];
  if (a.kind != p.kind) bad_argument(s, i, a);
  if (!a.any_type && a.type != p.type) bad_argument(s, i, a);
  if (a.kind == ParamKind::Pointer && a.mem == nullptr) {
    throw UserError("launch of kernel '" + s.name + "': argument " + std::to_string(i) + " '" +
                    p.name + "': the buffer is empty (moved from or default-constructed)");
  }
  if (a.kind == ParamKind::LocalArray && (a.size == 0 || a.size > s.local_mem_size)) {
    throw UserError("launch of kernel '" + s.name + "': argument " + std::to_string(i) + " '" +
                    p.name + "': LocalMemory of " + std::to_string(a.size) +
                    " bytes; expected 1 to " + std::to_string(s.local_mem_size) +
                    " (the device's local memory)");
  }
}

// Sets an argument unless the kernel object already holds exactly this value.
void set_argument(LaunchState& s, cl_uint index, std::size_t size, const void* value) {
  ArgMemo& m = s.memo[index];
  if (size <= sizeof(m.bytes)) {
    if (m.set && m.size == size && (value == nullptr || std::memcmp(m.bytes, value, size) == 0)) {
      return;
    }
  }
  const cl_int err = clSetKernelArg(s.kernel.get(), index, size, value);
  if (err != CL_SUCCESS) {
    throw OpenCLError("clSetKernelArg", err,
                      "kernel '" + s.name + "', argument " + std::to_string(index));
  }
  m.set = size <= sizeof(m.bytes);
  m.size = size;
  if (m.set && value) std::memcpy(m.bytes, value, size);
}

[[noreturn]] void bad_geometry(const LaunchState& s, const std::string& what) {
  throw UserError("launch of kernel '" + s.name + "': " + what);
}

}  // namespace

}  // namespace detail

Kernel::Kernel(std::shared_ptr<detail::LaunchState> state) : state_(std::move(state)) {}

const std::string& Kernel::name() const { return state_->name; }
std::span<const Param> Kernel::params() const { return state_->params; }
const Specialization& Kernel::specialization() const { return state_->spec; }

WorkGroup Kernel::workgroup_for(const NDRange& requested) const {
  const auto& s = *state_;
  if (s.spec.workgroup) return *s.spec.workgroup;
  const NDRange nd = detail::coarsened(requested, s.coarsen);
  // Fill dimension 0 first, up to the kernel's maximum: PoCL runs one work-group function per
  // group, so fewer, larger groups cost less dispatch.
  WorkGroup wg;
  wg.dims = nd.dims;
  std::size_t budget = std::max<std::size_t>(s.max_workgroup, 1);
  for (unsigned d = 0; d < 3; ++d) {
    const std::size_t limit = std::min(budget, std::max<std::size_t>(s.max_items[d], 1));
    wg.size[d] = std::max<std::size_t>(1, std::min(nd.size[d], limit));
    budget /= wg.size[d];
  }
  return wg;
}

void Kernel::launch_packed(const NDRange& nd, const WorkGroup* given,
                           const detail::ArgView* args, std::size_t count) {
  if (!state_) throw UserError("launch: the Kernel is empty (default-constructed)");
  auto& s = *state_;
  if (count != s.params.size()) {
    std::string expected;
    for (std::size_t i = 0; i < s.params.size(); ++i) {
      expected += (i ? ", " : "") + s.params[i].describe() + " " + s.params[i].name;
    }
    throw UserError("launch of kernel '" + s.name + "': " + std::to_string(count) +
                    " arguments given, expected " + std::to_string(s.params.size()) + " (" +
                    expected + ")");
  }
  for (std::size_t i = 0; i < count; ++i) detail::check_argument(s, i, args[i]);

  if (s.spec.ndrange && !(*s.spec.ndrange == nd)) {
    detail::bad_geometry(s, "ndrange " + nd.to_string() + " differs from the static ndrange " +
                                s.spec.ndrange->to_string() + " it was specialized for");
  }
  if (given && s.spec.workgroup && !(*s.spec.workgroup == *given)) {
    detail::bad_geometry(s, "workgroup " + given->to_string() +
                                " differs from the static workgroup " +
                                s.spec.workgroup->to_string() + " it was specialized for");
  }
  const WorkGroup wg = given ? *given : workgroup_for(nd);
  const NDRange run = detail::coarsened(nd, s.coarsen);  // the work-items; nd stays the extent
  std::size_t local[3];
  std::size_t global[3];
  std::size_t items = 1;
  for (unsigned d = 0; d < 3; ++d) {
    local[d] = wg.size[d];
    if (local[d] == 0) detail::bad_geometry(s, "workgroup " + wg.to_string() + " has a zero dimension");
    if (local[d] > s.max_items[d]) {
      detail::bad_geometry(s, "workgroup " + wg.to_string() + " exceeds the device's maximum of " +
                                  std::to_string(s.max_items[d]) + " in dimension " +
                                  std::to_string(d));
    }
    items *= local[d];
    const std::size_t blocks = run.size[d] / local[d] + (run.size[d] % local[d] != 0);
    if (blocks > SIZE_MAX / local[d]) detail::bad_geometry(s, "ndrange " + nd.to_string() + " overflows size_t");
    global[d] = blocks * local[d];
  }
  if (items > s.max_workgroup) {
    detail::bad_geometry(s, "workgroup " + wg.to_string() + " has " + std::to_string(items) +
                                " work-items; the kernel allows at most " +
                                std::to_string(s.max_workgroup));
  }
  if (nd.size[0] == 0 || nd.size[1] == 0 || nd.size[2] == 0) return;
  const cl_uint dims = std::max({nd.dims, wg.dims, 1u});

  std::lock_guard<std::mutex> lock(s.mutex);
  for (std::size_t i = 0; i < count; ++i) {
    const auto& a = args[i];
    switch (a.kind) {
      case ParamKind::Scalar: detail::set_argument(s, static_cast<cl_uint>(i), a.size, a.data); break;
      case ParamKind::Pointer: detail::set_argument(s, static_cast<cl_uint>(i), sizeof(cl_mem), &a.mem); break;
      case ParamKind::LocalArray: detail::set_argument(s, static_cast<cl_uint>(i), a.size, nullptr); break;
    }
  }
  if (s.hidden_ndrange) {
    for (unsigned d = 0; d < hidden_ndrange_params; ++d) {
      const cl_long extent = static_cast<cl_long>(nd.size[d]);
      detail::set_argument(s, static_cast<cl_uint>(count + d), sizeof(extent), &extent);
    }
  }
  const cl_int err = clEnqueueNDRangeKernel(s.core->queue.get(), s.kernel.get(), dims, nullptr,
                                            global, local, 0, nullptr, nullptr);
  if (err != CL_SUCCESS) throw OpenCLError("clEnqueueNDRangeKernel", err, "kernel '" + s.name + "'");
}

}  // namespace spvjit
