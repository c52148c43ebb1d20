// Runtime: choose the SPIR-V device (or PoCL's basic + pthread pair), make the context and the
// in-order queues, and keep commands on two queues in the order they were enqueued.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "runtime/core.hpp"
#include "runtime/pocl_diagnosis.hpp"
#include "common/env.hpp"
#include "common/exit_gate.hpp"
#include "common/error_report.hpp"
#include "common/full_stack.hpp"
#include "common/log.hpp"

namespace spvjit {

namespace detail {

namespace {

// PoCL names its `basic` device "cpu-minimal-<arch>-<cpu>" and `pthread` "cpu-<arch>-<cpu>".
bool is_pocl_basic(const DeviceInfo& d) { return d.name.rfind("cpu-minimal", 0) == 0; }

std::string devices_seen(const std::vector<SeenDevice>& seen) {
  if (seen.empty()) {
    std::string msg = "none (the ICD loader found no platform";
    if (const char* v = std::getenv("OCL_ICD_VENDORS"))
      msg += std::string("; OCL_ICD_VENDORS=") + v;
    return msg + ")";
  }
  std::string msg;
  for (size_t i = 0; i < seen.size(); ++i) msg += (i ? "; " : "") + seen[i].info.summary();
  return msg;
}

// The variables a Runtime reads (common/env.hpp), all checked whatever the dispatch: a typo in one
// is a UserError even where the value would have no effect.
struct RuntimeEnv {
  std::string device;
  std::optional<std::size_t> inline_threshold;
  std::optional<unsigned> inline_threads;
  std::optional<std::size_t> split_threshold;
  std::optional<std::uint64_t> inline_spin_us;
};

RuntimeEnv read_runtime_env() {
  log_level_from_env();  // only to check it: the level is read once per process (common/log.hpp)
  RuntimeEnv env;
  env.device = env_value("SPVJIT_DEVICE").value_or(std::string());
  env.inline_threshold =
      env_number("SPVJIT_INLINE_THRESHOLD", 0, SIZE_MAX, "a number of work-items");
  if (const auto v = env_number("SPVJIT_INLINE_THREADS", 0, 256, "a number of threads")) {
    env.inline_threads = static_cast<unsigned>(*v);
  }
  env.split_threshold = env_number("SPVJIT_SPLIT_THRESHOLD", 0, SIZE_MAX, "a number of work-items");
  env.inline_spin_us = env_number("SPVJIT_INLINE_SPIN_US", 0, 1000000, "microseconds");
  return env;
}

ClHandle<cl_command_queue> make_queue(cl_context context, cl_device_id device,
                                      const std::string& name) {
  cl_int err = CL_SUCCESS;
  ClHandle<cl_command_queue> q(clCreateCommandQueueWithProperties(context, device, nullptr, &err));
  check_cl(err, "clCreateCommandQueueWithProperties", name);
  return q;
}

// exit()'s handler (common/exit_gate.hpp), after the threads inside spvjit left: waits for the
// commands they enqueued on a device that runs them on its own threads (PoCL's pthread: its
// driver thread compiles a launch's work-group function, then runs it, after the enqueue
// returned, and crashed on libpocl statics exit() then destroyed). `basic` runs a command only
// inside a call to it, on the calling thread: nothing of it runs once no thread is inside.
// A marker polled, not clFinish: a kernel that never ends delays the exit by the deadline, no more.
void drain_at_exit(void* owner, std::chrono::steady_clock::time_point deadline) {
  auto& core = *static_cast<RuntimeCore*>(owner);
  if (is_pocl_basic(core.info)) return;
  cl_event marker = nullptr;
  if (clEnqueueMarkerWithWaitList(core.queue.get(), 0, nullptr, &marker) != CL_SUCCESS) return;
  clFlush(core.queue.get());
  cl_int status = CL_QUEUED;
  while (clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                        nullptr) == CL_SUCCESS &&
         status > CL_COMPLETE && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  clReleaseEvent(marker);
}

}  // namespace

namespace {
// Set at spvjit's first OpenCL call: after it, PoCL has read POCL_DEVICES and setting it would
// change nothing (and setenv would race PoCL's getenv calls on other threads).
std::atomic<bool> g_opencl_started{false};
}  // namespace

bool opencl_started() noexcept { return g_opencl_started.load(); }
void mark_opencl_started() noexcept { g_opencl_started.store(true); }

RuntimeCore::RuntimeCore(const RuntimeOptions& options) {
  const RuntimeEnv env = read_runtime_env();
  adaptive = options.dispatch == Dispatch::Adaptive;
  std::optional<std::size_t> threshold;
  if (adaptive)
    threshold = options.inline_threshold ? options.inline_threshold : env.inline_threshold;
  // The options, SPVJIT_INLINE_THREADS, or every hardware thread.
  const unsigned threads = !adaptive ? 1
                                     : options.inline_threads.value_or(env.inline_threads.value_or(
                                           std::max(1u, std::thread::hardware_concurrency())));
  if (adaptive && !opencl_started() && !std::getenv("POCL_DEVICES")) {
    ::setenv("POCL_DEVICES", "basic pthread", 0);
  }

  const std::string wanted =
      options.device_name_contains.empty() ? env.device : options.device_name_contains;
  auto seen = enumerate_devices();
  const SeenDevice* chosen = nullptr;
  const SeenDevice* basic = nullptr;
  // Dispatch::Single with no name asked for: `basic` (one thread, the launching one) only when
  // no other device takes SPIR-V. An adaptive Runtime made first has set POCL_DEVICES to
  // "basic pthread", and `basic` comes first: a second, Single Runtime took it and ran its
  // launches on one thread, outside the lock the adaptive one serializes `basic` with.
  const SeenDevice* basic_fallback = nullptr;
  for (const auto& d : seen) {
    if (!d.info.accepts_spirv()) continue;
    if (!adaptive && wanted.empty() && is_pocl_basic(d.info)) {
      if (!basic_fallback) basic_fallback = &d;
      continue;
    }
    if (adaptive) {
      if (is_pocl_basic(d.info)) {
        if (!basic) basic = &d;
      } else if (!chosen && d.info.name.rfind("cpu-", 0) == 0) {
        chosen = &d;
      }
      continue;
    }
    if (!wanted.empty() && d.info.name.find(wanted) == std::string::npos) continue;
    chosen = &d;
    break;
  }
  if (!adaptive && !chosen) chosen = basic_fallback;
  if (adaptive && (!chosen || !basic || chosen->platform != basic->platform)) {
    const char* env = std::getenv("POCL_DEVICES");
    const std::string problems = pocl_startup_problems(seen);
    throw DeviceNotFoundError(
        "Dispatch::Adaptive needs PoCL's basic (cpu-minimal-*) and pthread (cpu-*) devices on "
        "one platform, both accepting SPIR-V; devices seen: " +
        devices_seen(seen) + ". " +
        (!problems.empty()
             ? problems
             : "POCL_DEVICES is " + (env ? std::string("'") + env + "'" : std::string("unset")) +
                   "; set POCL_DEVICES=\"basic pthread\" before the process makes its first "
                   "OpenCL call."));
  }
  if (!chosen) {
    std::string msg = "no OpenCL device accepts SPIR-V";
    if (!wanted.empty()) msg += " with a name containing '" + wanted + "'";
    msg += " (CL_DEVICE_IL_VERSION must name SPIR-V); devices seen: " + devices_seen(seen) + ". ";
    // A known reason PoCL did not start says more than the install hint.
    const std::string problems = pocl_startup_problems(seen);
    msg += problems.empty() ? "Install PoCL 6 with `make deps` (third_party/pocl/build.sh)."
                            : problems;
    throw DeviceNotFoundError(msg);
  }
  platform = chosen->platform;
  device = chosen->device;
  info = chosen->info;
  if (basic) {
    inline_device = basic->device;
    inline_info = basic->info;
  }
  const auto all = devices();
  cl_int err = CL_SUCCESS;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(platform), 0};
  context = ClHandle<cl_context>(
      clCreateContext(props, static_cast<cl_uint>(all.size()), all.data(), nullptr, nullptr, &err));
  check_cl(err, "clCreateContext", info.name);
  queue = make_queue(context.get(), device, info.name);
  last_queue_ = queue.get();
  if (adaptive) {
    inline_queue = make_queue(context.get(), inline_device, inline_info.name);
    if (env_flag("SPVJIT_DIRECT_LAUNCH").value_or(true)) {
      if (const auto api = KernelRunnerApi::find(platform)) {
        kernel_runner = *api;
      } else {
        SPVJIT_LOG_INFO(
            "SPVJIT_DIRECT_LAUNCH: the platform has no kernel runner (PoCL patch 0016); launches "
            "are enqueued");
      }
    }
    if (threads > 1) {
      const auto spin =
          env.inline_spin_us ? std::chrono::microseconds(*env.inline_spin_us) : inline_spin;
      inline_pool = std::make_unique<InlinePool>(context.get(), inline_device, threads, spin,
                                                 kernel_runner.run);
    }
    const auto split = !inline_pool              ? std::optional<std::size_t>(SIZE_MAX)
                       : options.split_threshold ? options.split_threshold
                                                 : env.split_threshold;
    Thresholds measured;
    if (!threshold || !split) measured = measure_thresholds(*this);
    inline_threshold = threshold.value_or(measured.inline_items);
    split_threshold = split ? *split : measured.split_items;
  }
  SPVJIT_LOG_INFO("device: " + info.summary() + " (" + std::to_string(seen.size()) +
                  " devices seen)" +
                  (adaptive ? "; adaptive dispatch: " + std::to_string(threads) +
                                  " inline threads (split above " +
                                  (split_threshold == SIZE_MAX ? std::string("never")
                                                               : std::to_string(split_threshold)) +
                                  " work-items); up to " + std::to_string(inline_threshold) +
                                  " work-items run inline on " + inline_info.name
                            : std::string()));
  // Last: a constructor that threw runs no destructor to remove it.
  add_exit_drain(this, drain_at_exit);
}

RuntimeCore::~RuntimeCore() { remove_exit_drain(this); }

std::vector<cl_device_id> RuntimeCore::devices() const {
  if (inline_device) return {device, inline_device};
  return {device};
}

std::unique_lock<std::mutex> RuntimeCore::enter_adaptive(cl_command_queue q) {
  std::unique_lock<std::mutex> lock(dispatch_mutex_);
  const cl_command_queue last = last_queue_.load(std::memory_order_relaxed);
  if (q != last) {
    check_cl(clFinish(last), "clFinish", "before switching devices");
    last_queue_.store(q, std::memory_order_release);
  }
  return lock;
}

void RuntimeCore::finish() {
  // No lock: a launch that returned before this call has stored its queue in last_queue_
  // (release), and a switch finished the queue before it.
  const std::uint64_t launched = launches_.load(std::memory_order_acquire);
  if (launched == launches_finished_.load(std::memory_order_acquire)) return;
  const cl_command_queue q = adaptive ? last_queue_.load(std::memory_order_acquire) : queue.get();
  check_cl(clFinish(q), "clFinish");
  std::uint64_t seen = launches_finished_.load(std::memory_order_relaxed);
  while (seen < launched &&
         !launches_finished_.compare_exchange_weak(seen, launched, std::memory_order_release,
                                                   std::memory_order_relaxed)) {
  }
}

RuntimeCore& live_core(const std::shared_ptr<RuntimeCore>& core) {
  user_assert(core, {"Runtime"}) << "this Runtime was moved from; use the one it moved to";
  return *core;
}

}  // namespace detail

