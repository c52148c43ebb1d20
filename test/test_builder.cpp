// Builder misuse is a clear UserError at build time.
#include <doctest/doctest.h>

#include "spvjit/spvjit.hpp"

using namespace spvjit;

TEST_CASE("mixing types without a cast names the operation and both types") {
  KernelBuilder kb("mix");
  Value f = kb.param<float>("f");
  Value i = kb.param<std::int32_t>("i");
  CHECK_THROWS_WITH_AS(binary(BinaryOp::Add, f, i),
                       doctest::Contains("add of kernel 'mix': operand types differ: f32 and i32"),
                       UserError);
  CHECK_THROWS_WITH_AS(compare(CompareOp::Lt, i, f),
                       doctest::Contains("lt of kernel 'mix': operand types differ: i32 and f32"),
                       UserError);
  Value ok = binary(BinaryOp::Add, f, cast(i, Scalar::F32));
  CHECK(ok.type() == Scalar::F32);
}

TEST_CASE("a store through a read-only pointer is refused") {
  KernelBuilder kb("ro");
  auto x = kb.param<Const<float>>("X");
  CHECK_THROWS_WITH_AS(store(x, kb.lit<std::int64_t>(0), kb.lit(1.0f)),
                       doctest::Contains("read-only"), UserError);
}

TEST_CASE("a store of the wrong type is refused") {
  KernelBuilder kb("wrong");
  auto z = kb.param<Global<double>>("Z");
  CHECK_THROWS_WITH_AS(store(z, kb.lit<std::int64_t>(0), kb.lit(1.0f)),
                       doctest::Contains("value of type f32 into memory of f64"), UserError);
}

TEST_CASE("bad names, dimensions and reuse after finish") {
  CHECK_THROWS_AS(KernelBuilder("1bad"), UserError);
  KernelBuilder kb("k");
  kb.param<float>("a");
  CHECK_THROWS_WITH_AS(kb.param<float>("a"), doctest::Contains("declared twice"), UserError);
  CHECK_THROWS_WITH_AS(kb.global_index(3), doctest::Contains("expected 0, 1 or 2"), UserError);
  CHECK_THROWS_WITH_AS(kb.break_(), doctest::Contains("not inside a loop"), UserError);
  auto def = kb.finish();
  CHECK(def.params().size() == 1);
  CHECK_THROWS_WITH_AS(kb.global_index(0), doctest::Contains("already finished"), UserError);
}

TEST_CASE("operands of two different kernels cannot meet") {
  KernelBuilder a("a");
  KernelBuilder b("b");
  Value x = a.param<float>("x");
  Value y = b.param<float>("y");
  CHECK_THROWS_WITH_AS(binary(BinaryOp::Mul, x, y), doctest::Contains("another kernel"), UserError);
}

// A builder error starts with the operation and the kernel (common/error_report.hpp); one about
// an operand of no kernel (empty), or a kernel not yet made, names the operation alone.
TEST_CASE("builder errors start with the operation and the kernel") {
  CHECK_THROWS_WITH_AS(
      KernelBuilder("1bad"),
      doctest::Contains("KernelBuilder: kernel name '1bad' is not a valid identifier"), UserError);
  KernelBuilder kb("where");
  auto z = kb.param<Global<float>>("Z");
  CHECK_THROWS_WITH_AS(kb.param<float>("Z"),
                       "param of kernel 'where': parameter 'Z' declared twice", UserError);
  CHECK_THROWS_WITH_AS(
      kb.global_index(3),
      "global_index of kernel 'where': dimension 3 is out of range; expected 0, 1 or 2", UserError);
  CHECK_THROWS_WITH_AS(kb.continue_(), "continue_ of kernel 'where': not inside a loop", UserError);
  CHECK_THROWS_WITH_AS(binary(BinaryOp::Add, Value(), kb.lit(1.0f)),
                       "add: operand is an empty Value", UserError);
  kb.finish();
  CHECK_THROWS_WITH_AS(
      store(z, kb.lit<std::int64_t>(0), kb.lit(1.0f)),
      "store of kernel 'where': the kernel was already finished; start a new KernelBuilder",
      UserError);
}

TEST_CASE("the builder's output is deterministic, so its hash is stable") {
  auto make = [] {
    KernelBuilder kb("det");
    auto z = kb.param<Global<float>>("Z");
    auto i = kb.global_index();
    kb.if_(kb.in_ndrange(), [&] { z[i] = z[i] * 2.0f; });
    return kb.finish();
  };
  CHECK(make().hash() == make().hash());
  CHECK(make().to_string().find("define spir_kernel void @det") != std::string::npos);
}

TEST_CASE("work_per_item takes at least one index's work") {
  KernelBuilder kb("heavy");
  CHECK_THROWS_WITH_AS(kb.work_per_item(0),
                       doctest::Contains("work_per_item of kernel 'heavy': 0 indices; expected"),
                       UserError);
  CHECK_NOTHROW(kb.work_per_item(64));
}
