// SharedArray (fine-grained SVM): host and kernels address the same memory, at any offset, and
// mix with Buffer arguments in one launch; a warm launch with shared arrays allocates nothing.
#include <doctest/doctest.h>

#include <vector>

#include "runtime/launch_state.hpp"
#include "spvjit/examples.hpp"
#if SPVJIT_HAVE_ALLOC_COUNTER
#include "test/alloc_counter.hpp"
#endif
#include "test/shared_runtime.hpp"

using namespace spvjit;

TEST_CASE("saxpy on shared arrays needs no transfers") {
  auto& rt = test::runtime();
  const std::size_t n = 1000;
  auto X = allocate_shared<float>(rt, n);
  auto Y = allocate_shared<float>(rt, n);
  auto Z = zeros_shared<float>(rt, n);
  for (std::size_t i = 0; i < n; ++i) {
    X[i] = float(i % 7);
    Y[i] = float(i % 5);
  }
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
  k.launch(NDRange{n}, Z, X, Y, 3.0f);
  rt.synchronize();
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    CHECK(Z[i] == 3.0f * float(i % 7) + float(i % 5));
  }
}

TEST_CASE("shared spans at any offset, mixed with buffers, and switching kinds per argument") {
  auto& rt = test::runtime();
  auto A = zeros_shared<double>(rt, 64);
  auto B = allocate_shared<double>(rt, 64);
  for (std::size_t i = 0; i < 64; ++i) B[i] = double(i);
  auto buffer = rt.upload(std::vector<double>(64, 10.0));
  Kernel scale = test::jit().compile(examples::scale(Scalar::F64, 1));
  scale.launch(NDRange{5}, A.view(3, 5), B.view(1, 5));  // A[3..8) = 2 * B[1..6)
  rt.synchronize();
  for (std::size_t i = 0; i < 64; ++i) {
    CAPTURE(i);
    CHECK(A[i] == (i >= 3 && i < 8 ? 2.0 * double(i - 2) : 0.0));
  }
  auto out = rt.zeros<double>(64);
  scale.launch(NDRange{64}, out, B);     // argument 0: cl_mem, argument 1: SVM
  scale.launch(NDRange{64}, A, buffer);  // and the other way round
  rt.synchronize();
  const auto o = out.to_vector();
  for (std::size_t i = 0; i < 64; ++i) {
    CAPTURE(i);
    CHECK(o[i] == 2.0 * double(i));
    CHECK(A[i] == 20.0);
  }
  CHECK_THROWS_WITH_AS(A.view(60, 5), doctest::Contains("outside the array of 64"), UserError);
  auto F = allocate_shared<float>(rt, 4);
  CHECK_THROWS_WITH_AS(scale.launch(NDRange{4}, A, F),
                       doctest::Contains("expected global const f64*, got SharedArray<f32>"),
                       UserError);
}

#if SPVJIT_HAVE_ALLOC_COUNTER  // the interposer is left out of sanitizer builds
TEST_CASE("a warm launch with shared arrays allocates no more than raw OpenCL") {
  auto& rt = test::runtime();
  auto A = zeros_shared<double>(rt, 16);
  auto B = zeros_shared<double>(rt, 16);
  Kernel k = test::jit().compile(examples::scale(Scalar::F64, 1));
  cl_kernel ck = detail::KernelAccess::kernel(k);
  cl_command_queue q = detail::KernelAccess::queue(k);
  const cl_long extent[3] = {16, 1, 1};
  std::size_t global[3] = {16, 1, 1}, local[3] = {16, 1, 1};
  auto ours = [&] {
    k.launch(NDRange{16}, WorkGroup{16}, A, B);
    rt.synchronize();
  };
  auto raw = [&] {
    clSetKernelArgSVMPointer(ck, 0, A.data());
    clSetKernelArgSVMPointer(ck, 1, B.data());
    for (cl_uint d = 0; d < 3; ++d) clSetKernelArg(ck, 2 + d, sizeof(cl_long), &extent[d]);
    clEnqueueNDRangeKernel(q, ck, 1, nullptr, global, local, 0, nullptr, nullptr);
    clFinish(q);
  };
  for (int i = 0; i < 20; ++i) {
    ours();
    raw();
  }
  auto fewest = [](auto& f) {
    std::uint64_t best = UINT64_MAX;
    for (int r = 0; r < 5; ++r) {
      best = std::min(best, support::count_allocations([&] {
                              for (int i = 0; i < 50; ++i) f();
                            }).allocations);
    }
    return best;
  };
  const auto o = fewest(ours), w = fewest(raw);
  CAPTURE(o);
  CAPTURE(w);
  CHECK(o <= w);
}
#endif
