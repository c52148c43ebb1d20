// Host applications that took hosts down (issue #29): each case is one process, run as a child by
// test/test_hostile_hosts.cpp with the host trait as its input. Prints "ok ..." and exits 0 when
// everything computed right and no call crashed; prints what went wrong and exits 1 otherwise.
//
//   hostile_probe two-runtimes [ROUNDS [DEVICE]]  an adaptive and a Single Runtime (on the device
//                                         named DEVICE), a Jit each, four threads compiling and
//                                         launching on both
//   hostile_probe closed-fds REPORT       closes fds 0-2 (as daemons do), then compiles and
//                                         launches; the verdict goes to the file REPORT
//   hostile_probe small-stack KIB         everything on a pthread with a KIB KiB stack: Runtimes
//                                         of both dispatches, compiles, inline launches, a
//                                         kernel with a 1024-float private array
//   hostile_probe exit-with-jit DIR       compiles with the disk cache in DIR, then exit() with
//                                         the Runtime and Jit alive (static)
//   hostile_probe exit-during WORK CACHE DELAY_US
//                                         a thread does WORK (compile: cold compiles; launch:
//                                         launches and synchronizes; launch-pending: one
//                                         launch on PoCL's pthread device, never waited for;
//                                         read: reads a buffer back)
//                                         while the main thread, DELAY_US after the work began,
//                                         calls exit(0) (or quick_exit(0), or returns from
//                                         main: WORK "compile-quick", "compile-return"); CACHE
//                                         is a disk-cache directory or "off". The host's own
//                                         atexit handler prints "host atexit ran" (issue #53)
//   hostile_probe signal-storm ROUNDS     a host thread compiles ROUNDS new kernels and launches
//                                         each at four work-group sizes (PoCL links a work-group
//                                         function per size) while another thread sends it
//                                         SIGUSR2, whose handler has no SA_RESTART, every 2 ms,
//                                         as a profiler or watchdog does (issue #53)
//   hostile_probe concurrent-opencl       a host thread enumerates OpenCL platforms while
//                                         another creates a Runtime
//   hostile_probe names                   kernels named like device and library symbols, and
//                                         very long names: each runs or is a UserError
//   hostile_probe statements N            a kernel of N straight-line statements
//                                         (examples::straight_line) compiled, launched, checked;
//                                         prints its SPIR-V's bytes (issue #34)
#include <CL/cl.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"

using namespace spvjit;

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }

// z[i] = value, over n elements.
KernelDef fill_kernel(const std::string& name) {
  KernelBuilder kb(name);
  auto z = kb.param<Global<float>>("z");
  auto value = kb.param<float>("value");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[i] = value; });
  return kb.finish();
}

// z[i] = sum of a private array of `count` floats filled with x[i] + k.
KernelDef private_array_kernel(const std::string& name, std::uint64_t count) {
  KernelBuilder kb(name);
  auto z = kb.param<Global<float>>("z");
  auto x = kb.param<Const<float>>("x");
  auto i = kb.global_index();
  auto scratch = private_array<float>(kb, {static_cast<std::int64_t>(count)});
  kb.if_(kb.in_ndrange(), [&] {
    kb.for_(kb.lit<std::int64_t>(0), kb.lit<std::int64_t>(static_cast<std::int64_t>(count)),
            [&](auto k) { scratch[k] = x[i] + cast<float>(k); });
    auto acc = kb.var(kb.lit(0.0f));
    kb.for_(kb.lit<std::int64_t>(0), kb.lit<std::int64_t>(static_cast<std::int64_t>(count)),
            [&](auto k) { acc = acc + scratch[k]; });
    z[i] = acc;
  });
  return kb.finish();
}

std::string unique(const std::string& stem) { return stem + "_" + std::to_string(::getpid()); }

void check_fill(Runtime& rt, Kernel& k, std::size_t n, float value, const std::string& what) {
  auto z = rt.zeros<float>(n);
  k.launch(NDRange{n}, z, value);
  rt.synchronize();
  const auto zs = z.to_vector();
  for (std::size_t j = 0; j < n; ++j) {
    if (zs[j] != value) {
      fail(what + " n=" + std::to_string(n) + ": z[" + std::to_string(j) +
           "]=" + std::to_string(zs[j]) + " expected " + std::to_string(value));
    }
  }
}

