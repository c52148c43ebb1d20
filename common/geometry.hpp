// Launch geometry: the one place that turns a kernel's static sizes, its limits and a launch's
// ndrange and workgroup into OpenCL's global and local sizes — or into a UserError that names
// the kernel and shows all four sizes, static and launch, as KernelAbstractions does. The
// compile (static sizes), every launch and the public partition() all call it.
//
// Pure and allocation-free unless it throws: the launch path calls plan() for every launch
// whose geometry it has not memoized.
#pragma once

#include <cstddef>
#include <string_view>

#include "common/group_stack.hpp"
#include "spvjit/partition.hpp"

namespace spvjit::detail {

/// Everything besides the launch's own sizes that decides a kernel's geometry.
struct GeometryRules {
  /// The sizes the kernel was specialized for; never null, and outlives the rules.
  const Specialization* statics = nullptr;
  /// The device's limits (compile) or the kernel's (launch); max_items 0: unknown.
  WorkGroupLimits limits;
  /// The stack a group runs on: groups whose work-items do not fit are refused or not chosen.
  GroupStack stack;
  /// The kernel guards its own bounds, so a launch may pad the ndrange to whole groups; else
  /// every workgroup must divide the ndrange (and chosen ones are made to).
  bool pads = true;
  /// Indices of dimension 0 each work-item runs (jit/coarsen.hpp): the launch enqueues
  /// ceil(ndrange / coarsen) work-items there.
  std::size_t coarsen = 1;

  /// Work-items per group allowed by both the limits and the stack (0: unknown).
  std::size_t max_items() const noexcept;
};

/// Who asks, for messages: "<stage> of kernel '<kernel>'".
struct GeometryAsker {
  const char* stage = "launch";
  std::string_view kernel;
};

/// The work-items that run a launch over `nd` when each handles `coarsen` indices of dimension 0.
NDRange coarsened(const NDRange& nd, std::size_t coarsen) noexcept;

/// The geometry of a launch with `ndrange` and `workgroup` (nullptr: not passed). False when
/// the ndrange is empty (a 0 in some dimension: nothing runs); the sizes are still checked.
/// `out.global` counts the work-items enqueued (coarsened), `out.ndrange` is the launch's.
bool plan(const GeometryRules& rules, const NDRange* ndrange, const WorkGroup* workgroup,
          Partition& out, GeometryAsker asker);

/// The workgroup chosen for work-items `run` (already coarsened) when none is static or given:
/// dimension 0 first, as many work-items as the rules allow (PoCL runs one work-group function
/// per group, so fewer, larger groups cost less dispatch), a multiple of the preferred multiple
/// when `run` spills over anyway, and a divisor of `run` where the kernel cannot pad.
WorkGroup choose_workgroup(const GeometryRules& rules, const NDRange& run) noexcept;

/// The static sizes checked against the rules, with the workgroup a static ndrange implies
/// chosen: what a compile specializes for.
Specialization settle_statics(const GeometryRules& rules, GeometryAsker asker);

}  // namespace spvjit::detail
