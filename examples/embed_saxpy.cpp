// The smallest host application: build saxpy, run it once, check it.
#include <spvjit/spvjit.hpp>

#include <cstdio>
#include <vector>

int main() {
  using namespace spvjit;
  try {
    KernelBuilder kb("saxpy");
    auto z = kb.param<Global<float>>("Z");
    auto x = kb.param<Const<float>>("X");
    auto y = kb.param<Const<float>>("Y");
    auto a = kb.param<float>("a");
    auto i = kb.global_index();
    kb.if_(kb.in_ndrange(), [&] { z[i] = a * x[i] + y[i]; });
    KernelDef saxpy = kb.finish();

    Runtime rt;
    Jit jit(rt);
    Kernel k = jit.compile(saxpy, {.workgroup = WorkGroup{256}});

    const std::size_t n = 1000;
    std::vector<float> xs(n), ys(n);
    for (std::size_t j = 0; j < n; ++j) {
      xs[j] = static_cast<float>(j);
      ys[j] = 1.0f;
    }
    auto X = rt.upload(xs);
    auto Y = rt.upload(ys);
    auto Z = rt.zeros<float>(n);
    k.launch(NDRange{n}, Z, X, Y, 2.0f);
    rt.synchronize();
    auto zs = Z.to_vector();
    for (std::size_t j = 0; j < n; ++j) {
      if (zs[j] != 2.0f * xs[j] + ys[j]) {
        std::fprintf(stderr, "embed_saxpy: Z[%zu] = %g, expected %g\n", j, zs[j],
                     2.0f * xs[j] + ys[j]);
        return 1;
      }
    }
    std::printf("embed_saxpy: %zu results correct on %s (spvjit %s)\n", n, rt.device().name.c_str(),
                version());
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "embed_saxpy: %s\n", e.what());
    return 1;
  }
}
