// Bad launches: every wrong argument, buffer and size is an exception that names what was wrong,
// an empty ndrange does nothing, and the process (and the kernel) stay usable afterwards.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "spvjit/examples.hpp"
#include "spvjit/index.hpp"
#include "test/shared_runtime.hpp"

using namespace spvjit;

namespace {

// out[i] = 1 with no test of its own: padding work-items would write past the buffer if they
// ran the body. Under inbounds() no check would catch them either.
KernelDef unguarded_fill(bool inbounds_kernel = false) {
  KernelBuilder kb(inbounds_kernel ? "reliability_unguarded_fill_inbounds"
                                   : "reliability_unguarded_fill");
  auto out = kb.param<Global<float>>("out");
  auto i = kb.global_index();
  out[i] = 1.0f;
  if (inbounds_kernel) kb.inbounds();
  return kb.finish();
}

// The same with a barrier first: every work-item of a group must reach it, so the kernel cannot
// leave its padding out by itself.
KernelDef unguarded_fill_after_barrier() {
  KernelBuilder kb("reliability_unguarded_fill_after_barrier");
  auto out = kb.param<Global<float>>("out");
  auto i = kb.global_index();
  barrier(kb);
  out[i] = 1.0f;
  return kb.finish();
}

// A kernel with local memory, to pass the wrong address space to.
KernelDef with_local() {
  KernelBuilder kb("reliability_with_local");
  auto out = kb.param<Global<float>>("out");
  auto scratch = kb.param<Local<float>>("scratch");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    scratch[kb.local_index()] = 2.0f;
    out[i] = scratch[kb.local_index()].get();
  });
  return kb.finish();
}

// After a rejected launch the same kernel must still launch and compute the right answer.
void check_saxpy_still_works(Kernel& k) {
  auto& rt = test::runtime();
  auto X = rt.upload(std::vector<float>(16, 1.0f));
  auto Y = rt.upload(std::vector<float>(16, 2.0f));
  auto Z = rt.zeros<float>(16);
  k.launch(NDRange{16}, Z, X, Y, 3.0f);
  rt.synchronize();
  for (float z : Z.to_vector()) CHECK(z == 5.0f);
}

}  // namespace

TEST_CASE("reliability: a wrong argument count names every expected parameter") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
  auto Z = rt.zeros<float>(4);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}), doctest::Contains("0 arguments given, expected 4"),
                       UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, Z, Z, Z, 1.0f, 1.0f),
                       doctest::Contains("5 arguments given, expected 4 (global f32* Z, "
                                         "global const f32* X, global const f32* Y, f32 a)"),
                       UserError);
  check_saxpy_still_works(k);
}

TEST_CASE("reliability: a wrong argument type or address space names the argument") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
  auto Zf = rt.zeros<float>(4);
  auto Zi = rt.zeros<std::int32_t>(4);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, Zi, Zf, Zf, 1.0f),
                       doctest::Contains("argument 0 'Z': expected global f32*, got Buffer<i32>"),
                       UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, 1.0f, Zf, Zf, 1.0f),
                       doctest::Contains("argument 0 'Z': expected global f32*, got a scalar f32"),
                       UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, Zf, Zf, Zf, Zf),
                       doctest::Contains("argument 3 'a': expected f32, got Buffer<f32>"),
                       UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, Zf, LocalMemory{64}, Zf, 1.0f),
                       doctest::Contains("argument 1 'X': expected global const f32*, got "
                                         "LocalMemory"),
                       UserError);

  Kernel local = test::jit().compile(with_local());
  CHECK_THROWS_WITH_AS(local.launch(NDRange{4}, Zf, Zf),
                       doctest::Contains("argument 1 'scratch': expected local f32[], got "
                                         "Buffer<f32>"),
                       UserError);
  CHECK_THROWS_WITH_AS(local.launch(NDRange{4}, Zf, LocalMemory{0}),
                       doctest::Contains("argument 1 'scratch': LocalMemory of 0 bytes"),
                       UserError);
  CHECK_THROWS_WITH_AS(local.launch(NDRange{4}, Zf, LocalMemory{std::size_t{1} << 40}),
                       doctest::Contains("the device's local memory"), UserError);
  local.launch(NDRange{4}, WorkGroup{4}, Zf, LocalMemory{4 * sizeof(float)});
  rt.synchronize();
  for (float z : Zf.to_vector()) CHECK(z == 2.0f);
  check_saxpy_still_works(k);
}

