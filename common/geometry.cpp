// The launch geometry (common/geometry.hpp) and the public partition() / choose_workgroup() on
// top of it. Strings are built only on the way to a throw, in cold functions: the successful
// path allocates nothing.
#include "common/geometry.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/error_report.hpp"
#include "spvjit/error.hpp"

namespace spvjit {

namespace detail {

// Julia's tuple notation, as every message about sizes shows them: "(16,16)", "(64,)".
std::string Extent3::to_string() const {
  std::string out = "(";
  for (unsigned d = 0; d < std::min(dims, 3u); ++d) out += (d ? "," : "") + std::to_string(size[d]);
  return out + (dims == 1 ? ",)" : ")");
}

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
  user_error({asker.stage, asker.kernel})
      << what << " [ndrange static " << show(rules.statics->ndrange) << ", launch " << show(nd)
      << "; workgroup static " << show(rules.statics->workgroup) << ", launch " << show(wg) << "]";
  std::abort();  // not reached: the report throws at the end of its statement
}

}  // namespace

namespace geometry_error {

void extent(const GeometryRules& rules, const NDRange* nd, const WorkGroup* wg, GeometryAsker asker,
            const char* what, const Extent3& e) {
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

void workgroup(const GeometryRules& rules, const NDRange* nd, const WorkGroup* wg,
               GeometryAsker asker, const char* what, const WorkGroup& bad, const char* range_what,
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

void padding(const GeometryRules& rules, const NDRange* nd, const WorkGroup* wg,
             GeometryAsker asker, const NDRange& range, const WorkGroup& group) {
  refuse(rules, nd, wg, asker,
         "workgroup " + group.to_string() + " does not divide ndrange " + range.to_string() +
             ", and the kernel checks no bounds, so its padding work-items would run out of "
             "bounds: a builder kernel with barriers never reads in_ndrange() or ndrange() and did "
             "not declare allow_padding(); a raw kernel (kernel_from_module) that compares "
             "get_global_id "
             "with its own size declares it with RawKernelOptions{.guards_own_bounds = true}");
}

void too_many(const GeometryRules& rules, const NDRange* nd, const WorkGroup* wg,
              GeometryAsker asker, const NDRange& range) {
  refuse(
      rules, nd, wg, asker,
      "ndrange " + range.to_string() + " is too large: the total of work-items overflows size_t");
}

void no_ndrange(const GeometryRules& rules, const WorkGroup* wg, GeometryAsker asker) {
  refuse(rules, nullptr, wg, asker,
         "no ndrange: the kernel is dynamically sized; pass one at launch or specialize it");
}

void ndrange_differs(const GeometryRules& rules, const NDRange* nd, const WorkGroup* wg,
                     GeometryAsker asker) {
  refuse(rules, nd, wg, asker,
         "ndrange " + nd->to_string() + " differs from the static ndrange " +
             rules.statics->ndrange->to_string() + " it was specialized for");
}

void workgroup_differs(const GeometryRules& rules, const NDRange* nd, const WorkGroup* wg,
                       GeometryAsker asker) {
  refuse(rules, nd, wg, asker,
         "workgroup " + wg->to_string() + " differs from the static workgroup " +
             rules.statics->workgroup->to_string() + " it was specialized for");
}

void no_workgroup(const GeometryRules& rules, const NDRange* nd, GeometryAsker asker) {
  refuse(rules, nd, nullptr, asker,
         "no workgroup: none is static, none was given and no device limits to choose one");
}

void stack(const GeometryRules& rules, GeometryAsker asker) {
  refuse(rules, nullptr, nullptr, asker, rules.stack.refusal("", 1));
}

}  // namespace geometry_error

namespace {

// At least limits.min_groups groups: the outermost dimension with more than one work-item is cut
// into more groups (into groups that divide it, for a kernel that cannot pad).
void spread_over_groups(const GeometryRules& rules, const NDRange& run, WorkGroup& wg) noexcept {
  const std::size_t wanted = rules.limits.min_groups;
  if (wanted <= 1) return;
  // Counted up to `wanted` only: 2^40 x 2^40 work-items would overflow (the caller refuses
  // those), and every count below `wanted` is exact.
  std::size_t groups = 1;
  for (unsigned d = 0; d < 3; ++d) {
    const std::size_t extent = std::max<std::size_t>(run.size[d], 1);
    const std::size_t blocks = extent / wg.size[d] + (extent % wg.size[d] != 0);
    if (blocks >= wanted || groups * blocks >= wanted) return;
    groups *= blocks;
  }
  for (unsigned d = 3; d-- > 0;) {
    const std::size_t extent = run.size[d];
    if (extent <= 1) continue;
    const std::size_t blocks = (extent + wg.size[d] - 1) / wg.size[d];
    const std::size_t others = groups / blocks;
    const std::size_t needed = std::min(extent, (wanted + others - 1) / others);
    std::size_t size = (extent + needed - 1) / needed;
    if (!rules.pads) {
      while (extent % size != 0) --size;
    }
    wg.size[d] = size;
    return;
  }
}

}  // namespace

WorkGroup choose_workgroup(const GeometryRules& rules, const NDRange& run) noexcept {
  WorkGroup wg;
  wg.dims = run.dims;
  std::size_t budget = std::max<std::size_t>(rules.max_items(), 1);
  const std::size_t multiple = std::max<std::size_t>(rules.limits.preferred_multiple, 1);
  // The coarsened dimension first: a group then runs its consecutive vectors in turn, along the
  // memory they read.
  const unsigned first = rules.coarsen_dimension;
  const unsigned order[3] = {first, first == 0 ? 1u : 0u, 2};
  for (unsigned k = 0; k < 3; ++k) {
    const unsigned d = order[k];
    const std::size_t most =
        rules.limits.max_per_dimension[d] ? rules.limits.max_per_dimension[d] : SIZE_MAX;
    std::size_t size = std::min({std::max<std::size_t>(run.size[d], 1), budget, most});
    // Round down to the preferred multiple only when the ndrange spills over anyway: a smaller
    // ndrange fits one group.
    if (k == 0 && run.size[d] > size && size > multiple) size -= size % multiple;
    // A kernel that cannot pad gets groups that divide the ndrange.
    if (!rules.pads && run.size[d] > 0) {
      while (run.size[d] % size != 0) --size;
    }
    wg.size[d] = size;
    // A 64-bit division takes tens of cycles: only when a later dimension needs the budget.
    const bool more =
        (k == 0 && (run.size[order[1]] > 1 || run.size[2] > 1)) || (k == 1 && run.size[2] > 1);
    if (more) budget /= size;
    // PoCL runs a group's work-items with dimension 0 innermost: a group of several rows would
    // take the vectors of a kernel coarsened in dimension 1 column by column, a row apart each
    // (measured: heat2d_rows/4096 3x slower than one row per group). One row per group, unless a
    // row is one vector.
    if (k == 0 && first != 0 && run.size[first] > 1) budget = 1;
  }
  spread_over_groups(rules, run, wg);
  return wg;
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
  return detail::plan(rules, ndrange, workgroup, {"partition", kernel});
}

}  // namespace spvjit
