// Launch geometry: the one place that turns a kernel's static sizes, its limits and a launch's
// ndrange and workgroup into OpenCL's global and local sizes — or into a UserError that names
// the kernel and shows all four sizes, static and launch, as KernelAbstractions does. The
// compile (static sizes), every launch and the public partition() all call it.
//
// Pure and allocation-free unless it throws: the launch path calls plan() for every launch
// whose geometry it has not memoized.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
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
  /// Indices of dimension `coarsen_dimension` each work-item runs (jit/coarsen/coarsen.hpp): the
  /// launch enqueues ceil(ndrange / coarsen) work-items there.
  std::size_t coarsen = 1;
  unsigned coarsen_dimension = 0;  ///< 0, or 1 (jit/coarsen/swap_dimensions.hpp)
  /// Coarsened in groups (EntryLaunch::coarsen_groups): each work-item stands for `coarsen`
  /// work-items of its group, so a fixed workgroup's coarsened dimension is divided by it too,
  /// and an ndrange the kernel does not pad must still divide into whole groups of the kernel's.
  bool coarsen_groups = false;
  /// Indices' work each work-item does for dispatch's thresholds, besides coarsen
  /// (KernelBuilder::work_per_item); the geometry itself ignores it.
  std::size_t work_per_item = 1;

  /// Work-items per group allowed by both the limits and the stack (0: unknown).
  std::size_t max_items() const noexcept;
};

/// Who asks, for messages: "<stage> of kernel '<kernel>'".
struct GeometryAsker {
  const char* stage = "launch";
  std::string_view kernel;
};

/// The work-items that run a launch over `nd` when each handles `coarsen` indices of dimension
/// `dim`.
NDRange coarsened(const NDRange& nd, std::size_t coarsen, unsigned dim) noexcept;

/// The geometry of a launch with `ndrange` and `workgroup` (nullptr: not passed); empty() when
/// the ndrange is (a 0 in some dimension: nothing runs), the sizes checked all the same.
/// `global` counts the work-items enqueued (coarsened), `ndrange` is the launch's. Inline
/// (below), so partition() and the launch path fold what they know.
inline Partition plan(const GeometryRules& rules, const NDRange* ndrange,
                      const WorkGroup* workgroup, GeometryAsker asker);

/// The workgroup chosen for work-items `run` (already coarsened) when none is static or given:
/// dimension 0 first, as many work-items as the rules allow (PoCL runs one work-group function
/// per group, so fewer, larger groups cost less dispatch), a multiple of the preferred multiple
/// when `run` spills over anyway, and a divisor of `run` where the kernel cannot pad. For a
/// kernel coarsened in dimension 1, one row of dimension 1 per group (common/geometry.cpp says
/// why).
WorkGroup choose_workgroup(const GeometryRules& rules, const NDRange& run) noexcept;

/// The static sizes checked against the rules, with the workgroup a static ndrange implies
/// chosen: what a compile specializes for. Inline (below): every warm compile() runs it.
inline Specialization settle_statics(const GeometryRules& rules, GeometryAsker asker);

/// The UserErrors plan() throws, built out of line: "<stage> of kernel '<name>': <what>
/// [ndrange static S, launch L; workgroup static S, launch L]".
namespace geometry_error {
[[noreturn, gnu::cold]] void extent(const GeometryRules& rules, const NDRange* nd,
                                    const WorkGroup* wg, GeometryAsker asker, const char* what,
                                    const Extent3& e);
[[noreturn, gnu::cold]] void workgroup(const GeometryRules& rules, const NDRange* nd,
                                       const WorkGroup* wg, GeometryAsker asker, const char* what,
                                       const WorkGroup& bad, const char* range_what,
                                       const NDRange& range);
[[noreturn, gnu::cold]] void padding(const GeometryRules& rules, const NDRange* nd,
                                     const WorkGroup* wg, GeometryAsker asker, const NDRange& range,
                                     const WorkGroup& group);
[[noreturn, gnu::cold]] void too_many(const GeometryRules& rules, const NDRange* nd,
                                      const WorkGroup* wg, GeometryAsker asker,
                                      const NDRange& range);
[[noreturn, gnu::cold]] void no_ndrange(const GeometryRules& rules, const WorkGroup* wg,
                                        GeometryAsker asker);
[[noreturn, gnu::cold]] void ndrange_differs(const GeometryRules& rules, const NDRange* nd,
                                             const WorkGroup* wg, GeometryAsker asker);
[[noreturn, gnu::cold]] void workgroup_differs(const GeometryRules& rules, const NDRange* nd,
                                               const WorkGroup* wg, GeometryAsker asker);
[[noreturn, gnu::cold]] void no_workgroup(const GeometryRules& rules, const NDRange* nd,
                                          GeometryAsker asker);
/// Not even one work-item fits the stack.
[[noreturn, gnu::cold]] void stack(const GeometryRules& rules, GeometryAsker asker);
}  // namespace geometry_error