Runtime::Runtime() : Runtime(RuntimeOptions{}) {}
// PoCL's device probe, and the threshold measurement's first launches (which compile), run on a
// full-sized stack (common/full_stack.hpp).
Runtime::Runtime(const RuntimeOptions& options)
    : core_(
          detail::with_full_stack([&] { return std::make_shared<detail::RuntimeCore>(options); })) {
  detail::note_new_owner();
}
Runtime::~Runtime() = default;
Runtime::Runtime(Runtime&&) noexcept = default;
Runtime& Runtime::operator=(Runtime&&) noexcept = default;

const DeviceInfo& Runtime::device() const { return detail::live_core(core_).info; }
const DeviceInfo* Runtime::inline_device() const {
  auto& core = detail::live_core(core_);
  return core.adaptive ? &core.inline_info : nullptr;
}
Dispatch Runtime::dispatch() const {
  return detail::live_core(core_).adaptive ? Dispatch::Adaptive : Dispatch::Single;
}
unsigned Runtime::inline_threads() const {
  auto& core = detail::live_core(core_);
  return core.inline_pool ? core.inline_pool->threads() : (core.adaptive ? 1 : 0);
}
std::size_t Runtime::inline_threshold() const {
  return detail::live_core(core_).inline_threshold.load();
}
void Runtime::set_inline_threshold(std::size_t work_items) {
  detail::live_core(core_).inline_threshold.store(work_items);
}
std::size_t Runtime::split_threshold() const {
  return detail::live_core(core_).split_threshold.load();
}
void Runtime::set_split_threshold(std::size_t work_items) {
  auto& core = detail::live_core(core_);
  if (core.inline_pool) core.split_threshold.store(work_items);
}

void Runtime::synchronize() {
  auto& core = detail::live_core(core_);
  // On `basic`, a queued command may run inside clFinish, on this thread.
  detail::with_full_stack([&] { core.finish(); });
  core.bounds_records.throw_failures();
}

namespace detail {

void event_release(_cl_event* e) noexcept {
  if (e) clReleaseEvent(e);
}
void event_wait(_cl_event* e, RuntimeCore* core) {
  with_full_stack([&] { check_cl(clWaitForEvents(1, &e), "clWaitForEvents"); });
  if (core) core->bounds_records.throw_failures();
}
bool event_complete(_cl_event* e) {
  cl_int status = CL_QUEUED;
  check_cl(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
           "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)");
  if (status < 0) throw OpenCLError("kernel execution", status, "the launch failed");
  return status == CL_COMPLETE;
}

}  // namespace detail

}  // namespace spvjit