TEST_CASE("reliability: a null or released buffer is refused") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
  auto X = rt.zeros<float>(4);
  Buffer<float> never_allocated;
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, never_allocated, X, X, 1.0f),
                       doctest::Contains("argument 0 'Z': the buffer is empty"), UserError);
  auto released = rt.zeros<float>(4);
  auto taken = std::move(released);  // `released` no longer owns device memory
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, taken, released, X, 1.0f),
                       doctest::Contains("argument 1 'X': the buffer is empty"), UserError);
  CHECK_THROWS_WITH_AS(released.to_vector(), doctest::Contains("buffer is empty"), UserError);
  check_saxpy_still_works(k);
}

TEST_CASE("reliability: impossible buffer sizes are exceptions") {
  auto& rt = test::runtime();
  CHECK_THROWS_WITH_AS(rt.allocate<double>(std::numeric_limits<std::size_t>::max() / 4),
                       doctest::Contains("overflows"), UserError);
  // Representable, but far beyond any device: OpenCL refuses it and we say so.
  CHECK_THROWS_AS(rt.allocate<float>(std::size_t{1} << 60), Error);
  auto small = rt.zeros<float>(4);
  CHECK_THROWS_WITH_AS(small.write(std::vector<float>(5)), doctest::Contains("size mismatch"),
                       UserError);
}

TEST_CASE("reliability: an ndrange of 0 in any dimension is a no-op") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(examples::scale(Scalar::F32, 3));
  const std::vector<float> sentinel(8, -7.0f);
  auto A = rt.upload(sentinel);
  auto B = rt.upload(std::vector<float>(8, 1.0f));
  // Huge sizes beside a 0 are empty too, in any order (the fuzzer once found 2^40 x 0 x 2^40
  // accepted while 2^40 x 2^40 x 0 was refused as overflowing).
  const std::size_t big = std::size_t{1} << 40;
  const NDRange empties[] = {NDRange{0},           NDRange{0, 2},       NDRange{2, 0},
                             NDRange{2, 2, 0},     NDRange{0, 0, 0},    NDRange{big, 0, big},
                             NDRange{big, big, 0}, NDRange{0, big, big}};
  for (const NDRange& nd : empties) {
    CAPTURE(nd.to_string());
    k.launch(nd, A, B);
    k.launch(nd, WorkGroup{1, 1, 1}, A, B);
  }
  rt.synchronize();
  CHECK(A.to_vector() == sentinel);
  // Still checked: a bad argument is an error even when there is no work to do.
  CHECK_THROWS_AS(k.launch(NDRange{0}, A, A, A), UserError);
  k.launch(NDRange{2, 2, 2}, A, B);
  rt.synchronize();
  for (float a : A.to_vector()) CHECK(a == 2.0f);
}

TEST_CASE("reliability: negative and overflowing sizes are exceptions") {
  auto& rt = test::runtime();
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
  auto Z = rt.zeros<float>(4);
  const std::size_t negative = static_cast<std::size_t>(std::int64_t{-1});
  CHECK_THROWS_WITH_AS(k.launch(NDRange{negative}, Z, Z, Z, 1.0f), doctest::Contains("negative"),
                       UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4, negative}, Z, Z, Z, 1.0f),
                       doctest::Contains("dimension 1"), UserError);
  const std::size_t big = std::size_t{1} << 40;
  CHECK_THROWS_WITH_AS(k.launch(NDRange{big, big}, Z, Z, Z, 1.0f), doctest::Contains("overflows"),
                       UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, WorkGroup{0}, Z, Z, Z, 1.0f),
                       doctest::Contains("zero dimension"), UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, WorkGroup{negative}, Z, Z, Z, 1.0f),
                       doctest::Contains("above 2^63-1"), UserError);
  NDRange seven_dims{4};
  seven_dims.dims = 7;  // Extent3's fields are public: a caller can spoil them
  CHECK_THROWS_WITH_AS(k.launch(seven_dims, Z, Z, Z, 1.0f),
                       doctest::Contains("7 dimensions; expected 1 to 3"), UserError);
  WorkGroup no_dims{4};
  no_dims.dims = 0;
  CHECK_THROWS_AS(k.launch(NDRange{4}, no_dims, Z, Z, Z, 1.0f), UserError);
  check_saxpy_still_works(k);
}