void check_private_array(Runtime& rt, Kernel& k, std::size_t n, std::uint64_t count,
                         const std::string& what) {
  std::vector<float> xs(n);
  for (std::size_t j = 0; j < n; ++j) xs[j] = static_cast<float>(j % 7);
  auto x = rt.upload(xs);
  auto z = rt.zeros<float>(n);
  k.launch(NDRange{n}, z, x);
  rt.synchronize();
  const auto zs = z.to_vector();
  for (std::size_t j = 0; j < n; ++j) {
    // Exact in float: every partial sum is an integer below 2^24.
    const double expected = static_cast<double>(count) * xs[j] + count * (count - 1) / 2.0;
    if (zs[j] != static_cast<float>(expected)) {
      fail(what + ": z[" + std::to_string(j) + "]=" + std::to_string(zs[j]) + " expected " +
           std::to_string(expected));
    }
  }
}

// Case 1: libraries that each make their own Runtime.
int two_runtimes(int rounds, const std::string& single_device) {
  Runtime adaptive({.dispatch = Dispatch::Adaptive});
  Runtime single({.device_name_contains = single_device});
  Jit jit_adaptive(adaptive);
  Jit jit_single(single);
  std::atomic<bool> failed{false};
  std::string first_error;
  std::mutex error_mutex;
  auto worker = [&](Runtime& rt, Jit& jit, int id) {
    try {
      for (int r = 0; r < rounds && !failed; ++r) {
        Kernel k = jit.compile(
            fill_kernel(unique("two_rt_" + std::to_string(id) + "_" + std::to_string(r))));
        for (std::size_t n : {1000u, 16u, 100000u, 1u << 20}) {
          check_fill(rt, k, n, 100.5f + id + r, "runtime " + std::to_string(id) + " fill");
        }
      }
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!failed.exchange(true)) first_error = e.what();
    }
  };
  std::vector<std::thread> threads;
  threads.emplace_back(worker, std::ref(adaptive), std::ref(jit_adaptive), 0);
  threads.emplace_back(worker, std::ref(single), std::ref(jit_single), 1);
  threads.emplace_back(worker, std::ref(adaptive), std::ref(jit_adaptive), 2);
  threads.emplace_back(worker, std::ref(single), std::ref(jit_single), 3);
  for (auto& t : threads) t.join();
  if (failed) fail(first_error);
  std::printf("ok two runtimes: %s (adaptive, inline on %s) and %s (single)\n",
              adaptive.device().name.c_str(), adaptive.inline_device()->name.c_str(),
              single.device().name.c_str());
  return 0;
}