// 1 to 3 dimensions, each at most 2^63-1 (a larger size is what a negative integer becomes in a
// size_t, and kernels index with signed 64-bit integers), 1 beyond the declared dimensions (a
// hand-set size there would be enqueued silently).
inline bool extent_ok(const Extent3& e) noexcept {
  return e.dims - 1u <= 2u && ((e.size[0] | e.size[1] | e.size[2]) >> 63) == 0 &&
         (e.dims > 1 || e.size[1] == 1) && (e.dims > 2 || e.size[2] == 1);
}

inline bool workgroup_ok(const GeometryRules& rules, const WorkGroup& wg, const NDRange& range) {
  const auto& w = wg.size;
  const auto& most = rules.limits.max_per_dimension;
  const std::size_t max_items = rules.max_items();
  // Each dimension within its own limit first, so the product cannot overflow. Sizes beyond the
  // ndrange's dimensions must be 1: a group of 16 over a dimension of 1 is never meant.
  return (range.dims >= 2 || w[1] == 1) && (range.dims >= 3 || w[2] == 1) && w[0] != 0 &&
         w[1] != 0 && w[2] != 0 && (!most[0] || w[0] <= most[0]) && (!most[1] || w[1] <= most[1]) &&
         (!most[2] || w[2] <= most[2]) && (!max_items || w[0] * w[1] * w[2] <= max_items);
}

inline std::size_t GeometryRules::max_items() const noexcept {
  const std::size_t stack_items = stack.max_items();  // SIZE_MAX when nothing is kept
  if (limits.max_items == 0) return stack_items == SIZE_MAX ? 0 : stack_items;
  return std::min(limits.max_items, stack_items);
}

inline NDRange coarsened(const NDRange& nd, std::size_t coarsen, unsigned dim) noexcept {
  NDRange run = nd;
  if (coarsen > 1) run.size[dim] = nd.size[dim] / coarsen + (nd.size[dim] % coarsen != 0);
  return run;
}