TEST_CASE("reliability: a workgroup larger than the device allows is an exception") {
  auto& rt = test::runtime();
  const auto& info = rt.device();
  Kernel k = test::jit().compile(examples::saxpy(Scalar::F32));
  auto Z = rt.zeros<float>(4);
  const std::size_t too_many = info.max_workgroup_size * 2;
  CHECK_THROWS_AS(k.launch(NDRange{too_many}, WorkGroup{too_many}, Z, Z, Z, 1.0f), UserError);
  // Each dimension within its own limit, but together too many work-items.
  const std::size_t side = info.max_work_item_sizes[1];
  if (side * side > info.max_workgroup_size && side <= info.max_work_item_sizes[0]) {
    CHECK_THROWS_WITH_AS(k.launch(NDRange{side, side}, WorkGroup{side, side}, Z, Z, Z, 1.0f),
                         doctest::Contains("work-items"), UserError);
  }
  Specialization spec;
  spec.workgroup = WorkGroup{too_many};
  CHECK_THROWS_WITH_AS(test::jit().compile(examples::saxpy(Scalar::F32), spec),
                       doctest::Contains("outside the device's limits"), UserError);
  spec.workgroup = WorkGroup{0};
  CHECK_THROWS_AS(test::jit().compile(examples::saxpy(Scalar::F32), spec), UserError);
  check_saxpy_still_works(k);
}

TEST_CASE(
    "reliability: the padding work-items of a kernel without barriers do not run its body "
    "(KernelAbstractions' default)") {
  auto& rt = test::runtime();
  Specialization spec;
  spec.ndrange = NDRange{100};
  spec.workgroup = WorkGroup{64};
  for (bool inbounds_kernel : {false, true}) {
    CAPTURE(inbounds_kernel);
    const KernelDef def = unguarded_fill(inbounds_kernel);
    CHECK(def.pads_safely());
    Kernel fixed = test::jit().compile(def, spec);
    Kernel dynamic = test::jit().compile(def);
    // 28 padding work-items each time, next to a canary they would overwrite.
    for (int launch = 0; launch < 3; ++launch) {
      CAPTURE(launch);
      auto whole = rt.upload(std::vector<float>(256, -7.0f));
      auto out = view(whole, 0, 100);
      if (launch == 0) fixed.launch(NDRange{100}, out);
      if (launch == 1) dynamic.launch(NDRange{100}, WorkGroup{64}, out);
      if (launch == 2) dynamic.launch(NDRange{100}, out);
      CHECK_NOTHROW(rt.synchronize());
      const auto after = whole.to_vector();
      for (std::size_t i = 0; i < after.size(); ++i) {
        CAPTURE(i);
        REQUIRE(after[i] == (i < 100 ? 1.0f : -7.0f));
      }
    }
  }
}

