// The OpenCL C of bench/opencl_compute.hpp's kernels, each built once per process and mode, and
// their raw launches.
#include "bench/opencl_compute.hpp"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>

namespace spvjit::bench::opencl {

namespace {

// The kernels' OpenCL C. `real` is float or double (black_scholes), typedef'd by the header
// kernel_source() puts in front.
constexpr std::string_view black_scholes_source = R"CL(
__kernel void black_scholes(__global real* call, __global real* put,
                            __global const real* spot, __global const real* strike,
                            __global const real* years, real rate, real volatility) {
  const size_t i = get_global_id(0);
  const real one_half = (real)0.5;
  const real sqrt1_2 = (real)0.70710678118654752440;
  const real s = spot[i], k = strike[i], t = years[i];
  const real sqrt_t = sqrt(t);
  const real d1 = (log(s / k) + (rate + one_half * volatility * volatility) * t) /
                  (volatility * sqrt_t);
  const real d2 = d1 - volatility * sqrt_t;
  const real cnd1 = one_half * erfc(-d1 * sqrt1_2);
  const real cnd2 = one_half * erfc(-d2 * sqrt1_2);
  const real discount = k * exp(-rate * t);
  call[i] = s * cnd1 - discount * cnd2;
  put[i] = discount * ((real)1 - cnd2) - s * ((real)1 - cnd1);
}
)CL";

constexpr std::string_view nbody_global_source = R"CL(
__kernel void nbody_global(__global float* acc, __global const float* pos, int n,
                           float softening2) {
  const int i = get_global_id(0);
  const float xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float dx = pos[4 * j] - xi, dy = pos[4 * j + 1] - yi, dz = pos[4 * j + 2] - zi;
    const float r2 = dx * dx + dy * dy + dz * dz + softening2;
    const float inv = 1.0f / sqrt(r2);
    const float s = pos[4 * j + 3] * inv * inv * inv;
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
  acc[3 * i] = ax;
  acc[3 * i + 1] = ay;
  acc[3 * i + 2] = az;
}
)CL";

// The classic GPU n-body: each work-item stages one body of the tile, the group waits, every
// work-item reads the whole tile. GROUP comes from the header (compute::nbody_group).
constexpr std::string_view nbody_local_source = R"CL(
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void nbody_local(__global float* acc, __global const float* pos, int n, float softening2) {
  __local float tile[4 * GROUP];
  const int i = get_global_id(0), lid = get_local_id(0);
  const float xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += GROUP) {
    for (int c = 0; c < 4; ++c) tile[4 * lid + c] = pos[4 * (base + lid) + c];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < GROUP; ++k) {
      const float dx = tile[4 * k] - xi, dy = tile[4 * k + 1] - yi, dz = tile[4 * k + 2] - zi;
      const float r2 = dx * dx + dy * dy + dz * dz + softening2;
      const float inv = 1.0f / sqrt(r2);
      const float s = tile[4 * k + 3] * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  acc[3 * i] = ax;
  acc[3 * i + 1] = ay;
  acc[3 * i + 2] = az;
}
)CL";

constexpr std::string_view mandelbrot_source = R"CL(
__kernel void mandelbrot(__global int* out, float x0, float y0, float step, int iterations) {
  const int px = get_global_id(0), py = get_global_id(1);
  const float cx = x0 + (float)px * step, cy = y0 + (float)py * step;
  float x = 0.0f, y = 0.0f;
  int it = 0;
  while (it < iterations && x * x + y * y <= 4.0f) {
    const float xt = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = xt;
    ++it;
  }
  out[py * get_global_size(0) + px] = it;
}
)CL";

// The source as built: the mode's pragma (exact: no fused multiply-adds), `real` and GROUP.
std::string kernel_source(std::string_view body, compute::MathMode mode, bool f64) {
  std::string text;
  if (mode == compute::MathMode::exact) text += "#pragma OPENCL FP_CONTRACT OFF\n";
  if (f64) text += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  text += f64 ? "typedef double real;\n" : "typedef float real;\n";
  text += "#define GROUP " + std::to_string(compute::nbody_group) + "\n";
  text += body;
  return text;
}

// Each kernel is built once per process (Google Benchmark calls a case's function several
// times, each building its fixture anew).
raw::Kernel& built(std::string_view body, const char* name, compute::MathMode mode, bool f64) {
  static std::map<std::tuple<std::string, compute::MathMode, bool>, std::unique_ptr<raw::Kernel>>
      kernels;
  auto& kernel = kernels[{name, mode, f64}];
  if (!kernel) {
    kernel = std::make_unique<raw::Kernel>(
        compute_device(), raw::Source{kernel_source(body, mode, f64)}, name,
        mode == compute::MathMode::fast ? "-cl-fast-relaxed-math" : "");
  }
  return *kernel;
}

