// KernelAbstractions' six launch cases (benchmark/launch.jl in KA PR #768): the scale kernel
// over 16 elements with workgroup 16, or over (4,4,4) with workgroup (4,4,4), with the
// workgroup and ndrange static (compiled in) or dynamic (given at launch) as each name says.
// Shared by the spvjit cases, the enqueue-only cases and the raw OpenCL baseline.
#pragma once

#include <span>

#include "spvjit/kernel.hpp"
#include "spvjit/ndrange.hpp"

namespace spvjit::bench {

struct LaunchCase {
  const char* name;  ///< KA's name, e.g. "static workgroup, dynamic ndrange"
  unsigned dims;     ///< 1: 16 elements; 3: (4,4,4)
  bool static_workgroup;
  bool static_ndrange;
  bool workgroup_given;  ///< dynamic workgroup passed at launch

  NDRange ndrange() const { return dims == 3 ? NDRange{4, 4, 4} : NDRange{16}; }
  WorkGroup workgroup() const { return dims == 3 ? WorkGroup{4, 4, 4} : WorkGroup{16}; }
  std::size_t elements() const { return ndrange().total(); }
  Specialization specialization() const {
    Specialization spec;
    if (static_workgroup) spec.workgroup = workgroup();
    if (static_ndrange) spec.ndrange = ndrange();
    return spec;
  }
};

inline constexpr LaunchCase launch_cases[] = {
    {"3D static workgroup, dynamic ndrange", 3, true, false, false},
    {"3D static workgroup, static ndrange", 3, true, true, false},
    {"dynamic workgroup, dynamic ndrange", 1, false, false, false},
    {"dynamic workgroup, dynamic ndrange, workgroupsize given", 1, false, false, true},
    {"static workgroup, dynamic ndrange", 1, true, false, false},
    {"static workgroup, static ndrange", 1, true, true, false},
};

/// Heap allocations per launch + clFinish of the same SPIR-V through raw OpenCL (measured once
/// per case and process), for the `allocs_over_raw` counter. Throws when OpenCL fails.
double raw_allocs_per_launch(const LaunchCase& c);

}  // namespace spvjit::bench
