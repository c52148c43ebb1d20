// The OpenCL C baselines of apps/black_scholes, apps/nbody and apps/mandelbrot: each kernel as
// an OpenCL programmer writes it, built from source (clCreateProgramWithSource +
// clBuildProgram) on the raw device of bench/raw_opencl.hpp and launched with clSetKernelArg
// for every argument, clEnqueueNDRangeKernel and clFinish; no spvjit code runs on that path.
// MathMode::exact builds with no options and `#pragma OPENCL FP_CONTRACT OFF` (OpenCL C fuses
// a * b + c by default; off, the arithmetic is as written, as spvjit's builder kernels and the
// -ffp-contract=off OpenMP loops compute it), MathMode::fast with -cl-fast-relaxed-math.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/compute_cases.hpp"
#include "bench/raw_opencl.hpp"

namespace spvjit::bench::opencl {

/// The compute cases' device: PoCL's `pthread` (raw::Pick::threaded), every core, where
/// spvjit's adaptive runtime also spreads launches this large.
raw::Device& compute_device();

/// Black-Scholes over T = float or double: one work-item per option (bench/compute_cases.hpp).
template <class T>
class BlackScholes {
 public:
  BlackScholes(compute::MathMode mode, const compute::OptionInputs<T>& in);
  /// One launch over every option, waited for.
  void run();
  void read(std::vector<T>& call, std::vector<T>& put);

 private:
  raw::Kernel& kernel_;
  std::size_t n_;
  raw::Mem call_, put_, spot_, strike_, years_;
};

/// n-body accelerations, one work-item per body: `local` stages the bodies through a local
/// array of compute::nbody_group bodies per tile (workgroup of that size, barriers), else every
/// body is read from global memory in the inner loop (the device picks the workgroup).
class NBody {
 public:
  NBody(compute::MathMode mode, bool local, const std::vector<float>& pos);
  void run();
  /// acc[3 i + c], c = x, y, z.
  std::vector<float> read();

 private:
  raw::Kernel& kernel_;
  bool local_;
  raw::Mem acc_, pos_;
};

/// Mandelbrot iteration counts, one work-item per pixel over a 2-D ndrange.
class Mandelbrot {
 public:
  explicit Mandelbrot(compute::MathMode mode);
  void run();
  std::vector<std::int32_t> read();

 private:
  raw::Kernel& kernel_;
  raw::Mem out_;
};

}  // namespace spvjit::bench::opencl
