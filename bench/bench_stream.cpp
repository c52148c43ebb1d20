// apps/stream/<kernel>/<n>/{spvjit,openmp}: the STREAM kernels on n doubles as a
// KernelAbstractions user writes them (examples::stream_copy, _scale, _add, _triad, and
// stream_dot: a local-memory tree reduction with barriers in static work-groups of 1024, the
// host adding the partial sums; stream_dot_grid_stride: the same reduction after each work-item
// of 64 groups sums its grid-stride share of the elements; sum_grid_stride, the same for one
// array; triad_grid_stride, the triad written grid-stride over 64 groups' worth of work-items;
// sum_squares_columns, KA's mapreduce(abs2, +, A; dims = 1) of the n elements as a column-major
// array of 1024 rows (4096 from 2^22 elements), one group of 256 per column, each work-item
// striding down its column by 256 before the group's tree), against the same loops in OpenMP
// (bench/openmp_stream.hpp), at an L2-sized n (2^18: 2 MiB per array) and a DRAM one (2^25:
// 256 MiB). An iteration is a fixed number of steps; each step is one launch (the dots: one
// launch, the partial sums read back and added). The counters are bench_heat.cpp's: allocs and
// bytes (per iteration), `steps`, `us_per_step` and bytes_per_second (STREAM's count: every array
// the kernel reads or writes, once per element and step). After timing, each spvjit case compares
// its output with the OpenMP loop's bit for bit (the inputs make every product and sum exact, so
// dot's order of additions does not change its bits) and fails (SkipWithError) naming the first
// difference.
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "spvjit/examples.hpp"
#include "bench/openmp_stream.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

enum class Stream {
  Copy,
  Scale,
  Add,
  Triad,
  Dot,
  DotGridStride,
  SumGridStride,
  TriadGridStride,
  SumSquaresColumns
};

struct StreamKernel {
  Stream kernel;
  const char* name;
  unsigned arrays;  // read or written per element
};

constexpr StreamKernel stream_kernels[] = {{Stream::Copy, "copy", 2},
                                           {Stream::Scale, "scale", 2},
                                           {Stream::Add, "add", 3},
                                           {Stream::Triad, "triad", 3},
                                           {Stream::Dot, "dot", 2},
                                           {Stream::DotGridStride, "dot_grid_stride", 2},
                                           {Stream::SumGridStride, "sum_grid_stride", 1},
                                           {Stream::TriadGridStride, "triad_grid_stride", 3},
                                           {Stream::SumSquaresColumns, "sum_squares_columns", 1}};

struct StreamSize {
  std::size_t n;
  std::size_t steps;  // per iteration: some milliseconds at OpenMP's speed
};

constexpr StreamSize stream_sizes[] = {{std::size_t{1} << 18, 100}, {std::size_t{1} << 25, 2}};

constexpr double stream_scalar = 3.0;  // STREAM's
constexpr std::int64_t dot_group = 1024;
// The grid-stride kernels' launch: this many groups of dot_group, whatever n is.
constexpr std::size_t grid_stride_groups = 64;
constexpr std::int64_t column_group = 256;

// sum_squares_columns' rows: n elements as columns of this many.
std::size_t column_rows(std::size_t n) { return n >= (std::size_t{1} << 22) ? 4096 : 1024; }

bool is_reduction(Stream k) {
  return k == Stream::Dot || k == Stream::DotGridStride || k == Stream::SumGridStride;
}

// a in [1, 2) in sixteenths, b and c in eighths: every product is a multiple of 1/128 below 4,
// so sums of up to 2^25 of them are exact in a double, whatever their order.
struct Arrays {
  std::vector<double> a, b, c;
  explicit Arrays(std::size_t n) : a(n), b(n), c(n) {
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = 1.0 + static_cast<double>(i % 16) / 16.0;
      b[i] = static_cast<double>(i % 7) / 8.0;
      c[i] = static_cast<double>(i % 11) / 8.0;
    }
  }
};

