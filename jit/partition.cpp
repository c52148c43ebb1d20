// partition and choose_workgroup (include/spvjit/partition.hpp). Strings are built only on the
// way to a throw: the successful path allocates nothing.
#include "spvjit/partition.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "spvjit/error.hpp"

namespace spvjit {

namespace {

std::string show(const detail::Extent3* e) { return e ? e->to_string() : std::string("none"); }

template <class E>
std::string show(const std::optional<E>& e) {
  return e ? e->to_string() : std::string("dynamic");
}

// Like KernelAbstractions, every geometry error shows all four sizes, static and launch.
[[noreturn]] void fail(std::string_view kernel, const std::string& what,
                       const Specialization& statics, const NDRange* nd, const WorkGroup* wg) {
  throw UserError("partition of kernel '" + std::string(kernel) + "': " + what +
                  " [ndrange static " + show(statics.ndrange) + ", launch " + show(nd) +
                  "; workgroup static " + show(statics.workgroup) + ", launch " + show(wg) + "]");
}

bool dims_ok(const detail::Extent3& e) { return e.dims >= 1 && e.dims <= 3; }

}  // namespace

WorkGroup choose_workgroup(const NDRange& nd, const WorkGroupLimits& limits) {
  WorkGroup wg;
  wg.dims = nd.dims;
  std::size_t budget = std::max<std::size_t>(limits.max_items, 1);
  for (unsigned d = 0; d < 3; ++d) {
    const std::size_t per_dim =
        limits.max_per_dimension[d] ? limits.max_per_dimension[d] : SIZE_MAX;
    std::size_t size = std::min({std::max<std::size_t>(nd.size[d], 1), budget, per_dim});
    // Only round down when the ndrange spills over anyway: a smaller ndrange fits one group.
    const std::size_t multiple = std::max<std::size_t>(limits.preferred_multiple, 1);
    if (d == 0 && nd.size[0] > size && size > multiple) size -= size % multiple;
    wg.size[d] = size;
    budget /= size;
  }
  return wg;
}

Partition partition(const Specialization& statics, const NDRange* ndrange,
                    const WorkGroup* workgroup, const WorkGroupLimits& limits,
                    std::string_view kernel) {
  if (!ndrange && !statics.ndrange) {
    fail(kernel, "no ndrange: the kernel is dynamically sized; pass one at launch or specialize it",
         statics, ndrange, workgroup);
  }
  if (ndrange && statics.ndrange && !(*ndrange == *statics.ndrange)) {
    fail(kernel, "the launch ndrange " + ndrange->to_string() + " differs from the static ndrange " +
                     statics.ndrange->to_string(),
         statics, ndrange, workgroup);
  }
  if (workgroup && statics.workgroup && !(*workgroup == *statics.workgroup)) {
    fail(kernel, "the launch workgroup " + workgroup->to_string() +
                     " differs from the static workgroup " + statics.workgroup->to_string(),
         statics, ndrange, workgroup);
  }
  Partition p;
  p.ndrange = statics.ndrange ? *statics.ndrange : *ndrange;
  if (!dims_ok(p.ndrange)) {
    fail(kernel, "the ndrange has " + std::to_string(p.ndrange.dims) + " dimensions; expected 1 to 3",
         statics, ndrange, workgroup);
  }
  if (statics.workgroup) {
    p.workgroup = *statics.workgroup;
  } else if (workgroup) {
    p.workgroup = *workgroup;
  } else if (limits.max_items > 0) {
    p.workgroup = choose_workgroup(p.ndrange, limits);
  } else {
    fail(kernel, "no workgroup: none is static, none was given and no device limits to choose one",
         statics, ndrange, workgroup);
  }
  const WorkGroup& wg = p.workgroup;
  if (!dims_ok(wg) || wg.dims > p.ndrange.dims) {
    fail(kernel, "the workgroup has " + std::to_string(wg.dims) + " dimensions; expected 1 to " +
                     std::to_string(p.ndrange.dims) + " (no more than the ndrange)",
         statics, ndrange, workgroup);
  }
  // Dimensions past `dims` are 1 by construction of Extent3; a hand-set size there would be
  // silently enqueued, so it is rejected.
  std::size_t items = 1;
  for (unsigned d = 0; d < 3; ++d) {
    const std::size_t n = p.ndrange.size[d];
    const std::size_t w = wg.size[d];
    if ((d >= p.ndrange.dims && n != 1) || (d >= wg.dims && w != 1)) {
      fail(kernel, "a size beyond the declared dimensions is not 1", statics, ndrange, workgroup);
    }
    if (w == 0) fail(kernel, "the workgroup has a zero dimension", statics, ndrange, workgroup);
    if (limits.max_per_dimension[d] && w > limits.max_per_dimension[d]) {
      fail(kernel, "the workgroup exceeds the device's maximum of " +
                       std::to_string(limits.max_per_dimension[d]) + " in dimension " +
                       std::to_string(d),
           statics, ndrange, workgroup);
    }
    items *= w;
    p.blocks[d] = n / w + (n % w != 0);
    if (p.blocks[d] > SIZE_MAX / w) fail(kernel, "the global size overflows size_t", statics, ndrange, workgroup);
    p.global[d] = p.blocks[d] * w;
    if (n % w != 0) p.bounds_check = true;
  }
  if (limits.max_items && items > limits.max_items) {
    fail(kernel, "the workgroup has " + std::to_string(items) + " work-items; the kernel allows " +
                     std::to_string(limits.max_items),
         statics, ndrange, workgroup);
  }
  p.dims = p.ndrange.dims;
  return p;
}

}  // namespace spvjit