template <class A>
void set_arg(cl_kernel k, cl_uint index, const A& value) {
  raw::check(clSetKernelArg(k, index, sizeof(A), &value), "clSetKernelArg");
}

void launch(raw::Kernel& kernel, cl_uint dims, const std::size_t* global,
            const std::size_t* local) {
  raw::check(clEnqueueNDRangeKernel(compute_device().queue(), kernel.get(), dims, nullptr, global,
                                    local, 0, nullptr, nullptr),
             "clEnqueueNDRangeKernel");
  raw::check(clFinish(compute_device().queue()), "clFinish");
}

void read_buffer(const raw::Mem& mem, std::size_t bytes, void* out) {
  raw::check(clEnqueueReadBuffer(compute_device().queue(), mem.get(), CL_TRUE, 0, bytes, out, 0,
                                 nullptr, nullptr),
             "clEnqueueReadBuffer");
}

template <class T>
raw::Mem upload(const std::vector<T>& host) {
  return compute_device().buffer(host.size() * sizeof(T), host.data());
}

}  // namespace

raw::Device& compute_device() {
  static raw::Device device(raw::Pick::threaded);
  return device;
}

template <class T>
BlackScholes<T>::BlackScholes(compute::MathMode mode, const compute::OptionInputs<T>& in)
    : kernel_(built(black_scholes_source, "black_scholes", mode, sizeof(T) == 8)),
      n_(in.spot.size()),
      call_(upload(in.spot)),  // overwritten by every launch
      put_(upload(in.spot)),
      spot_(upload(in.spot)),
      strike_(upload(in.strike)),
      years_(upload(in.years)) {}

template <class T>
void BlackScholes<T>::run() {
  cl_kernel k = kernel_.get();
  set_arg(k, 0, call_.get());
  set_arg(k, 1, put_.get());
  set_arg(k, 2, spot_.get());
  set_arg(k, 3, strike_.get());
  set_arg(k, 4, years_.get());
  set_arg(k, 5, static_cast<T>(compute::black_scholes_rate));
  set_arg(k, 6, static_cast<T>(compute::black_scholes_volatility));
  launch(kernel_, 1, &n_, nullptr);
}

template <class T>
void BlackScholes<T>::read(std::vector<T>& call, std::vector<T>& put) {
  call.resize(n_);
  put.resize(n_);
  read_buffer(call_, n_ * sizeof(T), call.data());
  read_buffer(put_, n_ * sizeof(T), put.data());
}

template class BlackScholes<float>;
template class BlackScholes<double>;

NBody::NBody(compute::MathMode mode, bool local, const std::vector<float>& pos)
    : kernel_(local ? built(nbody_local_source, "nbody_local", mode, false)
                    : built(nbody_global_source, "nbody_global", mode, false)),
      local_(local),
      acc_(compute_device().buffer(3 * compute::nbody_bodies * sizeof(float),
                                   std::vector<float>(3 * compute::nbody_bodies).data())),
      pos_(upload(pos)) {}

void NBody::run() {
  cl_kernel k = kernel_.get();
  set_arg(k, 0, acc_.get());
  set_arg(k, 1, pos_.get());
  set_arg(k, 2, static_cast<cl_int>(compute::nbody_bodies));
  set_arg(k, 3, compute::nbody_softening2);
  const std::size_t global = compute::nbody_bodies, group = compute::nbody_group;
  launch(kernel_, 1, &global, local_ ? &group : nullptr);
}

std::vector<float> NBody::read() {
  std::vector<float> acc(3 * compute::nbody_bodies);
  read_buffer(acc_, acc.size() * sizeof(float), acc.data());
  return acc;
}

Mandelbrot::Mandelbrot(compute::MathMode mode)
    : kernel_(built(mandelbrot_source, "mandelbrot", mode, false)),
      out_(compute_device().buffer(
          compute::mandelbrot_width * compute::mandelbrot_height * sizeof(std::int32_t),
          std::vector<std::int32_t>(compute::mandelbrot_width * compute::mandelbrot_height)
              .data())) {}

void Mandelbrot::run() {
  cl_kernel k = kernel_.get();
  set_arg(k, 0, out_.get());
  set_arg(k, 1, compute::mandelbrot_x0);
  set_arg(k, 2, compute::mandelbrot_y0);
  set_arg(k, 3, compute::mandelbrot_step);
  set_arg(k, 4, static_cast<cl_int>(compute::mandelbrot_iterations));
  const std::size_t global[2] = {compute::mandelbrot_width, compute::mandelbrot_height};
  launch(kernel_, 2, global, nullptr);
}

std::vector<std::int32_t> Mandelbrot::read() {
  std::vector<std::int32_t> out(compute::mandelbrot_width * compute::mandelbrot_height);
  read_buffer(out_, out.size() * sizeof(std::int32_t), out.data());
  return out;
}

}  // namespace spvjit::bench::opencl
