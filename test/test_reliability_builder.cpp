// Builder misuse and reads of undefined values: each is a UserError while the kernel is being
// built — never an invalid module handed on, never a crash.
//
// What counts as "undefined" and is rejected:
//  - a Value, Val, Var or pointer that was default-constructed (never produced by a builder);
//  - a value computed inside an if_/loop body and read after it (finish() checks dominance);
//  - a value of a builder that already finished, or of another builder.
// A Var always has a value: var() demands one, so a load from an uninitialised slot cannot be
// written.
#include <doctest/doctest.h>

#include "spvjit/spvjit.hpp"

using namespace spvjit;

TEST_CASE("reliability: type errors name the operation and the types") {
  KernelBuilder kb("types");
  Value f = kb.param<float>("f");
  Value b = kb.param<bool>("b");
  Value i = kb.param<std::int32_t>("i");
  CHECK_THROWS_WITH_AS(binary(BinaryOp::Shl, f, f),
                       doctest::Contains("shl of kernel 'types': not defined for f32"), UserError);
  CHECK_THROWS_WITH_AS(binary(BinaryOp::And, f, f),
                       doctest::Contains("and of kernel 'types': not defined for f32"), UserError);
  CHECK_THROWS_WITH_AS(binary(BinaryOp::Add, b, b),
                       doctest::Contains("add of kernel 'types': not defined for bool"), UserError);
  CHECK_THROWS_WITH_AS(negate(b), doctest::Contains("neg of kernel 'types': not defined for bool"),
                       UserError);
  CHECK_THROWS_WITH_AS(logical_not(f),
                       doctest::Contains("not of kernel 'types': not defined for f32"), UserError);
  CHECK_THROWS_WITH_AS(
      select(i, f, f),
      doctest::Contains("select of kernel 'types': condition: expected bool, got i32"), UserError);
  CHECK_THROWS_WITH_AS(cast(f, Scalar::F16), doctest::Contains("f16 is a storage type"), UserError);
  CHECK_THROWS_WITH_AS(static_cast<void>(Val<double>(f)),
                       doctest::Contains("expected f64, got f32"), UserError);
  auto p = kb.param<Global<float>>("p");
  CHECK_THROWS_WITH_AS(load(p, f), doctest::Contains("index must be an integer, got f32"),
                       UserError);
  using PrivatePointer = Ptr<float, AddressSpace::Private>;
  CHECK_THROWS_WITH_AS(kb.param<PrivatePointer>("q"),
                       doctest::Contains("cannot take a private pointer"), UserError);
  CHECK_THROWS_AS(kb.param<float>("has space"), UserError);
  // The builder is still usable after each refusal.
  kb.if_(Val<bool>(b), [&] { p[kb.global_index()] = Val<float>(f); });
  CHECK(kb.finish().params().size() == 4);
}

TEST_CASE("reliability: default-constructed values are refused where they are used") {
  KernelBuilder kb("empties");
  auto out = kb.param<Global<float>>("out");
  Val<float> unset;
  Val<float> one = kb.lit(1.0f);
  CHECK_THROWS_WITH_AS(one + unset, doctest::Contains("operand is an empty Value"), UserError);
  CHECK_THROWS_WITH_AS(-unset, doctest::Contains("empty Value"), UserError);
  CHECK_THROWS_WITH_AS(cast(Value{}, Scalar::F32), doctest::Contains("empty Value"), UserError);
  CHECK_THROWS_WITH_AS(out[0] = unset, doctest::Contains("empty Value"), UserError);
  CHECK_THROWS_WITH_AS(out[Val<std::int64_t>()] = one, doctest::Contains("empty Value"), UserError);
  CHECK_THROWS_WITH_AS(kb.if_(Val<bool>(), [] {}), doctest::Contains("empty Value"), UserError);
  CHECK_THROWS_WITH_AS(kb.var(unset), doctest::Contains("empty Value"), UserError);
  Var<float> no_slot;
  CHECK_THROWS_AS(one + no_slot.get(), UserError);
  Global<float> no_pointer;
  CHECK_THROWS_AS(one + no_pointer[0], UserError);
  CHECK_THROWS_AS(no_pointer[0] = one, UserError);
  out[0] = one;
  CHECK(kb.finish().valid());
}

TEST_CASE("reliability: a value read outside the if_ that computed it is refused at finish") {
  KernelBuilder kb("escaped_if");
  auto out = kb.param<Global<float>>("out");
  auto i = kb.global_index();
  Val<float> escaped;
  kb.if_(i < std::int64_t{4}, [&] { escaped = out[i] * 2.0f; });
  out[i] = escaped;  // undefined for work-items that skipped the if_
  CHECK_THROWS_WITH_AS(kb.finish(), doctest::Contains("outside the if_/loop body that computed it"),
                       UserError);
}

TEST_CASE("reliability: a value read after the loop that computed it is refused at finish") {
  KernelBuilder kb("escaped_loop");
  auto out = kb.param<Global<std::int32_t>>("out");
  Val<std::int32_t> last;
  kb.for_(kb.lit<std::int64_t>(0), kb.lit<std::int64_t>(8), kb.lit<std::int64_t>(1),
          [&](Val<std::int64_t> k) { last = cast<std::int32_t>(k) * 3; });
  out[0] = last;
  CHECK_THROWS_WITH_AS(kb.finish(), doctest::Contains("may be undefined"), UserError);
}

TEST_CASE("reliability: the same value carried out through a var() is accepted") {
  KernelBuilder kb("carried");
  auto out = kb.param<Global<std::int32_t>>("out");
  auto last = kb.var<std::int32_t>(0);
  kb.for_(kb.lit<std::int64_t>(0), kb.lit<std::int64_t>(8), kb.lit<std::int64_t>(1),
          [&](Val<std::int64_t> k) { last = cast<std::int32_t>(k) * 3; });
  out[0] = last.get();
  CHECK(kb.finish().valid());
}

TEST_CASE("reliability: code after return_ or break_ may read anything: it never runs") {
  KernelBuilder kb("after_return");
  auto out = kb.param<Global<float>>("out");
  auto v = out[0].get();
  kb.return_();
  out[1] = v;
  CHECK(kb.finish().valid());
}

TEST_CASE("reliability: values of a finished builder cannot be used") {
  KernelBuilder kb("done");
  auto out = kb.param<Global<float>>("out");
  Val<float> v = kb.lit(1.0f);
  out[0] = v;
  auto def = kb.finish();
  CHECK_THROWS_WITH_AS(v + v, doctest::Contains("already finished"), UserError);
  CHECK_THROWS_WITH_AS(out[0] = v, doctest::Contains("already finished"), UserError);
  CHECK_THROWS_WITH_AS(kb.finish(), doctest::Contains("already finished"), UserError);
  CHECK(def.valid());
}