// Always inlined, and the Partition built once at the end from values held in registers:
// called out of line, or writing into a caller's zeroed Partition, partition() measured 15 to
// 24 ns against 9 ns (stores read back before they had landed, and the zeroing itself).
[[gnu::always_inline]] inline Partition plan(const GeometryRules& rules, const NDRange* ndrange,
                                             const WorkGroup* workgroup, GeometryAsker asker) {
  const Specialization& statics = *rules.statics;
  if (ndrange && !extent_ok(*ndrange)) [[unlikely]] {
    geometry_error::extent(rules, ndrange, workgroup, asker, "ndrange", *ndrange);
  }
  if (!ndrange && !statics.ndrange) [[unlikely]] {
    geometry_error::no_ndrange(rules, workgroup, asker);
  }
  if (ndrange && statics.ndrange && !(*ndrange == *statics.ndrange)) [[unlikely]] {
    geometry_error::ndrange_differs(rules, ndrange, workgroup, asker);
  }
  if (workgroup && statics.workgroup && !(*workgroup == *statics.workgroup)) [[unlikely]] {
    geometry_error::workgroup_differs(rules, ndrange, workgroup, asker);
  }
  const NDRange& nd = statics.ndrange ? *statics.ndrange : *ndrange;
  if (!ndrange && !extent_ok(nd)) [[unlikely]] {
    geometry_error::extent(rules, ndrange, workgroup, asker, "static ndrange", nd);
  }
  const WorkGroup* fixed = statics.workgroup ? &*statics.workgroup : workgroup;
  WorkGroup wg;
  if (fixed) {
    if (!extent_ok(*fixed)) [[unlikely]] {
      geometry_error::extent(rules, ndrange, workgroup, asker,
                             fixed == workgroup ? "workgroup" : "static workgroup", *fixed);
    }
    if (!workgroup_ok(rules, *fixed, nd)) [[unlikely]] {
      geometry_error::workgroup(rules, ndrange, workgroup, asker,
                                fixed == workgroup ? "workgroup" : "static workgroup", *fixed,
                                ndrange ? "ndrange" : "static ndrange", nd);
    }
    wg = *fixed;
  } else if (rules.max_items() > 0) {
    wg = choose_workgroup(rules, coarsened(nd, rules.coarsen, rules.coarsen_dimension));
  } else {
    geometry_error::no_workgroup(rules, ndrange, asker);
  }
  // Empty whatever the other sizes are (2^40 x 0 x 2^40 included): nothing runs, nothing can
  // overflow.
  const bool empty = nd.size[0] == 0 || nd.size[1] == 0 || nd.size[2] == 0;
  std::array<std::size_t, 3> blocks, global;
  std::size_t items = 1;
  bool bounds_check = false;
  // A coarsened kernel runs ceil(n / coarsen) work-items in its coarsened dimension.
  const unsigned coarse_dim = rules.coarsen_dimension;
  // In groups, the kernel's groups as the coarsened work-items run them (the size the compile
  // divided: 0 < coarsen divides it); errors show the kernel's own.
  const WorkGroup shown = wg;
  if (rules.coarsen_groups && fixed) wg.size[coarse_dim] /= rules.coarsen;
  const std::size_t run_coarse = rules.coarsen > 1
                                     ? coarsened(nd, rules.coarsen, coarse_dim).size[coarse_dim]
                                     : nd.size[coarse_dim];
#pragma GCC unroll 3  // three dimensions, held in registers
  for (unsigned d = 0; d < 3; ++d) {
    const std::size_t n = d == coarse_dim ? run_coarse : nd.size[d];
    const std::size_t w = wg.size[d];
    // Whole groups; a 64-bit division takes tens of cycles: only for groups wider than 1.
    blocks[d] = n;
    // In groups, indices past a whole coarsened work-item pad too (n = 63 of groups of 64).
    const bool part_item = rules.coarsen_groups && d == coarse_dim && nd.size[d] % rules.coarsen;
    if (w != 1 || part_item) {
      const std::size_t rem = n % w;
      blocks[d] = n / w + (rem != 0);
      if (rem != 0 || part_item) {
        if (!rules.pads && !empty) [[unlikely]] {
          geometry_error::padding(rules, ndrange, workgroup, asker, nd, shown);
        }
        bounds_check = true;
      }
    }
    global[d] = blocks[d] * w;  // n + w - 1 at most, n <= 2^63-1 and w <= 2^63-1: no overflow
    if (!empty && __builtin_mul_overflow(items, global[d], &items)) [[unlikely]] {
      geometry_error::too_many(rules, ndrange, workgroup, asker, nd);
    }
  }
  return Partition{nd, wg, blocks, global, std::max(nd.dims, wg.dims), bounds_check};
}

// Always inlined: passed out of line, the asker's fields were read back before their stores had
// landed, and a warm compile() measured 31 ns instead of 26.
[[gnu::always_inline]] inline Specialization settle_statics(const GeometryRules& rules,
                                                            GeometryAsker asker) {
  Specialization spec = *rules.statics;
  if (!rules.stack.fits(1)) [[unlikely]]
    geometry_error::stack(rules, asker);
  if (spec.ndrange) {
    spec.workgroup = plan(rules, nullptr, nullptr, asker).workgroup;
  } else if (spec.workgroup) {
    const WorkGroup& wg = *spec.workgroup;
    if (!extent_ok(wg)) [[unlikely]] {
      geometry_error::extent(rules, nullptr, nullptr, asker, "static workgroup", wg);
    }
    NDRange any;
    any.dims = 3;  // no ndrange to compare the workgroup's dimensions with
    if (!workgroup_ok(rules, wg, any)) [[unlikely]] {
      geometry_error::workgroup(rules, nullptr, nullptr, asker, "static workgroup", wg, "ndrange",
                                any);
    }
  }
  return spec;
}

}  // namespace spvjit::detail