// Case 2: a daemon's process, fds 0-2 closed.
int closed_fds(const char* report_path) {
  const int report = ::open(report_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (report < 0) return 2;
  ::close(0);
  ::close(1);
  ::close(2);
  std::string verdict;
  int status = 0;
  try {
    Runtime rt;
    Jit jit(rt);
    Kernel k = jit.compile(fill_kernel(unique("closed_fds")));
    check_fill(rt, k, 1000, 7.25f, "fill");
    // Nothing of spvjit's may have been left open on 0-2 for the host to trip over.
    for (int fd = 0; fd < 3; ++fd) {
      if (::fcntl(fd, F_GETFD) != -1)
        fail("fd " + std::to_string(fd) + " is open after the compile");
    }
    verdict = "ok closed fds: compiled and ran on " + rt.device().name + "\n";
  } catch (const std::exception& e) {
    verdict = std::string("exception: ") + e.what() + "\n";
    status = 1;
  }
  if (::write(report, verdict.data(), verdict.size()) < 0) status = 2;
  ::close(report);
  return status;
}

// Case 3: a thread pool's small stacks.
int small_stack(std::size_t kib) {
  std::string error;
  std::string summary;
  auto body = [&] {
    try {
      Runtime adaptive({.dispatch = Dispatch::Adaptive, .inline_threshold = SIZE_MAX});
      Jit jit_adaptive(adaptive);
      Kernel fill = jit_adaptive.compile(fill_kernel(unique("small_stack_fill")));
      check_fill(adaptive, fill, 1000, 3.5f, "adaptive fill");
      check_fill(adaptive, fill, 1u << 18, 4.5f, "adaptive fill (split)");
      const std::uint64_t count = 1024;
      Kernel priv =
          jit_adaptive.compile(private_array_kernel(unique("small_stack_private"), count));
      check_private_array(adaptive, priv, 4096, count, "adaptive private array");
      Runtime single;
      Jit jit_single(single);
      Kernel fill2 = jit_single.compile(fill_kernel(unique("small_stack_fill_single")));
      check_fill(single, fill2, 1000, 5.5f, "single fill");
      Kernel priv2 =
          jit_single.compile(private_array_kernel(unique("small_stack_private_single"), count));
      check_private_array(single, priv2, 4096, count, "single private array");
      summary = "ok small stack: " + std::to_string(kib) + " KiB";
    } catch (const std::exception& e) {
      error = e.what();
    }
  };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (pthread_attr_setstacksize(&attr, kib * 1024) != 0) {
    std::fprintf(stderr, "hostile_probe: pthread_attr_setstacksize(%zu KiB) refused\n", kib);
    return 2;
  }
  pthread_t thread;
  auto trampoline = [](void* arg) -> void* {
    (*static_cast<decltype(body)*>(arg))();
    return nullptr;
  };
  if (pthread_create(&thread, &attr, trampoline, &body) != 0) return 2;
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  if (!error.empty()) fail(error);
  std::printf("%s\n", summary.c_str());
  return 0;
}

// Case 4: a service that calls exit() with its Jit alive, entries just written to the disk cache.
int exit_with_jit(const char* cache_dir) {
  static Runtime rt;
  static Jit jit(rt, {.cache_dir = cache_dir});
  for (int r = 0; r < 3; ++r) {
    Kernel k = jit.compile(fill_kernel(unique("exit_" + std::to_string(r))));
    check_fill(rt, k, 100, 1.0f + r, "fill");
  }
  if (jit.stats().disk_writes != 3) fail("expected 3 disk-cache writes");
  std::printf("ok exit with a Jit alive\n");
  std::fflush(stdout);
  std::exit(0);
}

// Case 4b (issue #53): exit() (quick_exit, return from main) while another thread is inside
// spvjit: a cold compile, launches, a read. The host's atexit handler must run and the exit
// status be the one asked for.
void host_atexit() {
  std::printf("host atexit ran\n");
  std::fflush(stdout);
}

int exit_during(const std::string& work, const std::string& cache, long delay_us) {
  std::atexit(host_atexit);
  std::at_quick_exit(host_atexit);
  static Runtime rt;
  JitOptions options;
  if (cache == "off") {
    options.disk_cache = false;
  } else {
    options.cache_dir = cache;
  }
  static Jit jit(rt, options);
  // A first compile and launch: the exit comes during later work, not the Runtime's start.
  Kernel warm = jit.compile(fill_kernel(unique("exit_warm")));
  check_fill(rt, warm, 1000, 3.5f, "warm fill");
  static std::atomic<bool> started{false};
  // The host's own buffer outlives the exit (never destroyed): a static one would be destroyed by
  // exit() under the worker, which then read a destroyed Buffer's size in the header's inline
  // to_vector (std::length_error), before reaching spvjit and its gate: the host's bug.
  static Buffer<float>& data = *new Buffer<float>(rt.zeros<float>(std::size_t{1} << 20));
  const bool compiles = work.rfind("compile", 0) == 0;
  if (work == "launch-pending") {
    // Every launch to PoCL's pthread device, whose driver thread compiles the work-group function
    // of this launch size (none made yet: the warm launch ran on another device or size) after
    // the enqueue has returned, with no spvjit call in flight on any thread.
    rt.set_inline_threshold(0);
    rt.set_split_threshold(SIZE_MAX);
  }
  std::thread([compiles, work] {
    try {
      for (int r = 0;; ++r) {
        if (compiles) {
          started = true;
          Kernel k = jit.compile(fill_kernel(unique("exit_during_" + std::to_string(r))));
          (void)k;
        } else if (work == "launch-pending") {
          Kernel k = jit.compile(fill_kernel(unique("exit_warm")));
          k.launch(NDRange{data.size()}, data, 2.5f);
          started = true;
          for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
        } else if (work == "launch") {
          Kernel k = jit.compile(fill_kernel(unique("exit_warm")));
          started = true;
          k.launch(NDRange{data.size()}, data, static_cast<float>(r));
          rt.synchronize();
        } else {
          started = true;
          (void)data.to_vector();
        }
      }
    } catch (const std::exception& e) {
      // A compile or launch refused because the process is exiting is an answer too.
      std::printf("worker: %s\n", e.what());
      std::fflush(stdout);
    }
  }).detach();
  while (!started) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
  std::printf("exiting\n");
  std::fflush(stdout);
  if (work == "compile-quick") std::quick_exit(0);
  if (work == "compile-return") return 0;
  std::exit(0);
}

// Case 4b: a thread-directed signal storm on the thread that compiles and launches.
std::atomic<int> g_storm_signals{0};
void on_storm_signal(int) { g_storm_signals.fetch_add(1, std::memory_order_relaxed); }

// The signals LLVM takes for itself when it registers its handlers (lib/Support/Unix/
// Signals.inc: IntSigs and InfoSigs), each given the host's handler here.
constexpr int host_signals[] = {SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2};

// The host's handlers must still be its own after spvjit and PoCL ran.
void check_host_handlers(const char* when) {
  for (int sig : host_signals) {
    struct sigaction now {};
    sigaction(sig, nullptr, &now);
    if (now.sa_handler != on_storm_signal) {
      Dl_info info{};
      const bool named = ::dladdr(reinterpret_cast<void*>(now.sa_handler), &info) != 0;
      fail(std::string(when) + ": the handler of signal " + std::to_string(sig) +
           " is no longer the host's but " +
           (named && info.dli_sname ? info.dli_sname : "an unnamed function") + " in " +
           (named && info.dli_fname ? info.dli_fname : "an unknown object"));
    }
  }
}

int signal_storm(int rounds) {
  struct sigaction action {};
  action.sa_handler = on_storm_signal;  // deliberately no SA_RESTART
  sigemptyset(&action.sa_mask);
  for (int sig : host_signals) {
    if (sigaction(sig, &action, nullptr) != 0) fail("sigaction");
  }
  Runtime rt;
  check_host_handlers("after the Runtime started");
  Jit jit(rt, {.disk_cache = false});
  std::atomic<bool> done{false};
  std::atomic<bool> worker_ready{false};
  pthread_t worker_handle{};
  std::string error;
  std::thread worker([&] {
    worker_handle = pthread_self();
    worker_ready = true;
    try {
      for (int r = 0; r < rounds; ++r) {
        // A name of its own per process and round: no cache of PoCL's or ours can answer.
        Kernel k = jit.compile(fill_kernel(unique("storm_" + std::to_string(r))));
        for (std::size_t wg : {1u, 16u, 64u, 256u}) {
          const std::size_t n = 4096;
          auto z = rt.zeros<float>(n);
          const float value = 1.5f + static_cast<float>(r);
          k.launch(NDRange{n}, WorkGroup{wg}, z, value);
          rt.synchronize();
          const auto zs = z.to_vector();
          for (std::size_t j = 0; j < n; ++j) {
            if (zs[j] != value) {
              fail("round " + std::to_string(r) + " workgroup " + std::to_string(wg) + ": z[" +
                   std::to_string(j) + "]=" + std::to_string(zs[j]));
            }
          }
        }
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
    done = true;
  });
  while (!worker_ready) std::this_thread::yield();
  int sent = 0;
  while (!done) {
    if (pthread_kill(worker_handle, SIGUSR2) == 0) ++sent;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  worker.join();
  if (!error.empty()) fail(error);
  check_host_handlers("after the compiles and launches");
  // A signal LLVM would have kept for itself (SIGUSR1, its "info" signal) reaches the host.
  const int before = g_storm_signals.load();
  pthread_kill(pthread_self(), SIGUSR1);
  if (g_storm_signals.load() != before + 1) fail("SIGUSR1 did not reach the host's handler");
  std::printf("ok signal storm: %d rounds, %d signals sent, %d handled\n", rounds, sent,
              g_storm_signals.load());
  return 0;
}

// Case 5: another OpenCL user starting at the same moment.
int concurrent_opencl() {
  std::atomic<bool> go{false};
  std::string other_error;
  std::thread other([&] {
    while (!go) {
    }
    cl_uint platforms = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &platforms);
    if (err != CL_SUCCESS || platforms == 0) {
      other_error = "the other OpenCL user's clGetPlatformIDs: err " + std::to_string(err) + ", " +
                    std::to_string(platforms) + " platforms";
      return;
    }
    std::vector<cl_platform_id> ids(platforms);
    clGetPlatformIDs(platforms, ids.data(), nullptr);
    cl_uint devices = 0;
    for (auto id : ids) {
      cl_uint d = 0;
      if (clGetDeviceIDs(id, CL_DEVICE_TYPE_ALL, 0, nullptr, &d) == CL_SUCCESS) devices += d;
    }
    if (devices == 0) other_error = "the other OpenCL user found no device";
  });
  go = true;
  Runtime rt;
  other.join();
  if (!other_error.empty()) fail(other_error);
  Jit jit(rt);
  Kernel k = jit.compile(fill_kernel(unique("concurrent_opencl")));
  check_fill(rt, k, 1000, 2.5f, "fill");
  std::printf("ok concurrent OpenCL start: %s\n", rt.device().name.c_str());
  return 0;
}

// Case 6: names. Each must compile and run, or be refused with a UserError when the kernel is
// built or compiled; anything else (another exception, a crash) fails the case.
int names() {
  Runtime rt;
  Jit jit(rt);
  const std::vector<std::string> candidates = {"printf",
                                               "_Z13get_global_idj",
                                               "_Z3sinf",
                                               "get_global_id",
                                               "main",
                                               "memcpy",
                                               "malloc",
                                               "_pocl_kernel",
                                               "__spvjit",
                                               "llvm_memcpy",
                                               "sin",
                                               "exit",
                                               "abort",
                                               "spvjit_kernel",
                                               "Sleef_expf_u10",
                                               "LOG_INV_TBL",  // symbols of PoCL's kernel library
                                               std::string(255, 'k'),
                                               std::string(1000, 'm'),
                                               std::string(1001, 'k'),
                                               std::string(2048, 'k'),
                                               std::string(4096, 'n'),
                                               "with space",
                                               "dash-name",
                                               "9starts_with_digit",
                                               "",
                                               "ümlaut"};
  int ran = 0, refused = 0;
  for (const auto& name : candidates) {
    const std::string shown =
        name.size() > 40 ? name.substr(0, 8) + "...(" + std::to_string(name.size()) + ")" : name;
    try {
      Kernel k = jit.compile(fill_kernel(name));
      check_fill(rt, k, 100, 9.0f, "kernel '" + shown + "'");
      ++ran;
      std::printf("ran %s\n", shown.c_str());
    } catch (const UserError& e) {
      ++refused;
      std::printf("refused %s: %s\n", shown.c_str(), e.what());
    } catch (const std::exception& e) {
      fail("kernel named '" + shown + "': not a UserError: " + e.what());
    }
  }
  std::printf("ok names: %d ran, %d refused\n", ran, refused);
  return 0;
}

// A kernel as large as generated code gets: it must compile and run, not hang or explode.
int statements(std::size_t count) {
  Runtime rt;
  Jit jit(rt, {.disk_cache = false});
  const KernelDef def = examples::straight_line(count);
  Kernel k = jit.compile(def);
  const std::size_t n = 1000;
  auto x = rt.upload(std::vector<float>(n, 1.0f));
  auto z = rt.zeros<float>(n);
  k.launch(NDRange{n}, z, x, 0.5f);
  rt.synchronize();
  if (z.to_vector() != std::vector<float>(n, 0.5f * static_cast<float>(count))) {
    fail("statements=" + std::to_string(count) + ": wrong result");
  }
  std::printf("ok statements=%zu spirv_bytes=%zu\n", count, jit.spirv(def).size() * 4);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "";
  try {
    if (which == "two-runtimes")
      return two_runtimes(argc > 2 ? std::atoi(argv[2]) : 6, argc > 3 ? argv[3] : "");
    if (which == "closed-fds" && argc > 2) return closed_fds(argv[2]);
    if (which == "small-stack" && argc > 2) return small_stack(std::strtoull(argv[2], nullptr, 10));
    if (which == "exit-with-jit" && argc > 2) return exit_with_jit(argv[2]);
    if (which == "exit-during" && argc > 4) {
      return exit_during(argv[2], argv[3], std::strtol(argv[4], nullptr, 10));
    }
    if (which == "signal-storm" && argc > 2) return signal_storm(std::atoi(argv[2]));
    if (which == "concurrent-opencl") return concurrent_opencl();
    if (which == "names") return names();
    if (which == "statements" && argc > 2) return statements(std::strtoull(argv[2], nullptr, 10));
  } catch (const std::exception& e) {
    std::printf("exception: %s\n", e.what());
    return 1;
  }
  std::fprintf(
      stderr,
      "usage: hostile_probe two-runtimes [ROUNDS [DEVICE]] | closed-fds REPORT | small-stack KIB | "
      "exit-with-jit DIR | exit-during WORK CACHE DELAY_US | signal-storm ROUNDS | "
      "concurrent-opencl | names | statements N\n");
  return 2;
}
