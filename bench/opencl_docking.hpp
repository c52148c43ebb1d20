// The OpenCL C baseline of apps/docking: bench/bench_docking.cpp's kernel as an OpenCL
// programmer writes it (private float transform[PPWI][3][4] and etot[PPWI] per work-item), built
// from source on the compute cases' raw device (bench/opencl_compute.hpp) and launched with
// clSetKernelArg for every argument, clEnqueueNDRangeKernel and clFinish. MathMode::exact builds
// with no options and `#pragma OPENCL FP_CONTRACT OFF`, MathMode::fast with -cl-fast-relaxed-math.
#pragma once

#include <vector>

#include "bench/compute_cases.hpp"
#include "bench/docking_cases.hpp"
#include "bench/raw_opencl.hpp"

namespace spvjit::bench::opencl {

/// The energies of docking::poses poses, docking::ppwi per work-item.
class Docking {
 public:
  Docking(compute::MathMode mode, const docking::Inputs& in);
  /// One launch over every pose, waited for.
  void run();
  std::vector<float> read();

 private:
  raw::Kernel& kernel_;
  raw::Mem energies_, protein_xyz_, protein_type_, ligand_xyz_, ligand_type_, forcefield_, poses_;
};

}  // namespace spvjit::bench::opencl
