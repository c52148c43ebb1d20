// Buffer views (sub-buffers at an offset) as kernel arguments, and copyto between host memory,
// buffers and views.
#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include "spvjit/examples.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

TEST_CASE("a kernel launched on views reads and writes only the viewed elements") {
  auto& rt = test::runtime();
  const std::size_t align = rt.device().base_address_alignment / sizeof(double);
  REQUIRE(align > 0);
  const std::size_t n = 4 * align;
  std::vector<double> in(n);
  std::iota(in.begin(), in.end(), 1.0);
  auto B = rt.upload(in);
  auto A = rt.zeros<double>(n);
  Kernel scale = test::jit().compile(examples::scale(Scalar::F64, 1));
  // A[align .. 3 align) = 2 * B[2 align .. 4 align)
  scale.launch(NDRange{2 * align}, view(A, align, 2 * align), view(B, 2 * align, 2 * align));
  rt.synchronize();
  const auto a = A.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    const double expected = (i >= align && i < 3 * align) ? 2.0 * in[i + align] : 0.0;
    CHECK(a[i] == expected);
  }
}

TEST_CASE("views check their range and the device's alignment") {
  auto& rt = test::runtime();
  auto A = rt.zeros<double>(64);
  CHECK_THROWS_WITH_AS(view(A, 60, 8), doctest::Contains("outside the buffer of 64 elements"),
                       UserError);
  CHECK_THROWS_WITH_AS(view(A, 1, 8), doctest::Contains("base address alignment"), UserError);
  CHECK(view(A, 0, 0).handle() == nullptr);  // empty views are allowed, pass no memory
}

TEST_CASE("copyto moves data between host memory, buffers and views") {
  auto& rt = test::runtime();
  const std::size_t align = rt.device().base_address_alignment / sizeof(float);
  std::vector<float> host(2 * align);
  std::iota(host.begin(), host.end(), 0.5f);
  auto A = rt.allocate<float>(2 * align);
  copyto(A, host);  // host -> buffer
  auto B = rt.zeros<float>(2 * align);
  copyto(B, A);  // buffer -> buffer
  CHECK(B.to_vector() == host);
  auto C = rt.zeros<float>(4 * align);
  copyto(view(C, 2 * align, 2 * align), B);  // buffer -> view
  std::vector<float> back(2 * align);
  copyto(back, view(C, 2 * align, 2 * align));  // view -> host
  CHECK(back == host);
  copyto(view(C, 0, align), view(A, align, align));  // view -> view, both at offsets
  std::vector<float> first(align);
  copyto(first, view(C, 0, align));
  CHECK(first == std::vector<float>(host.begin() + align, host.end()));
  std::vector<float> wrong(3);
  CHECK_THROWS_WITH_AS(copyto(A, wrong), doctest::Contains("size mismatch"), UserError);
  CHECK_THROWS_WITH_AS(copyto(view(C), view(A)), doctest::Contains("size mismatch"), UserError);
}

// PoCL's clSetKernelArg keeps a sub-buffer as its parent and offset, and retains neither. A
// launch that skipped clSetKernelArg because the kernel already held a handle of the same value
// could hand PoCL a released view's parent and offset when a new view took the freed address
// (seen as a SIGSEGV inside PoCL under ASan). Views made and released in turn, as a loop would.
TEST_CASE("a view released and another made in its place: the kernel writes the new view") {
  auto& rt = test::runtime();
  const std::size_t align = rt.device().base_address_alignment / sizeof(double);
  const std::size_t n = 4 * align;
  Kernel scale = test::jit().compile(examples::scale(Scalar::F64, 1));
  auto in = rt.upload(std::vector<double>(n, 1.0));
  std::vector<Buffer<double>> outs;
  for (int round = 0; round < 8; ++round) outs.push_back(rt.zeros<double>(n));
  for (std::size_t round = 0; round < outs.size(); ++round) {
    CAPTURE(round);
    const std::size_t offset = (round % 3) * align;
    scale.launch(NDRange{align}, view(outs[round], offset, align), view(in, 0, align));
    rt.synchronize();
    const auto out = outs[round].to_vector();
    for (std::size_t i = 0; i < n; ++i) {
      CAPTURE(i);
      CHECK(out[i] == (i >= offset && i < offset + align ? 2.0 : 0.0));
    }
  }
}
