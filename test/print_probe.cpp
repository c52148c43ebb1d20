// Kernels that print (spvjit/print.hpp), run in a process of their own so that a test reads
// exactly what reached standard output (test_lang_print.cpp). Each section starts with a line
// "== <name>" the host prints with std::printf (buffered), so the captured text also shows
// that a printing launch keeps the host's order.
//   types      one work-item prints every scalar type through its conversion
//   items      8 work-items print their index and a value read from a buffer
//   condition  only work-items with an even index print
//   function   a device function prints its argument
// `spvjit_print_probe kernel_print` runs KA's kernel_print alone instead (test/ka/print_test.cpp):
//   kernel_print  4 work-items print "Hello from thread <I>!"
#include <cstdio>
#include <cstdint>
#include <string_view>
#include <vector>

#include "ka/kernel_print.hpp"
#include "spvjit/spvjit.hpp"

using namespace spvjit;

namespace {

KernelDef types_kernel() {
  KernelBuilder kb("print_types");
  auto f = kb.param<float>("f");
  auto d = kb.param<double>("d");
  auto n = kb.param<std::int64_t>("n");
  auto small = kb.param<std::int8_t>("small");
  auto u = kb.param<std::uint16_t>("u");
  kb.if_(kb.global_index() == 0, [&] {
    print(kb, "i32=%d u32=%u i64=%ld u64=%lu\n", kb.lit(-7), kb.lit(4000000000u), n,
          kb.lit<std::uint64_t>(18000000000000000000ull));
    print(kb, "i8=%hhd u16=%hu c=%c x=%x X=%#X o=%o b=%d\n", small, u, kb.lit<std::int8_t>('A'),
          kb.lit(255u), kb.lit(48879u), kb.lit(8), kb.lit(true));
    print(kb, "f32=%f f64=%.3f e=%e g=%g w=[%8.2f] [%-6d]\n", f, d, d, f, f, 42);
    print(kb, "%s=%d %-5s| %.2s 100%%\n", "label", 3, "ab", "xyz");
    print(kb, "plain\n");
  });
  return kb.finish();
}

KernelDef items_kernel() {
  KernelBuilder kb("print_items");
  auto in = kb.param<Const<std::int32_t>>("in");
  auto i = kb.global_index();
  print(kb, "item %ld group %ld value %d\n", i, kb.group_index(), in[i]);
  return kb.finish();
}

KernelDef condition_kernel() {
  KernelBuilder kb("print_condition");
  auto i = kb.global_index();
  kb.if_(i % std::int64_t{2} == 0, [&] { print(kb, "even %ld\n", i); });
  return kb.finish();
}

KernelDef function_kernel() {
  KernelBuilder kb("print_function");
  auto out = kb.param<Global<float>>("out");
  auto show = device_function<float(float)>(kb, "show", [&](Val<float> x) {
    print(kb, "show %.1f\n", x);
    return x * 2.0f;
  });
  auto i = kb.global_index();
  out[i] = show(cast<float>(i) + 0.5f);
  return kb.finish();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Runtime rt;
    Jit jit(rt);
    if (argc > 1 && std::string_view(argv[1]) == "kernel_print") {
      std::printf("== kernel_print\n");
      jit.compile(ka::kernel_print(), ka::kernel_print_sizes())
          .launch(NDRange{4});  // ndrange = (4,)
      rt.synchronize();
      std::printf("== end\n");
      return 0;
    }
    std::printf("== types\n");
    jit.compile(types_kernel())
        .launch(NDRange{4}, 1.5f, 2.25, std::int64_t{-9000000000}, std::int8_t{-5},
                std::uint16_t{65535});
    rt.synchronize();
    std::printf("== items\n");
    std::vector<std::int32_t> values(8);
    for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<std::int32_t>(k * k);
    auto in = rt.upload(values);
    jit.compile(items_kernel()).launch(NDRange{8}, WorkGroup{4}, in);
    rt.synchronize();
    std::printf("== condition\n");
    jit.compile(condition_kernel()).launch(NDRange{6});
    rt.synchronize();
    std::printf("== function\n");
    auto out = rt.zeros<float>(2);
    jit.compile(function_kernel()).launch(NDRange{2}, out);
    rt.synchronize();
    std::printf("== end\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
