// A fresh process for the builtin-inlining test (test_pocl_builtins.cpp): compiles a kernel that
// calls PoCL's library builtins (sqrt, fabs, floor, fmin, fmax, fma) once as written and once
// coarsened, runs both over 1000 items and checks them against the host. The test runs it with
// POCL_LEAVE_KERNEL_COMPILER_TEMP_FILES=1 and its own POCL_CACHE_DIR, then reads PoCL's final IR
// there. Exit 0: right answers, 1: a wrong one, 2: an exception.
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

#include "spvjit/spvjit.hpp"

int main() {
  using namespace spvjit;
  try {
    KernelBuilder kb("library_builtins");
    auto out = kb.param<Global<float>>("out");
    auto x = kb.param<Const<float>>("x");
    auto i = kb.global_index();
    Val<float> v = x[i];
    out[i] = sqrt(v) + fabs(v - 3.0f) + floor(v * 0.5f) + fmin(v, 2.0f) + fmax(v, 1.5f) +
             fma(v, v, 0.25f);
    const KernelDef def = kb.finish();

    Runtime rt;
    const std::size_t n = 1000;
    std::vector<float> host(n);
    for (std::size_t k = 0; k < n; ++k) host[k] = 0.01f * static_cast<float>(k);
    auto X = rt.upload(host);
    int wrong = 0;
    for (bool coarsen : {false, true}) {
      Jit jit(rt, JitOptions{.disk_cache = false, .coarsen = coarsen});
      Kernel k = jit.compile(def);
      auto Out = rt.zeros<float>(n);
      k.launch(NDRange{n}, Out, X);
      rt.synchronize();
      const std::vector<float> got = Out.to_vector();
      for (std::size_t e = 0; e < n; ++e) {
        const float a = host[e];
        const float want = std::sqrt(a) + std::fabs(a - 3.0f) + std::floor(a * 0.5f) +
                           std::fmin(a, 2.0f) + std::fmax(a, 1.5f) + std::fma(a, a, 0.25f);
        if (got[e] != want) ++wrong;
      }
      std::printf("coarsen=%d wrong=%d\n", coarsen ? 1 : 0, wrong);
    }
    return wrong == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 2;
  }
}
