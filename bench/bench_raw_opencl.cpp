// baseline/raw_opencl/launch/<case>: KA's launch cases through raw OpenCL calls, with the very
// SPIR-V spvjit builds (Jit::spirv), so the gap to launch/<case> is spvjit's own overhead.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/launch_cases.hpp"
#include "bench/raw_opencl.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

raw::Device& raw_device() {
  static raw::Device device;
  return device;
}

// The scale kernel's arguments: A, B, the hidden ndrange (3), then the bounds checks' ones.
constexpr cl_uint first_bounds_arg = 5;

// One case's kernel and buffers on the raw device; `launch` is the whole per-launch code.
class RawLaunch {
 public:
  RawLaunch(Context& ctx, const LaunchCase& c)
      : host_in_(c.elements(), 1.5),
        host_out_(c.elements(), 0.0),
        kernel_(raw_device(), ctx.jit.spirv(scale_kernel(c.dims), c.specialization()),
                scale_kernel(c.dims).name()),
        in_(raw_device().buffer(host_in_.size() * sizeof(double), host_in_.data())),
        out_(raw_device().buffer(host_out_.size() * sizeof(double), host_out_.data())),
        dims_(c.dims) {
    const NDRange nd = c.ndrange();
    const WorkGroup wg = c.workgroup();
    for (unsigned d = 0; d < 3; ++d) {
      global_[d] = nd.size[d];  // the cases' workgroups divide their ndranges
      local_[d] = wg.size[d];
      extent_[d] = static_cast<cl_long>(nd.size[d]);
    }
    // The bounds checks' hidden arguments (common/bounds.hpp) after the ndrange's: each buffer's
    // elements, then the record, which a launch that stays in bounds never writes. They do not
    // change between launches, so, as a raw OpenCL program would, they are set once.
    const cl_long elements = static_cast<cl_long>(host_in_.size());
    const cl_ulong no_record = 0;
    cl_kernel k = kernel_.get();
    // A, B's extents, the record, and the least extent (common/bounds.hpp).
    if (kernel_.arguments() == first_bounds_arg + 4) {
      for (cl_uint a : {first_bounds_arg, first_bounds_arg + 1}) {
        raw::check(clSetKernelArg(k, a, sizeof(cl_long), &elements), "clSetKernelArg");
      }
      const cl_long fast_end = std::min(elements, extent_[0]);
      raw::check(clSetKernelArg(k, first_bounds_arg + 3, sizeof(fast_end), &fast_end),
                 "clSetKernelArg");
      raw::check(clSetKernelArg(k, first_bounds_arg + 2, sizeof(no_record), &no_record),
                 "clSetKernelArg");
    }
    launch();
    check();
  }

  void launch() {
    cl_mem out = out_.get();
    cl_mem in = in_.get();
    cl_kernel k = kernel_.get();
    raw::check(clSetKernelArg(k, 0, sizeof(cl_mem), &out), "clSetKernelArg");
    raw::check(clSetKernelArg(k, 1, sizeof(cl_mem), &in), "clSetKernelArg");
    // spvjit's hidden ndrange arguments follow the user's two, when the kernel has them.
    for (cl_uint a = 2; a < std::min(kernel_.arguments(), first_bounds_arg); ++a) {
      raw::check(clSetKernelArg(k, a, sizeof(cl_long), &extent_[a - 2]), "clSetKernelArg");
    }
    raw::check(clEnqueueNDRangeKernel(raw_device().queue(), k, dims_, nullptr, global_, local_, 0,
                                      nullptr, nullptr),
               "clEnqueueNDRangeKernel");
    raw::check(clFinish(raw_device().queue()), "clFinish");
  }

  void check() {
    raw::check(clEnqueueReadBuffer(raw_device().queue(), out_.get(), CL_TRUE, 0,
                                   host_out_.size() * sizeof(double), host_out_.data(), 0, nullptr,
                                   nullptr),
               "clEnqueueReadBuffer");
    for (double v : host_out_) {
      if (v != 3.0) throw Error("raw OpenCL: scale kernel computed a wrong result");
    }
  }

 private:
  std::vector<double> host_in_;
  std::vector<double> host_out_;
  raw::Kernel kernel_;
  raw::Mem in_;
  raw::Mem out_;
  cl_uint dims_;
  std::size_t global_[3] = {1, 1, 1};
  std::size_t local_[3] = {1, 1, 1};
  cl_long extent_[3] = {1, 1, 1};
};

void raw_launch(benchmark::State& state, const LaunchCase& c) {
  Context* ctx = context(state);
  if (!ctx) return;
  RawLaunch fixture(*ctx, c);
  AllocMeter meter;
  for (auto _ : state) fixture.launch();
  meter.report(state);
  fixture.check();
}

}  // namespace

double raw_allocs_per_launch(const LaunchCase& c) {
  static std::map<std::string, double> measured;
  auto it = measured.find(c.name);
  if (it != measured.end()) return it->second;
  RawLaunch fixture(shared_context(), c);
  constexpr int launches = 200;
  const auto counts = support::count_allocations([&] {
    for (int i = 0; i < launches; ++i) fixture.launch();
  });
  const double per_launch = static_cast<double>(counts.allocations) / launches;
  measured.emplace(c.name, per_launch);
  return per_launch;
}

void register_raw_opencl() {
  for (const LaunchCase& c : launch_cases) {
    add_case("baseline/raw_opencl/launch/" + std::string(c.name), [c](benchmark::State& s) {
      raw_launch(s, c);
    })->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace spvjit::bench
