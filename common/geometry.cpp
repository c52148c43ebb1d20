// The launch geometry (common/geometry.hpp) and the public partition() / choose_workgroup() on
// top of it. Strings are built only on the way to a throw, in cold functions: the successful
// path allocates nothing.
#include "common/geometry.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "spvjit/error.hpp"

namespace spvjit {

namespace detail {

namespace {

template <class E>
std::string show(const E* e) {
  return e ? e->to_string() : std::string("none");
}

template <class E>
std::string show(const std::optional<E>& e) {
  return e ? e->to_string() : std::string("dynamic");
}

// Every geometry error shows all four sizes, static and launch, as KernelAbstractions does.
[[noreturn, gnu::cold, gnu::noinline]] void refuse(const GeometryRules& rules, const NDRange* nd,
                                                    const WorkGroup* wg, GeometryAsker asker,
                                                    const std::string& what) {
  throw UserError(std::string(asker.stage) + " of kernel '" + std::string(asker.kernel) + "': " +
                  what + " [ndrange static " + show(rules.statics->ndrange) + ", launch " +
                  show(nd) + "; workgroup static " + show(rules.statics->workgroup) + ", launch " +
                  show(wg) + "]");
}

// 1 to 3 dimensions, each at most 2^63-1 (a larger size is what a negative integer becomes in a
// size_t, and kernels index with signed 64-bit integers), 1 beyond the declared dimensions (a
// hand-set size there would be enqueued silently).
inline bool extent_ok(const Extent3& e) noexcept {
  return e.dims - 1u <= 2u && ((e.size[0] | e.size[1] | e.size[2]) >> 63) == 0 &&
         (e.dims > 1 || e.size[1] == 1) && (e.dims > 2 || e.size[2] == 1);
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_extent(const GeometryRules& rules,
                                                        const NDRange* nd, const WorkGroup* wg,
                                                        GeometryAsker asker, const char* what,
                                                        const Extent3& e) {
  if (e.dims < 1 || e.dims > 3) {
    refuse(rules, nd, wg, asker,
           std::string(what) + " has " + std::to_string(e.dims) + " dimensions; expected 1 to 3");
  }
  for (unsigned d = 0; d < 3; ++d) {
    if (e.size[d] > static_cast<std::size_t>(INT64_MAX)) {
      refuse(rules, nd, wg, asker,
             std::string(what) + " " + e.to_string() + " is too large: dimension " +
                 std::to_string(d) + " is above 2^63-1 (a negative size?)");
    }
  }
  refuse(rules, nd, wg, asker,
         std::string(what) + " " + e.to_string() + " has a size beyond its " +
             std::to_string(e.dims) + " dimensions that is not 1");
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_workgroup(const GeometryRules& rules,
                                                           const NDRange* nd, const WorkGroup* wg,
                                                           GeometryAsker asker, const char* what,
                                                           const WorkGroup& bad,
                                                           const char* range_what,
                                                           const NDRange& range) {
  const std::string named = std::string(what) + " " + bad.to_string();
  for (unsigned d = range.dims; d < bad.dims && d < 3; ++d) {
    if (bad.size[d] != 1) {
      refuse(rules, nd, wg, asker,
             named + " has more dimensions than the " + range_what + " " + range.to_string() +
                 " (beyond the ndrange's, a workgroup's sizes must be 1)");
    }
  }
  std::size_t items = 1;
  for (unsigned d = 0; d < 3; ++d) {
    if (bad.size[d] == 0) refuse(rules, nd, wg, asker, named + " has a zero dimension");
    const std::size_t most = rules.limits.max_per_dimension[d];
    if (most && bad.size[d] > most) {
      refuse(rules, nd, wg, asker,
             named + " is outside the device's limits: it exceeds the device's maximum of " +
                 std::to_string(most) + " in dimension " + std::to_string(d));
    }
    items *= bad.size[d];  // each within its limit: no overflow
  }
  if (!rules.stack.fits(items)) refuse(rules, nd, wg, asker, rules.stack.refusal(named, items));
  refuse(rules, nd, wg, asker,
         named + " has " + std::to_string(items) + " work-items; the kernel allows at most " +
             std::to_string(rules.max_items()));
}

inline bool workgroup_ok(const GeometryRules& rules, const WorkGroup& wg, const NDRange& range) {
  const auto& w = wg.size;
  const auto& most = rules.limits.max_per_dimension;
  const std::size_t max_items = rules.max_items();
  // Each dimension within its own limit first, so the product cannot overflow. Sizes beyond the
  // ndrange's dimensions must be 1: a group of 16 over a dimension of 1 is never meant.
  return (range.dims >= 2 || w[1] == 1) && (range.dims >= 3 || w[2] == 1) && w[0] != 0 &&
         w[1] != 0 && w[2] != 0 &&
         (!most[0] || w[0] <= most[0]) && (!most[1] || w[1] <= most[1]) &&
         (!most[2] || w[2] <= most[2]) && (!max_items || w[0] * w[1] * w[2] <= max_items);
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_padding(const GeometryRules& rules,
                                                         const NDRange* nd, const WorkGroup* wg,
                                                         GeometryAsker asker,
                                                         const NDRange& range,
                                                         const WorkGroup& group) {
  refuse(rules, nd, wg, asker,
         "workgroup " + group.to_string() + " does not divide ndrange " + range.to_string() +
             ", and the kernel checks no bounds (it never reads in_bounds() or ndrange() and did "
             "not declare allow_padding()), so its padding work-items would run out of bounds");
}

[[noreturn, gnu::cold, gnu::noinline]] void too_many(const GeometryRules& rules, const NDRange* nd,
                                                      const WorkGroup* wg, GeometryAsker asker,
                                                      const NDRange& range) {
  refuse(rules, nd, wg, asker,
         "ndrange " + range.to_string() +
             " is too large: the total of work-items overflows size_t");
}

}  // namespace

std::size_t GeometryRules::max_items() const noexcept {
  const std::size_t stack_items = stack.max_items();  // SIZE_MAX when nothing is kept
  if (limits.max_items == 0) return stack_items == SIZE_MAX ? 0 : stack_items;
  return std::min(limits.max_items, stack_items);
}

NDRange coarsened(const NDRange& nd, std::size_t coarsen) noexcept {
  NDRange run = nd;
  if (coarsen > 1) run.size[0] = nd.size[0] / coarsen + (nd.size[0] % coarsen != 0);
  return run;
}

WorkGroup choose_workgroup(const GeometryRules& rules, const NDRange& run) noexcept {
  WorkGroup wg;
  wg.dims = run.dims;
  std::size_t budget = std::max<std::size_t>(rules.max_items(), 1);
  const std::size_t multiple = std::max<std::size_t>(rules.limits.preferred_multiple, 1);
  for (unsigned d = 0; d < 3; ++d) {
    const std::size_t most =
        rules.limits.max_per_dimension[d] ? rules.limits.max_per_dimension[d] : SIZE_MAX;
    std::size_t size = std::min({std::max<std::size_t>(run.size[d], 1), budget, most});
    // Round down to the preferred multiple only when the ndrange spills over anyway: a smaller
    // ndrange fits one group.
    if (d == 0 && run.size[0] > size && size > multiple) size -= size % multiple;
    // A kernel that cannot pad gets groups that divide the ndrange.
    if (!rules.pads && run.size[d] > 0) {
      while (run.size[d] % size != 0) --size;
    }
    wg.size[d] = size;
    // A 64-bit division takes tens of cycles: only when a later dimension needs the budget.
    const bool more =
        (d == 0 && (run.size[1] > 1 || run.size[2] > 1)) || (d == 1 && run.size[2] > 1);
    if (more) budget /= size;
  }
  return wg;
}

bool plan(const GeometryRules& rules, const NDRange* ndrange, const WorkGroup* workgroup,
          Partition& out, GeometryAsker asker) {
  const Specialization& statics = *rules.statics;
  if (ndrange && !extent_ok(*ndrange)) [[unlikely]] {
    bad_extent(rules, ndrange, workgroup, asker, "ndrange", *ndrange);
  }
  if (!ndrange && !statics.ndrange) [[unlikely]] {
    refuse(rules, ndrange, workgroup, asker,
           "no ndrange: the kernel is dynamically sized; pass one at launch or specialize it");
  }
  if (ndrange && statics.ndrange && !(*ndrange == *statics.ndrange)) [[unlikely]] {
    refuse(rules, ndrange, workgroup, asker,
           "ndrange " + ndrange->to_string() + " differs from the static ndrange " +
               statics.ndrange->to_string() + " it was specialized for");
  }
  if (workgroup && statics.workgroup && !(*workgroup == *statics.workgroup)) [[unlikely]] {
    refuse(rules, ndrange, workgroup, asker,
           "workgroup " + workgroup->to_string() + " differs from the static workgroup " +
               statics.workgroup->to_string() + " it was specialized for");
  }
  out.ndrange = statics.ndrange ? *statics.ndrange : *ndrange;
  const NDRange& nd = out.ndrange;
  if (!ndrange && !extent_ok(nd)) [[unlikely]] {
    bad_extent(rules, ndrange, workgroup, asker, "static ndrange", nd);
  }
  const NDRange run = coarsened(nd, rules.coarsen);
  const WorkGroup* fixed = statics.workgroup ? &*statics.workgroup : workgroup;
  if (fixed) {
    if (!extent_ok(*fixed)) [[unlikely]] {
      bad_extent(rules, ndrange, workgroup, asker,
                 fixed == workgroup ? "workgroup" : "static workgroup", *fixed);
    }
    if (!workgroup_ok(rules, *fixed, nd)) [[unlikely]] {
      bad_workgroup(rules, ndrange, workgroup, asker,
                    fixed == workgroup ? "workgroup" : "static workgroup", *fixed,
                    ndrange ? "ndrange" : "static ndrange", nd);
    }
    out.workgroup = *fixed;
  } else if (rules.max_items() > 0) {
    out.workgroup = choose_workgroup(rules, run);
  } else {
    refuse(rules, ndrange, workgroup, asker,
           "no workgroup: none is static, none was given and no device limits to choose one");
  }
  // Empty whatever the other sizes are (2^40 x 0 x 2^40 included): nothing runs, nothing can
  // overflow.
  const bool empty = nd.size[0] == 0 || nd.size[1] == 0 || nd.size[2] == 0;
  out.items = 1;
  out.bounds_check = false;
  for (unsigned d = 0; d < 3; ++d) {
    const std::size_t n = run.size[d], w = out.workgroup.size[d];
    // Whole groups; a 64-bit division takes tens of cycles: only for groups wider than 1.
    std::size_t blocks = n;
    if (w != 1) {
      const std::size_t rem = n % w;
      blocks = n / w + (rem != 0);
      if (rem != 0) {
        if (!rules.pads && !empty) [[unlikely]] {
          bad_padding(rules, ndrange, workgroup, asker, nd, out.workgroup);
        }
        out.bounds_check = true;
      }
    }
    out.blocks[d] = blocks;
    out.global[d] = blocks * w;  // n + w - 1 at most, n <= 2^63-1 and w <= 2^63-1: no overflow
    if (!empty && __builtin_mul_overflow(out.items, out.global[d], &out.items)) [[unlikely]] {
      too_many(rules, ndrange, workgroup, asker, nd);
    }
  }
  out.dims = std::max(nd.dims, out.workgroup.dims);
  if (empty) out.items = 0;
  return !empty;
}

Specialization settle_statics(const GeometryRules& rules, GeometryAsker asker) {
  Specialization spec = *rules.statics;
  if (!rules.stack.fits(1)) [[unlikely]] {
    refuse(rules, nullptr, nullptr, asker, rules.stack.refusal("", 1));
  }
  if (spec.ndrange) {
    Partition p;
    plan(rules, nullptr, nullptr, p, asker);
    spec.workgroup = p.workgroup;
  } else if (spec.workgroup) {
    const WorkGroup& wg = *spec.workgroup;
    if (!extent_ok(wg)) bad_extent(rules, nullptr, nullptr, asker, "static workgroup", wg);
    NDRange any;
    any.dims = 3;  // no ndrange to compare the workgroup's dimensions with
    if (!workgroup_ok(rules, wg, any)) {
      bad_workgroup(rules, nullptr, nullptr, asker, "static workgroup", wg, "ndrange", any);
    }
  }
  return spec;
}

}  // namespace detail

WorkGroup choose_workgroup(const NDRange& ndrange, const WorkGroupLimits& limits) {
  const Specialization none;
  detail::GeometryRules rules;
  rules.statics = &none;
  rules.limits = limits;
  return detail::choose_workgroup(rules, ndrange);
}

Partition partition(const Specialization& statics, const NDRange* ndrange,
                    const WorkGroup* workgroup, const WorkGroupLimits& limits,
                    std::string_view kernel) {
  detail::GeometryRules rules;
  rules.statics = &statics;
  rules.limits = limits;
  Partition p;
  detail::plan(rules, ndrange, workgroup, p, {"partition", kernel});
  return p;
}

}  // namespace spvjit
