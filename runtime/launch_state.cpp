// LaunchState set-up: the queries the launch path must never make, done once per specialization;
// and the geometry a static ndrange fixes.
#include <algorithm>

#include "runtime/launch_state.hpp"

namespace spvjit {

namespace detail {

std::string Extent3::to_string() const {
  std::string out = "(";
  for (unsigned d = 0; d < std::min(dims, 3u); ++d) out += (d ? "," : "") + std::to_string(size[d]);
  return out + (dims == 1 ? ",)" : ")");
}

LaunchState::~LaunchState() { core->bounds_records.release(bounds_slot); }

void LaunchState::enable_bounds_checks(std::vector<BoundsSite> sites) {
  bounds_checked = true;
  bounds_sites = std::move(sites);
  first_extent_arg = static_cast<cl_uint>(detail::first_extent_arg(params, hidden_ndrange));
  const cl_uint record = static_cast<cl_uint>(record_arg(params, hidden_ndrange));
  memo.resize(fast_end_arg(params, hidden_ndrange) + 1);
  bounds_slot = core->bounds_records.acquire(this);
  // Without SVM (no slot) the Jit compiled the checks away: the address 0 is never read.
  const cl_ulong address = reinterpret_cast<std::uintptr_t>(bounds_slot);
  check_cl(clSetKernelArg(kernel.get(), record, sizeof(address), &address), "clSetKernelArg",
           "kernel '" + name + "', bounds record");
}

namespace {

std::size_t kernel_workgroup_size(cl_kernel kernel, cl_device_id device) {
  size_t wg = 0;
  check_cl(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg,
                                    nullptr),
           "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
  return wg;
}

}  // namespace

LaunchState::LaunchState(std::shared_ptr<RuntimeCore> core_,
                         std::shared_ptr<ClHandle<cl_program>> program_, std::string name_,
                         std::vector<Param> params_, bool hidden_ndrange_, Specialization spec_)
    : core(std::move(core_)),
      program(std::move(program_)),
      name(std::move(name_)),
      params(std::move(params_)),
      hidden_ndrange(hidden_ndrange_),
      pads_safely(hidden_ndrange_),
      spec(std::move(spec_)) {
  cl_int err = CL_SUCCESS;
  kernel = ClHandle<cl_kernel>(clCreateKernel(program->get(), name.c_str(), &err));
  check_cl(err, "clCreateKernel", "kernel '" + name + "'");
  // The same cl_kernel is enqueued on either device of an adaptive runtime: respect both limits.
  max_workgroup = std::min(kernel_workgroup_size(kernel.get(), core->device),
                           core->info.max_workgroup_size);
  max_items = core->info.max_work_item_sizes;
  local_mem_size = core->info.local_mem_size;
  if (core->inline_device) {
    max_workgroup = std::min({max_workgroup, core->inline_info.max_workgroup_size,
                              kernel_workgroup_size(kernel.get(), core->inline_device)});
    for (unsigned d = 0; d < 3; ++d) {
      max_items[d] = std::min(max_items[d], core->inline_info.max_work_item_sizes[d]);
    }
    local_mem_size = std::min(local_mem_size, core->inline_info.local_mem_size);
  }
  size_t multiple = 1;
  if (clGetKernelWorkGroupInfo(kernel.get(), core->device,
                               CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(multiple),
                               &multiple, nullptr) == CL_SUCCESS && multiple > 0) {
    preferred_multiple = multiple;
  }
  memo.resize(params.size() + (hidden_ndrange ? hidden_ndrange_params : 0));
  compute_fixed_geometry();
}

void LaunchState::limit_group_stack(const GroupStack& s) {
  stack = s;
  max_workgroup = std::max<std::size_t>(1, std::min(max_workgroup, s.max_items()));
}

void LaunchState::set_coarsen(std::size_t indices_per_item) {
  coarsen = std::max<std::size_t>(indices_per_item, 1);
  compute_fixed_geometry();
}

void LaunchState::compute_fixed_geometry() {
  if (!spec.ndrange) return;
  // Jit fixes the workgroup with the ndrange; do it here too, so the launch path may rely on it.
  const NDRange nd = coarsened(*spec.ndrange, coarsen);  // the work-items that run
  if (!spec.workgroup) spec.workgroup = chosen_workgroup(nd);
  const WorkGroup wg = *spec.workgroup;
  static_geometry = true;
  fixed = Geometry{};
  fixed.dims = std::max({nd.dims, wg.dims, 1u});
  fixed.items = 1;
  for (unsigned d = 0; d < 3; ++d) {
    fixed.local[d] = wg.size[d];
    const std::size_t blocks = nd.size[d] / wg.size[d] + (nd.size[d] % wg.size[d] != 0);
    if (__builtin_mul_overflow(blocks, wg.size[d], &fixed.global[d]) ||
        __builtin_mul_overflow(fixed.items, fixed.global[d], &fixed.items)) {
      throw UserError("kernel '" + name + "': static ndrange " + spec.ndrange->to_string() +
                      " overflows size_t in total work-items");
    }
  }
}

}  // namespace detail

Kernel::Kernel(std::shared_ptr<detail::LaunchState> state) : state_(std::move(state)) {}

namespace {
// A default-constructed Kernel has no state: asking it anything is a UserError, not a crash.
const detail::LaunchState& state_of(const std::shared_ptr<detail::LaunchState>& state,
                                    const char* what) {
  if (!state) throw UserError(std::string("Kernel::") + what + ": the Kernel is empty (default-constructed)");
  return *state;
}
}  // namespace

const std::string& Kernel::name() const { return state_of(state_, "name").name; }
std::span<const Param> Kernel::params() const { return state_of(state_, "params").params; }
const Specialization& Kernel::specialization() const {
  return state_of(state_, "specialization").spec;
}

WorkGroup Kernel::workgroup_for(const NDRange& nd) const {
  const auto& s = state_of(state_, "workgroup_for");
  if (s.spec.workgroup) return *s.spec.workgroup;
  return s.chosen_workgroup(detail::coarsened(nd, s.coarsen));
}

}  // namespace spvjit