// The step of `k` on host arrays; returns the dot product (0 for the others).
double openmp_step(Stream k, Arrays& x) {
  const std::size_t n = x.a.size();
  switch (k) {
    case Stream::Copy:
      openmp::stream_copy(x.c.data(), x.a.data(), n);
      break;
    case Stream::Scale:
      openmp::stream_scale(x.b.data(), x.c.data(), stream_scalar, n);
      break;
    case Stream::Add:
      openmp::stream_add(x.c.data(), x.a.data(), x.b.data(), n);
      break;
    case Stream::Triad:
    case Stream::TriadGridStride:
      openmp::stream_triad(x.a.data(), x.b.data(), x.c.data(), stream_scalar, n);
      break;
    case Stream::Dot:
    case Stream::DotGridStride:
      return openmp::stream_dot(x.a.data(), x.b.data(), n);
    case Stream::SumGridStride:
      return openmp::stream_sum(x.a.data(), n);
    case Stream::SumSquaresColumns:
      openmp::sum_squares_columns(x.c.data(), x.a.data(), column_rows(n), n / column_rows(n));
      break;
  }
  return 0.0;
}

// The array `k` writes (sum_squares_columns: its first n / column_rows(n) elements).
const std::vector<double>& output(Stream k, const Arrays& x) {
  return k == Stream::Scale ? x.b : k == Stream::Triad || k == Stream::TriadGridStride ? x.a : x.c;
}

double bytes_per_step(const StreamKernel& k, std::size_t n) {
  return static_cast<double>(k.arrays * sizeof(double) * n);
}

void stream_openmp(benchmark::State& state, const StreamKernel& k, const StreamSize& size) {
  Arrays x(size.n);
  double sum = openmp_step(k.kernel, x);  // starts the thread pool, untimed
  measure_steps(
      state, size.steps, bytes_per_step(k, size.n), [&] { sum += openmp_step(k.kernel, x); },
      [] { benchmark::ClobberMemory(); });
  benchmark::DoNotOptimize(sum);
}

const KernelDef& stream_kernel(Stream k) {
  static const KernelDef copy = examples::stream_copy();
  static const KernelDef scale = examples::stream_scale();
  static const KernelDef add = examples::stream_add();
  static const KernelDef triad = examples::stream_triad();
  static const KernelDef dot = examples::stream_dot(dot_group);
  static const KernelDef dot_grid_stride = examples::stream_dot_grid_stride(dot_group);
  static const KernelDef sum_grid_stride = examples::stream_sum_grid_stride(dot_group);
  static const KernelDef triad_grid_stride = examples::stream_triad_grid_stride();
  static const KernelDef sum_squares_columns = examples::sum_squares_columns(column_group);
  switch (k) {
    case Stream::Copy:
      return copy;
    case Stream::Scale:
      return scale;
    case Stream::Add:
      return add;
    case Stream::Triad:
      return triad;
    case Stream::Dot:
      break;
    case Stream::DotGridStride:
      return dot_grid_stride;
    case Stream::SumGridStride:
      return sum_grid_stride;
    case Stream::TriadGridStride:
      return triad_grid_stride;
    case Stream::SumSquaresColumns:
      return sum_squares_columns;
  }
  return dot;
}

// "element i = <spvjit> (spvjit), <OpenMP> (OpenMP)" for the first element that differs, or "".
std::string first_difference(const std::vector<double>& got, const std::vector<double>& expected) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != expected[i]) {
      char text[128];
      std::snprintf(text, sizeof text, "element %zu = %.17g (spvjit), %.17g (OpenMP)", i, got[i],
                    expected[i]);
      return text;
    }
  }
  return "";
}

