// A local mirror of KernelAbstractions' partition rules (src/nditeration.jl and the launch-time
// checks in src/KernelAbstractions.jl), for the partition/* cases until spvjit's own
// `partition()` (include/spvjit/partition.hpp, on another branch) reaches main; switch the cases
// to spvjit::partition then. Everything is constexpr so that, as in Julia, a kernel whose sizes
// are all static gets its partition folded at compile time.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>

namespace spvjit::bench::ka {

using Extent = std::array<std::size_t, 3>;  ///< missing dimensions are 1

/// The sizes a kernel was specialized for (KA's StaticSize); nullopt = DynamicSize.
struct StaticSizes {
  std::optional<Extent> workgroup;
  std::optional<Extent> ndrange;
};

struct Partition {
  Extent blocks{1, 1, 1};      ///< work-groups per dimension, rounded up
  Extent workgroup{1, 1, 1};   ///< padded with 1
  bool dynamic_check = false;  ///< the last group overhangs the ndrange: bounds-check it
};

/// KA's partition(ndrange, workgroupsize): ceil-divide each dimension; a bounds check is needed
/// unless every dimension divides exactly.
constexpr Partition partition(const Extent& ndrange, const Extent& workgroup) {
  Partition p;
  p.workgroup = workgroup;
  for (std::size_t d = 0; d < 3; ++d) {
    if (workgroup[d] == 0) throw std::invalid_argument("partition: workgroup has a zero dimension");
    p.blocks[d] = (ndrange[d] + workgroup[d] - 1) / workgroup[d];
    p.dynamic_check = p.dynamic_check || ndrange[d] % workgroup[d] != 0;
  }
  return p;
}

/// KA's partition(kernel, ndrange, workgroupsize): static sizes win, a launch value that
/// contradicts a static one is an error, and a size known nowhere is an error.
constexpr Partition partition(const StaticSizes& kernel, std::optional<Extent> ndrange,
                              std::optional<Extent> workgroup) {
  if (kernel.ndrange) {
    if (ndrange && *ndrange != *kernel.ndrange) {
      throw std::invalid_argument("partition: launch ndrange differs from the static ndrange");
    }
    ndrange = kernel.ndrange;
  }
  if (kernel.workgroup) {
    if (workgroup && *workgroup != *kernel.workgroup) {
      throw std::invalid_argument("partition: launch workgroup differs from the static workgroup");
    }
    workgroup = kernel.workgroup;
  }
  if (!ndrange) throw std::invalid_argument("partition: no ndrange, static or given");
  if (!workgroup) throw std::invalid_argument("partition: no workgroup, static or given");
  return partition(*ndrange, *workgroup);
}

}  // namespace spvjit::bench::ka
