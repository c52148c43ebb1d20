// Launches that PoCL 6.0 would answer by killing the process, run in a process of their own so
// that a regression fails one test instead of the suite (test_reliability_limits.cpp).
// `spvjit_limits_probe <case>` prints "refused: <UserError>" or "ran: <what>" and exits 0;
// exit 1 on a wrong result or another exception; a crash shows as a signal.
//   local          static local arrays + LocalMemory above the device's local memory
//                  (PoCL: SIGABRT in pocl_setup_kernel_arg_array_with_locals)
//   barrier-static 512 floats per work-item held across a barrier, static workgroup 4096
//                  (PoCL: SIGSEGV, the group's context arrays overflow its thread's stack)
//   barrier-given  the same kernel, dynamic, launched with WorkGroup{4096}
//   barrier-chosen the same kernel, dynamic, over 4096 work-items: spvjit chooses the workgroup
// Options: `adaptive` runs on Dispatch::Adaptive with every launch on PoCL's `basic` device (the
// calling thread's stack instead of a PoCL worker's); `--thread-stack=<bytes>` sets glibc's
// default thread stack before PoCL starts its workers, as `ulimit -s unlimited` (2 MiB) or a
// host calling pthread_setattr_default_np would. The probe prints "thread stack <bytes>" first.
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "spvjit/spvjit.hpp"

using namespace spvjit;

namespace {

constexpr std::int64_t held = 512;  // floats each work-item keeps across the barrier
constexpr std::size_t items = 4096;

// out[i] = sum of in[i * 512 + j] over j, the 512 loads made before a barrier, summed after.
KernelDef barrier_kernel() {
  KernelBuilder kb("limits_barrier_live");
  auto out = kb.param<Global<float>>("out");
  auto in = kb.param<Const<float>>("in");
  auto i = kb.global_index();
  // Padding work-items (a chosen workgroup need not divide 4096) read row 0: their loads must
  // stay inside `in` too, or the bounds check reports them.
  auto row = select(kb.in_ndrange(), i, kb.lit<std::int64_t>(0));
  std::vector<Val<float>> values;
  for (std::int64_t j = 0; j < held; ++j) values.push_back(in[row * held + j].get());
  barrier(kb, Fence::Local);
  Val<float> sum = values[0];
  for (std::int64_t j = 1; j < held; ++j) sum = sum + values[static_cast<std::size_t>(j)];
  kb.if_(kb.in_ndrange(), [&] { out[i] = sum; });
  return kb.finish();
}

// out[i] = tile[i % count] + scratch[0] with both arrays written first: static and dynamic
// local memory in one kernel.
KernelDef local_kernel(std::int64_t count) {
  KernelBuilder kb("limits_local_sum");
  auto out = kb.param<Global<float>>("out");
  auto scratch = kb.param<Local<float>>("scratch");
  auto tile = local_array<float>(kb, {count}, "tile");
  auto i = kb.global_index();
  auto l = kb.local_index();
  tile(l % count) = 1.0f;
  scratch[l] = 2.0f;
  barrier(kb, Fence::Local);
  kb.if_(kb.in_ndrange(), [&] { out[i] = tile(l % count).get() + scratch[l].get(); });
  return kb.finish();
}

int run_barrier(Runtime& rt, const std::string& which) {
  Jit jit(rt);
  std::vector<float> in(items * held);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<float>(k % 3);
  auto In = rt.upload(in);
  auto Out = rt.zeros<float>(items);
  Kernel k;
  if (which == "barrier-static") {
    k = jit.compile(barrier_kernel(), {.workgroup = WorkGroup{items}});
    k.launch(NDRange{items}, Out, In);
  } else if (which == "barrier-given") {
    k = jit.compile(barrier_kernel());
    k.launch(NDRange{items}, WorkGroup{items}, Out, In);
  } else {
    k = jit.compile(barrier_kernel());
    k.launch(NDRange{items}, Out, In);
  }
  rt.synchronize();
  const auto out = Out.to_vector();
  for (std::size_t i = 0; i < items; ++i) {
    float want = 0;
    for (std::int64_t j = 0; j < held; ++j) want += in[i * held + static_cast<std::size_t>(j)];
    if (out[i] != want) {
      std::printf("wrong value at %zu: %g, expected %g\n", i, out[i], want);
      return 1;
    }
  }
  std::printf("ran: workgroup %s\n", k.workgroup_for(NDRange{items}).to_string().c_str());
  return 0;
}

int run_local(Runtime& rt) {
  Jit jit(rt);
  // The whole local memory twice: once static, once at launch. PoCL's pthread device keeps a
  // margin of 128 KiB past CL_DEVICE_LOCAL_MEM_SIZE for alignment, so this overflows it too.
  const std::uint64_t bytes = rt.device().local_mem_size;
  Kernel k = jit.compile(local_kernel(static_cast<std::int64_t>(bytes / sizeof(float))));
  auto Out = rt.zeros<float>(64);
  k.launch(NDRange{64}, WorkGroup{64}, Out, LocalMemory{bytes});
  rt.synchronize();
  for (float v : Out.to_vector()) {
    if (v != 3.0f) {
      std::printf("wrong value %g\n", v);
      return 1;
    }
  }
  std::printf("ran\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s local|barrier-static|barrier-given|barrier-chosen [adaptive] "
                 "[--thread-stack=<bytes>]\n",
                 argv[0]);
    return 2;
  }
  const std::string which = argv[1];
  RuntimeOptions options;
  for (int a = 2; a < argc; ++a) {
    if (std::strcmp(argv[a], "adaptive") == 0) {
      options.dispatch = Dispatch::Adaptive;
      options.inline_threshold = SIZE_MAX;  // every launch on `basic`, in this thread
      options.inline_threads = 1;
    } else if (std::strncmp(argv[a], "--thread-stack=", 15) == 0) {
      pthread_attr_t attr;
      pthread_attr_init(&attr);
      pthread_attr_setstacksize(&attr, std::strtoul(argv[a] + 15, nullptr, 10));
      pthread_setattr_default_np(&attr);
      pthread_attr_destroy(&attr);
    }
  }
  {
    pthread_attr_t attr;
    std::size_t stack = 0;
    pthread_getattr_default_np(&attr);
    pthread_attr_getstacksize(&attr, &stack);
    pthread_attr_destroy(&attr);
    std::printf("thread stack %zu\n", stack);
  }
  try {
    Runtime rt(options);
    if (which == "local") return run_local(rt);
    if (which.rfind("barrier-", 0) == 0) return run_barrier(rt, which);
    std::fprintf(stderr, "unknown case '%s'\n", which.c_str());
    return 2;
  } catch (const UserError& e) {
    std::printf("refused: %s\n", e.what());
    return 0;
  } catch (const std::exception& e) {
    std::printf("exception: %s\n", e.what());
    return 1;
  }
}
