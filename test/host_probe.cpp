// A host application as spvjit's users write them, with the traits that took hosts down before:
// its SIGCHLD ignored or reaped by a handler, a large heap, a thread holding stdout's lock. It
// compiles a kernel no cache can answer (unless the caller's environment warms one), launches
// it and checks the values. Tests and benchmarks run it as a child with the environment of
// their case; it exits 0 and prints "ok compile_ms=<ms>" when everything computed right.
//
//   host_probe [--sigchld=ignore|reap] [--heap-mib=N] [--hold-stdout] [--name=TEXT]
//              [--pids-cgroup=DIR]
//
// --pids-cgroup: DIR is a pids cgroup holding this process alone. Once the runtime has started
// its threads, the cgroup's limit is set to the tasks it has, so that nothing more can start:
// the first compile must fail with an exception (no fork fallback exists, and none may crash);
// then the limit is lifted and the compile must work.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "spvjit/spvjit.hpp"

using namespace spvjit;

namespace {

std::atomic<int> g_reaped{0};

// What daemons install: reap every child whatever it was, so none lingers as a zombie.
void reap_all(int) {
  const int saved = errno;
  while (::waitpid(-1, nullptr, WNOHANG) > 0) g_reaped.fetch_add(1, std::memory_order_relaxed);
  errno = saved;
}

std::string option(int argc, char** argv, const std::string& name) {
  const std::string prefix = "--" + name + "=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) return argv[i] + prefix.size();
  }
  return {};
}

bool flag(int argc, char** argv, const char* name) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == std::string("--") + name) return true;
  }
  return false;
}

KernelDef affine_kernel(const std::string& name) {
  KernelBuilder kb(name);
  auto z = kb.param<Global<float>>("z");
  auto x = kb.param<Const<float>>("x");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { z[i] = 3.0f * x[i] + 1.0f; });
  return kb.finish();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string sigchld = option(argc, argv, "sigchld");
  if (sigchld == "ignore") {
    ::signal(SIGCHLD, SIG_IGN);
  } else if (sigchld == "reap") {
    struct sigaction action {};
    action.sa_handler = reap_all;
    action.sa_flags = SA_RESTART;
    sigaction(SIGCHLD, &action, nullptr);
  } else if (!sigchld.empty()) {
    std::fprintf(stderr, "host_probe: --sigchld=%s: expected ignore or reap\n", sigchld.c_str());
    return 2;
  }

  // A heap the size of a real application's, touched so that its pages exist.
  std::vector<char> heap;
  if (const std::string mib = option(argc, argv, "heap-mib"); !mib.empty()) {
    heap.assign(std::stoull(mib) << 20, 1);
  }

  // Another thread of the host holds stdout's lock for as long as the compile takes: a compile
  // that waited for that lock (fflush(nullptr) does) would not finish before the release.
  std::atomic<bool> locked{false}, release{false}, released{false};
  std::thread holder;
  if (flag(argc, argv, "hold-stdout")) {
    holder = std::thread([&] {
      ::flockfile(stdout);
      locked = true;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (!release && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      released = true;
      ::funlockfile(stdout);
    });
    while (!locked) std::this_thread::yield();
  }

  int status = 0;
  std::string report;
  try {
    std::string name = option(argc, argv, "name");
    if (name.empty()) name = "host_probe_" + std::to_string(::getpid());
    Runtime rt;
    Jit jit(rt);
    if (const std::string cgroup = option(argc, argv, "pids-cgroup"); !cgroup.empty()) {
      const auto tasks = std::distance(std::filesystem::directory_iterator("/proc/self/task"),
                                       std::filesystem::directory_iterator());
      std::ofstream(cgroup + "/pids.max") << tasks << std::flush;
      try {
        jit.compile(affine_kernel(name + "_limited"));
        throw std::runtime_error("compiled at a pids limit of " + std::to_string(tasks) +
                                 " tasks; expected the translator program not to start");
      } catch (const spvjit::Error& e) {
        std::printf("at the limit: %s\n", e.what());
      }
      std::ofstream(cgroup + "/pids.max") << "max" << std::flush;
    }
    const auto start = std::chrono::steady_clock::now();
    Kernel k = jit.compile(affine_kernel(name));
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (released) {
      report = "compile waited for the stdout lock another thread held";
      status = 1;
    }
    const std::size_t n = 1000;
    std::vector<float> xs(n);
    for (std::size_t j = 0; j < n; ++j) xs[j] = static_cast<float>(j);
    auto X = rt.upload(xs);
    auto Z = rt.zeros<float>(n);
    k.launch(NDRange{n}, Z, X);
    rt.synchronize();
    const auto zs = Z.to_vector();
    for (std::size_t j = 0; j < n && status == 0; ++j) {
      if (zs[j] != 3.0f * xs[j] + 1.0f) {
        report = "wrong value at " + std::to_string(j);
        status = 1;
      }
    }
    if (status == 0) report = "ok compile_ms=" + std::to_string(ms);
  } catch (const std::exception& e) {
    report = std::string("exception: ") + e.what();
    status = 1;
  }
  release = true;
  if (holder.joinable()) holder.join();
  std::printf("%s\n", report.c_str());
  return status;
}
