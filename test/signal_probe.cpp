// Compiles and launches new kernels while a 200 us interval timer fires SIGALRM at a handler
// installed without SA_RESTART, as profilers, watchdogs and libFuzzer's -timeout do. PoCL
// 6.0 aborted the process when a signal interrupted the helper processes it waits for
// (runtime/signal_guard.hpp). Runs as its own process so that an abort fails one test, not
// the suite. Exit 0 and "survived": every kernel compiled, ran and computed the right values.
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>

#include "spvjit/spvjit.hpp"

using namespace spvjit;

namespace {
std::atomic<int> g_alarms{0};
void on_alarm(int) { g_alarms.fetch_add(1, std::memory_order_relaxed); }
}  // namespace

int main() {
  try {
    Runtime rt;
    struct sigaction action {};
    action.sa_handler = on_alarm;  // deliberately no SA_RESTART
    sigaction(SIGALRM, &action, nullptr);
    itimerval every_200us{{0, 200}, {0, 200}};
    setitimer(ITIMER_REAL, &every_200us, nullptr);
    for (int i = 0; i < 8; ++i) {
      // A name of its own per process and round, so no cache of PoCL's or ours can answer.
      KernelBuilder kb("signals_" + std::to_string(::getpid()) + "_" + std::to_string(i));
      auto z = kb.param<Global<float>>("z");
      auto index = kb.global_index();
      z[index] = cast<float>(index) + static_cast<float>(i);
      Jit jit(rt);
      Kernel k = jit.compile(kb.finish());
      auto Z = rt.zeros<float>(64);
      for (std::size_t wg : {1, 4, 16, 64}) k.launch(NDRange{64}, WorkGroup{wg}, Z);
      rt.synchronize();
      const auto values = Z.to_vector();
      for (std::size_t j = 0; j < values.size(); ++j) {
        if (values[j] != static_cast<float>(j + i)) {
          std::printf("wrong value at %zu in round %d\n", j, i);
          return 1;
        }
      }
    }
    itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
    std::printf("survived %d alarms\n", g_alarms.load());
    return 0;
  } catch (const std::exception& e) {
    std::printf("exception: %s\n", e.what());
    return 1;
  }
}
