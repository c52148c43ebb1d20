// The in-memory cache and specialization: one compile per signature however many threads ask,
// a warm lookup that allocates nothing, and a static ndrange that removes the bounds check.
#include <doctest/doctest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <pthread.h>

#include <atomic>
#include <thread>
#include <vector>

#include "common/exit_gate.hpp"
#include "jit/specialize.hpp"
#include "spvjit/examples.hpp"
#if SPVJIT_HAVE_ALLOC_COUNTER
#include "test/alloc_counter.hpp"
#endif
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {

JitOptions memory_only() {
  JitOptions o;
  o.disk_cache = false;
  return o;
}

std::string specialized_ir(const KernelDef& def, const Specialization& spec) {
  llvm::LLVMContext context;
  auto m = detail::specialize(context, detail::kernel_module(def), spec);
  std::string out;
  llvm::raw_string_ostream os(out);
  m->print(os, nullptr);
  return os.str();
}

// Counts SPIR-V instructions with `opcode` (after the 5-word header, each instruction's first
// word is word count << 16 | opcode).
std::size_t count_op(const std::vector<std::uint32_t>& words, std::uint32_t opcode) {
  std::size_t n = 0;
  for (std::size_t i = 5; i < words.size();) {
    const std::uint32_t count = words[i] >> 16;
    if ((words[i] & 0xFFFF) == opcode) ++n;
    if (count == 0) break;
    i += count;
  }
  return n;
}
constexpr std::uint32_t op_u_less_than = 176;

}  // namespace

TEST_CASE("8 threads x 100 launches of a new signature compile it exactly once") {
  auto& rt = test::runtime();
  Jit jit(rt, memory_only());
  const auto def = examples::saxpy(Scalar::F32);
  Specialization spec;
  spec.workgroup = WorkGroup{128};
  constexpr int threads = 8, launches = 100;
  constexpr std::size_t n = 1000;
  std::atomic<int> ready{0};
  std::atomic<int> wrong{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      auto X = rt.upload(std::vector<float>(n, float(t)));
      auto Y = rt.upload(std::vector<float>(n, 1.0f));
      auto Z = rt.zeros<float>(n);
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();  // start together
      for (int i = 0; i < launches; ++i) jit.compile(def, spec).launch(NDRange{n}, Z, X, Y, 2.0f);
      rt.synchronize();
      for (float z : Z.to_vector()) wrong += z != 2.0f * float(t) + 1.0f;
    });
  }
  for (auto& th : pool) th.join();
  CHECK(jit.compile_count() == 1);
  CHECK(wrong.load() == 0);
}

#if SPVJIT_HAVE_ALLOC_COUNTER  // the interposer is left out of sanitizer builds
TEST_CASE("a warm lookup allocates nothing, for the same and for a rebuilt definition") {
  Jit jit(test::runtime(), memory_only());
  const auto def = examples::saxpy(Scalar::F32);
  const auto rebuilt = examples::saxpy(Scalar::F32);
  Specialization spec;
  spec.workgroup = WorkGroup{64};
  const Kernel first = jit.compile(def, spec);
  jit.compile(def);  // a second entry in the table: dynamic sizes
  bool same = true;
  const auto counts = support::count_allocations([&] {
    for (int i = 0; i < 1000; ++i) {
      Kernel k = jit.compile(def, spec);
      Kernel r = jit.compile(rebuilt, spec);
      same = same && &k.name() == &first.name() && &r.name() == &first.name();
    }
  });
  CHECK(counts.allocations == 0);
  CHECK(same);
  CHECK(jit.compile_count() == 2);
}
#endif

TEST_CASE("warm lookups register no exit handler, on a full stack and on a small one") {
  // Each registration may allocate (glibc's atexit table grows in blocks of 32), so the hot path
  // must make none: not on the thread itself, nor when a 256 KiB thread hands the lookup to its
  // full-stack companion (common/full_stack.cpp), whose scope is its caller's.
  Jit jit(test::runtime(), memory_only());
  const auto def = examples::saxpy(Scalar::F32);
  jit.compile(def);
  struct Run {
    Jit* jit;
    const KernelDef* def;
    std::uint64_t registered = 0;
  };
  auto lookups = [](void* p) -> void* {
    auto* run = static_cast<Run*>(p);
    run->jit->compile(*run->def);  // this thread's first piece of work registers
    const std::uint64_t before = detail::exit_handler_registrations();
    for (int i = 0; i < 1100; ++i) run->jit->compile(*run->def);
    run->registered = detail::exit_handler_registrations() - before;
    return nullptr;
  };
  Run here{&jit, &def};
  lookups(&here);
  CHECK(here.registered == 0);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  Run small{&jit, &def};
  pthread_t thread;
  REQUIRE(pthread_create(&thread, &attr, lookups, &small) == 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  CHECK(small.registered == 0);
}

TEST_CASE("a static ndrange divided by the static workgroup leaves no bounds compare") {
  const auto def = examples::saxpy(Scalar::F32);
  Specialization divides;
  divides.ndrange = NDRange{1024};
  divides.workgroup = WorkGroup{64};
  Specialization ragged;
  ragged.ndrange = NDRange{1000};
  ragged.workgroup = WorkGroup{64};
  Specialization dynamic;

  const std::string ir = specialized_ir(def, divides);
  CHECK_MESSAGE(ir.find("icmp") == std::string::npos, ir);
  CHECK(ir.find("reqd_work_group_size") != std::string::npos);
  CHECK(specialized_ir(def, ragged).find("icmp ult") != std::string::npos);
  CHECK(specialized_ir(def, dynamic).find("icmp ult") != std::string::npos);

  JitOptions uncoarsened;  // coarsening and bounds checks add compares of their own
  uncoarsened.coarsen = false;
  uncoarsened.bounds_checks = false;
  Jit jit(test::runtime(), uncoarsened);
  CHECK(count_op(jit.spirv(def, divides), op_u_less_than) == 0);
  CHECK(count_op(jit.spirv(def, ragged), op_u_less_than) == 1);
  CHECK(count_op(jit.spirv(def, dynamic), op_u_less_than) == 3);  // one per dimension
}

TEST_CASE("static sizes that cannot go together are refused at compile time") {
  Specialization spec;
  spec.ndrange = NDRange{1024};
  spec.workgroup = WorkGroup{16, 16};
  CHECK_THROWS_WITH_AS(test::jit().compile(examples::saxpy(Scalar::F32), spec),
                       doctest::Contains("static workgroup (16,16) has more dimensions than the "
                                         "static ndrange (1024,)"),
                       UserError);
}
