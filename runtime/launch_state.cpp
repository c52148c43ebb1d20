// LaunchState set-up: the queries the launch path must never make, done once per specialization,
// and the geometry a static ndrange fixes.
#include <algorithm>

#include "runtime/launch_state.hpp"

#include "common/error_report.hpp"

namespace spvjit {

namespace detail {

LaunchState::~LaunchState() {
  for (const auto& d : direct) {
    if (d.runner) core->kernel_runner.release(d.runner);
  }
  core->bounds_records.release(bounds_slot);
}

namespace {

ClHandle<cl_kernel> create_kernel(cl_program program, const std::string& name) {
  cl_int err = CL_SUCCESS;
  ClHandle<cl_kernel> kernel(clCreateKernel(program, name.c_str(), &err));
  // The program was built from this kernel: only its name can be the reason.
  user_assert(err != CL_INVALID_KERNEL_NAME, {"compile", name})
      << "the device runtime has no kernel of that name in the program built from it (the name "
         "is taken by a symbol of the device's kernel library or runtime); rename the kernel";
  check_cl(err, "clCreateKernel", "kernel '" + name + "'");
  return kernel;
}

std::size_t kernel_workgroup_size(cl_kernel kernel, cl_device_id device) {
  size_t wg = 0;
  check_cl(
      clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, nullptr),
      "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
  return wg;
}

std::uint64_t local_memory(const RuntimeCore& core) {
  return core.inline_device ? std::min(core.info.local_mem_size, core.inline_info.local_mem_size)
                            : core.info.local_mem_size;
}

// The same cl_kernel is enqueued on either device of an adaptive runtime: respect both limits.
GeometryRules geometry_rules(const RuntimeCore& core, cl_kernel kernel, const KernelFacts& facts) {
  GeometryRules rules;
  rules.statics = &facts.spec;
  WorkGroupLimits& limits = rules.limits;
  limits.max_items =
      std::min(kernel_workgroup_size(kernel, core.device), core.info.max_workgroup_size);
  limits.max_per_dimension = core.info.max_work_item_sizes;
  if (core.inline_device) {
    limits.max_items = std::min({limits.max_items, core.inline_info.max_workgroup_size,
                                 kernel_workgroup_size(kernel, core.inline_device)});
    for (unsigned d = 0; d < 3; ++d) {
      limits.max_per_dimension[d] =
          std::min(limits.max_per_dimension[d], core.inline_info.max_work_item_sizes[d]);
    }
  }
  size_t multiple = 1;
  if (clGetKernelWorkGroupInfo(kernel, core.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                               sizeof(multiple), &multiple, nullptr) == CL_SUCCESS &&
      multiple > 0) {
    limits.preferred_multiple = multiple;
  }
  // A coarsened work-item does W indices' work (a declared heavy one, work_per_item): spread a
  // launch over the cores even when its work-items fit one group.
  if (facts.launch.coarsen > 1 || facts.work_per_item > 1)
    limits.min_groups = std::max<std::size_t>(core.info.compute_units, 1);
  rules.stack = facts.stack;
  // A coarsened kernel checks each index against the ndrange itself (jit/coarsen/coarsen.hpp).
  // In groups it pads only where the kernel does: its barriers' groups are the kernel's own.
  rules.pads = facts.pads_safely || (facts.launch.coarsen > 1 && !facts.launch.coarsen_groups);
  rules.coarsen = std::max<std::size_t>(facts.launch.coarsen, 1);
  rules.coarsen_dimension = facts.launch.coarsen_dimension;
  rules.coarsen_groups = facts.launch.coarsen_groups;
  rules.work_per_item = std::max<std::size_t>(facts.work_per_item, 1);
  return rules;
}

Partition fixed_partition(const GeometryRules& rules, const std::string& name) {
  if (!rules.statics->ndrange) return Partition{};
  return plan(rules, nullptr, nullptr, {"launch", name});
}

}  // namespace

LaunchState::LaunchState(std::shared_ptr<RuntimeCore> core_,
                         std::shared_ptr<ClHandle<cl_program>> program_, KernelFacts facts_)
    : core(std::move(core_)),
      program(std::move(program_)),
      facts(std::move(facts_)),
      kernel(create_kernel(program->get(), facts.name)),
      local_mem_size(local_memory(*core)),
      rules(geometry_rules(*core, kernel.get(), facts)),
      static_geometry(facts.spec.ndrange.has_value()),
      fixed(fixed_partition(rules, facts.name)),
      bounds_slot(facts.bounds_checked() ? core->bounds_records.acquire(this) : nullptr),
      memo(facts.hidden.count) {
  try {
    allow_struct_pointers(*core, kernel.get(), facts.name, facts.params);
  } catch (...) {
    core->bounds_records.release(bounds_slot);  // the destructor does not run for a throw here
    throw;
  }
  if (!facts.bounds_checked()) return;
  // Without SVM (no slot) the Jit compiled the checks away: the address 0 is never read.
  const cl_ulong address = reinterpret_cast<std::uintptr_t>(bounds_slot);
  const cl_uint record = facts.hidden.record;
  const cl_int err = clSetKernelArg(kernel.get(), record, sizeof(address), &address);
  if (err != CL_SUCCESS) {
    core->bounds_records.release(bounds_slot);  // the destructor does not run for a throw here
    check_cl(err, "clSetKernelArg", "kernel '" + facts.name + "', bounds record");
  }
}

}  // namespace detail

Kernel::Kernel(std::shared_ptr<detail::LaunchState> state) : state_(std::move(state)) {}

namespace {
// A default-constructed Kernel has no state: asking it anything is a UserError, not a crash.
const detail::LaunchState& state_of(const std::shared_ptr<detail::LaunchState>& state,
                                    const char* what) {
  user_assert(state, {std::string("Kernel::") + what})
      << "the Kernel is empty (default-constructed)";
  return *state;
}
}  // namespace

const std::string& Kernel::name() const { return state_of(state_, "name").facts.name; }
std::span<const Param> Kernel::params() const { return state_of(state_, "params").facts.params; }
const Specialization& Kernel::specialization() const {
  return state_of(state_, "specialization").facts.spec;
}

NDRange Kernel::ndrange_of(const Groups& groups, const WorkGroup* workgroup) const {
  const auto& s = state_of(state_, "launch");
  const WorkGroup* wg = workgroup                ? workgroup
                        : s.facts.spec.workgroup ? &*s.facts.spec.workgroup
                                                 : nullptr;
  user_assert(wg, {"launch", s.facts.name})
      << "Groups " << groups.to_string()
      << ": a group count needs a workgroup size; pass a WorkGroup or compile the kernel with a "
         "static workgroup";
  NDRange nd;
  nd.dims = std::max(groups.dims, wg->dims);
  for (unsigned d = 0; d < 3; ++d) {
    user_assert(!__builtin_mul_overflow(groups.size[d], wg->size[d], &nd.size[d]),
                {"launch", s.facts.name})
        << "Groups " << groups.to_string() << " of WorkGroup " << wg->to_string()
        << ": the ndrange overflows in dimension " << d;
  }
  return nd;
}

const NDRange& Kernel::static_ndrange() const {
  const auto& s = state_of(state_, "launch");
  user_assert(s.facts.spec.ndrange, {"launch", s.facts.name})
      << "launched with its arguments alone, but it was compiled without a static ndrange; "
         "launch it with one (k.launch(NDRange{n}, args...)) or compile it with "
         "{.ndrange = NDRange{n}}";
  return *s.facts.spec.ndrange;
}

WorkGroup Kernel::workgroup_for(const NDRange& nd) const {
  const auto& s = state_of(state_, "workgroup_for");
  if (s.facts.spec.workgroup) return *s.facts.spec.workgroup;
  return detail::choose_workgroup(
      s.rules, detail::coarsened(nd, s.rules.coarsen, s.rules.coarsen_dimension));
}

}  // namespace spvjit