TEST_CASE(
    "reliability: a line-for-line port of a KA kernel over global_linear() under inbounds() "
    "writes nothing for its padding, in 1 and 2 dimensions (issue #33, item 1)") {
  auto& rt = test::runtime();
  // A[I] = I + 1 with I = @index(Global, Linear) and @inbounds: no check stops a padded item.
  KernelBuilder kb("reliability_ka_linear_fill");
  auto a = kb.param<Global<float>>("A");
  auto i = global_linear(kb);
  a[i] = cast<float>(i) + 1.0f;
  kb.inbounds();
  Kernel k = test::jit().compile(kb.finish());
  // 1-D: 49 items in groups of 8 (7 padded). 2-D: 7 x 7 in groups of 4 x 4; a padded column 7
  // would write row r's index 7 + 7 r, which is row r + 1's first element.
  for (bool two_d : {false, true}) {
    CAPTURE(two_d);
    auto whole = rt.upload(std::vector<float>(128, -7.0f));
    if (two_d) {
      k.launch(NDRange{7, 7}, WorkGroup{4, 4}, view(whole, 0, 49));
    } else {
      k.launch(NDRange{49}, WorkGroup{8}, view(whole, 0, 49));
    }
    rt.synchronize();
    const auto after = whole.to_vector();
    for (std::size_t e = 0; e < after.size(); ++e) {
      CAPTURE(e);
      REQUIRE(after[e] == (e < 49 ? static_cast<float>(e) + 1.0f : -7.0f));
    }
  }
}

TEST_CASE(
    "reliability: a workgroup that does not divide a static ndrange of an unguarded kernel "
    "with barriers is an exception") {
  auto& rt = test::runtime();
  Specialization spec;
  spec.ndrange = NDRange{100};
  spec.workgroup = WorkGroup{64};
  CHECK_FALSE(unguarded_fill_after_barrier().pads_safely());
  CHECK_THROWS_WITH_AS(test::jit().compile(unguarded_fill_after_barrier(), spec),
                       doctest::Contains("does not divide"), UserError);
  // A dividing workgroup is fine, and so is a dynamic launch: the chosen workgroup divides.
  spec.workgroup = WorkGroup{25};
  Kernel fixed = test::jit().compile(unguarded_fill_after_barrier(), spec);
  Kernel dynamic = test::jit().compile(unguarded_fill_after_barrier());
  auto out = rt.zeros<float>(100);
  fixed.launch(NDRange{100}, out);
  rt.synchronize();
  for (float v : out.to_vector()) CHECK(v == 1.0f);
  auto out2 = rt.zeros<float>(100);
  CHECK_THROWS_WITH_AS(dynamic.launch(NDRange{100}, WorkGroup{64}, out2),
                       doctest::Contains("does not divide"), UserError);
  dynamic.launch(NDRange{100}, out2);
  rt.synchronize();
  for (float v : out2.to_vector()) CHECK(v == 1.0f);
}

TEST_CASE(
    "reliability: a kernel that guards its own bounds and says allow_padding() takes padded "
    "launches") {
  auto& rt = test::runtime();
  KernelBuilder kb("reliability_self_guarded_fill");
  kb.allow_padding();
  auto out = kb.param<Global<float>>("out");
  auto n = kb.param<std::int64_t>("n");
  auto i = kb.global_index();
  kb.if_(i < n, [&] { out[i] = 1.0f; });
  const KernelDef def = kb.finish();
  CHECK(def.pads_safely());
  CHECK(def.hash() != unguarded_fill().hash());
  Kernel k = test::jit().compile(def);
  auto buffer = rt.zeros<float>(100);
  k.launch(NDRange{100}, WorkGroup{64}, buffer, std::int64_t{100});  // 28 padding work-items
  rt.synchronize();
  for (float v : buffer.to_vector()) CHECK(v == 1.0f);
  Specialization spec;
  spec.ndrange = NDRange{100};
  spec.workgroup = WorkGroup{64};
  CHECK_NOTHROW(test::jit().compile(def, spec));
}

TEST_CASE(
    "reliability: a static ndrange whose work-items overflow size_t is refused at compile "
    "time (found by launch_geometry_fuzzer)") {
  Specialization spec;
  spec.ndrange = NDRange{std::size_t{1} << 40, 11, std::size_t{1} << 40};
  CHECK_THROWS_WITH_AS(test::jit().compile(examples::scale(Scalar::F32, 3), spec),
                       doctest::Contains("too large"), UserError);
  spec.ndrange = NDRange{std::size_t{1} << 63};
  CHECK_THROWS_WITH_AS(test::jit().compile(examples::scale(Scalar::F32, 1), spec),
                       doctest::Contains("too large"), UserError);
}
