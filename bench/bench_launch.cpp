// launch/<case>: one launch + synchronize per iteration, as on KA's POCL backend where the
// launch waits. launch_async/<case>: the enqueue alone, the cost a caller pays before it can
// queue more work.
#include <string>
#include <vector>

#include "bench/launch_cases.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

// The kernel, its buffers and the launch of one case; the first launch is done (and checked)
// before any timing so that no one-time cost lands in the measurement.
class LaunchFixture {
 public:
  LaunchFixture(Context& ctx, const LaunchCase& c)
      : ctx_(ctx),
        case_(c),
        kernel_(ctx.jit.compile(scale_kernel(c.dims), c.specialization())),
        ndrange_(c.ndrange()),
        workgroup_(c.workgroup()),
        in_(ctx.runtime.upload(inputs(c.elements()))),
        out_(ctx.runtime.zeros<double>(c.elements())) {
    launch();
    ctx_.runtime.synchronize();
    check();
  }

  void launch() {
    if (case_.workgroup_given) {
      kernel_.launch(ndrange_, workgroup_, out_, in_);
    } else {
      kernel_.launch(ndrange_, out_, in_);
    }
  }
  void synchronize() { ctx_.runtime.synchronize(); }

  void check() const {
    const auto in = inputs(case_.elements());
    const auto out = out_.to_vector();
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (out[i] != 2 * in[i]) throw Error("scale kernel computed a wrong result");
    }
  }

 private:
  static std::vector<double> inputs(std::size_t n) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i) + 0.5;
    return v;
  }

  Context& ctx_;
  LaunchCase case_;
  Kernel kernel_;
  NDRange ndrange_;
  WorkGroup workgroup_;
  Buffer<double> in_;
  Buffer<double> out_;
};

void report_over_raw(benchmark::State& state, const LaunchCase& c, double allocs_per_launch) {
  const double raw = raw_allocs_per_launch(c);
  state.counters["raw_allocs"] = raw;
  // A ratio needs a nonzero denominator; when raw OpenCL allocates nothing, say 1 for equally
  // allocation-free and leave the ratio out otherwise (JSON has no infinity).
  if (raw > 0) {
    state.counters["allocs_over_raw"] = allocs_per_launch / raw;
  } else if (allocs_per_launch == 0) {
    state.counters["allocs_over_raw"] = 1.0;
  }
}

void launch_and_wait(benchmark::State& state, const LaunchCase& c) {
  Context* ctx = context(state);
  if (!ctx) return;
  LaunchFixture fixture(*ctx, c);
  AllocMeter meter;
  for (auto _ : state) {
    fixture.launch();
    fixture.synchronize();
  }
  const double allocs = meter.report(state);
  fixture.check();
  report_over_raw(state, c, allocs);
}

void launch_only(benchmark::State& state, const LaunchCase& c) {
  Context* ctx = context(state);
  if (!ctx) return;
  LaunchFixture fixture(*ctx, c);
  // Drain the queue now and then, untimed and uncounted, so that this measures enqueueing and
  // not a queue thousands of commands deep.
  constexpr int drain_every = 64;
  int queued = 0;
  AllocMeter meter;
  for (auto _ : state) {
    fixture.launch();
    if (++queued == drain_every) {
      state.PauseTiming();
      meter.exclude(support::count_allocations([&] { fixture.synchronize(); }));
      queued = 0;
      state.ResumeTiming();
    }
  }
  meter.exclude(support::count_allocations([&] { fixture.synchronize(); }));
  meter.report(state);
}

}  // namespace

void register_launch() {
  for (const LaunchCase& c : launch_cases) {
    add_case("launch/" + std::string(c.name), [c](benchmark::State& s) {
      launch_and_wait(s, c);
    })->Unit(benchmark::kMicrosecond);
  }
  for (const LaunchCase& c : launch_cases) {
    add_case("launch_async/" + std::string(c.name), [c](benchmark::State& s) {
      launch_only(s, c);
    })->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace spvjit::bench