void stream_spvjit(benchmark::State& state, const StreamKernel& k, const StreamSize& size) {
  Context* ctx = context(state);
  if (!ctx) return;
  Specialization spec;
  const bool is_dot = is_reduction(k.kernel);
  if (is_dot) spec.workgroup = WorkGroup{static_cast<std::size_t>(dot_group)};
  if (k.kernel == Stream::SumSquaresColumns) {
    spec.workgroup = WorkGroup{static_cast<std::size_t>(column_group)};
  }
  Kernel kernel = ctx->jit.compile(stream_kernel(k.kernel), spec);
  const std::size_t n = size.n;
  Arrays host(n);
  Buffer<double> a = ctx->runtime.upload(host.a);
  Buffer<double> b = ctx->runtime.upload(host.b);
  Buffer<double> c = ctx->runtime.upload(host.c);
  const std::size_t rows = column_rows(n), columns = n / rows;
  const std::size_t grid_stride_items = grid_stride_groups * static_cast<std::size_t>(dot_group);
  const std::size_t groups = k.kernel == Stream::DotGridStride || k.kernel == Stream::SumGridStride
                                 ? grid_stride_groups
                                 : n / static_cast<std::size_t>(dot_group);
  Buffer<double> partial = ctx->runtime.zeros<double>(groups);
  std::vector<double> partial_host(groups);
  double dot = 0.0;
  auto step = [&] {
    switch (k.kernel) {
      case Stream::Copy:
        kernel.launch(NDRange{n}, c, a);
        break;
      case Stream::Scale:
        kernel.launch(NDRange{n}, b, c, stream_scalar);
        break;
      case Stream::Add:
        kernel.launch(NDRange{n}, c, a, b);
        break;
      case Stream::Triad:
        kernel.launch(NDRange{n}, a, b, c, stream_scalar);
        break;
      case Stream::TriadGridStride:
        kernel.launch(NDRange{grid_stride_items}, a, b, c, stream_scalar,
                      static_cast<std::int64_t>(n));
        break;
      case Stream::SumSquaresColumns:
        kernel.launch(NDRange{columns * static_cast<std::size_t>(column_group)}, c, a,
                      static_cast<std::int64_t>(rows));
        break;
      case Stream::Dot:
      case Stream::DotGridStride:
      case Stream::SumGridStride: {
        if (k.kernel == Stream::Dot) {
          kernel.launch(NDRange{n}, partial, a, b);
        } else if (k.kernel == Stream::DotGridStride) {
          kernel.launch(NDRange{grid_stride_items}, partial, a, b, static_cast<std::int64_t>(n));
        } else {
          kernel.launch(NDRange{grid_stride_items}, partial, a, static_cast<std::int64_t>(n));
        }
        partial.read(std::span<double>(partial_host));
        dot = 0.0;
        for (double p : partial_host) dot += p;
        break;
      }
    }
  };
  step();  // the first launch, out of the measurement
  ctx->runtime.synchronize();

  measure_steps(state, size.steps, bytes_per_step(k, n), step, [&] { ctx->runtime.synchronize(); });

  const double expected_dot = openmp_step(k.kernel, host);  // host now holds OpenMP's output too
  std::string difference;
  if (is_dot) {
    difference = first_difference({dot}, {expected_dot});
  } else if (k.kernel == Stream::SumSquaresColumns) {
    const std::vector<double> got = c.to_vector();
    const std::vector<double>& expected = output(k.kernel, host);
    difference = first_difference(
        {got.begin(), got.begin() + static_cast<std::ptrdiff_t>(columns)},
        {expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(columns)});
  } else {
    const Buffer<double>& out = k.kernel == Stream::Scale ? b
                                : k.kernel == Stream::Triad || k.kernel == Stream::TriadGridStride
                                    ? a
                                    : c;
    difference = first_difference(out.to_vector(), output(k.kernel, host));
  }
  if (!difference.empty()) {
    state.SkipWithError(("spvjit and OpenMP differ at " + difference).c_str());
  }
}

}  // namespace

void register_stream() {
  for (const StreamKernel& k : stream_kernels) {
    for (const StreamSize& size : stream_sizes) {
      const std::string prefix =
          std::string("apps/stream/") + k.name + "/" + std::to_string(size.n) + "/";
      add_case(prefix + "spvjit", [k, size](benchmark::State& s) {
        stream_spvjit(s, k, size);
      })->Unit(benchmark::kMicrosecond);
      add_case(prefix + "openmp", [k, size](benchmark::State& s) {
        stream_openmp(s, k, size);
      })->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace spvjit::bench
