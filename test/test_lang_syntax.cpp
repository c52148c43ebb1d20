// The everyday syntax a KernelAbstractions port needs: loops over plain or typed bounds with
// any step (and Julia's inclusive ranges), the lazy conditional value, and compound assignment
// and integer operators on variables and elements. Each kernel runs against a host reference.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

template <class F>
std::string user_error_of(F&& f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return {};
}

// A loop's trace: how many iterations, and a checksum of the counters in order.
struct Trace {
  std::int64_t count = 0;
  std::int64_t hash = 0;
  void visit(std::int64_t i) {
    ++count;
    hash = hash * 31 + i;
  }
};

// Records one loop's trace in out[slot] (count) and out[slot + 1] (hash).
struct Recorder {
  KernelBuilder& kb;
  Global<std::int64_t> out;
  Var<std::int64_t> count, hash;
  Recorder(KernelBuilder& b, Global<std::int64_t> o)
      : kb(b), out(o), count(kb.var<std::int64_t>(0)), hash(kb.var<std::int64_t>(0)) {}
  template <class I>
  void visit(Val<I> i) {
    count += 1;
    hash = hash * std::int64_t{31} + cast<std::int64_t>(i);
  }
  void store(std::int64_t slot) {
    out[slot] = count.get();
    out[slot + 1] = hash.get();
    count = kb.lit<std::int64_t>(0);
    hash = kb.lit<std::int64_t>(0);
  }
};

template <class A, class B>
concept plus_assignable = requires(const A& a, B b) {
  a += b;
};
template <class A, class B>
concept shift_assignable = requires(const A& a, B b) {
  a <<= b;
};
template <class A, class B>
concept and_assignable = requires(const A& a, B b) {
  a &= b;
};
template <class A, class B>
concept mod_assignable = requires(const A& a, B b) {
  a %= b;
};
template <class A, class B>
concept bit_and = requires(const A& a, B b) {
  a& b;
};
template <class A, class B>
concept shift_right = requires(const A& a, B b) {
  a >> b;
};

}  // namespace

// --- loops ---------------------------------------------------------------------------------

static_assert(std::is_same_v<detail::loop_counter_t<int, int, int>, std::int64_t>);
static_assert(std::is_same_v<detail::loop_counter_t<int, Val<std::int32_t>, int>, std::int32_t>);
static_assert(
    std::is_same_v<detail::loop_counter_t<Var<std::uint16_t>, long, unsigned>, std::uint16_t>);
static_assert(
    std::is_same_v<detail::loop_counter_t<Ref<const std::int8_t>, Val<std::int8_t>>, std::int8_t>);
static_assert(!detail::LoopBound<float> && !detail::LoopBound<Val<float>> &&
              !detail::LoopBound<bool>);

TEST_CASE("for_: plain C++ bounds, typed counters, negative and run-time steps") {
  KernelBuilder kb("loops_plain");
  auto out = kb.param<Global<std::int64_t>>("out");
  auto n = kb.param<std::int64_t>("n");          // 7
  auto n32 = kb.param<std::int32_t>("n32");      // 7
  auto step = kb.param<std::int64_t>("step");    // run-time step
  auto down = kb.param<std::int64_t>("down");    // a negative run-time step
  auto zero = kb.param<std::int64_t>("zero");    // 0
  auto small = kb.param<std::uint8_t>("small");  // 250
  Recorder r(kb, out);
  kb.for_(0, n, 1, [&](Val<std::int64_t> i) { r.visit(i); });
  r.store(0);
  kb.for_(0, 10, [&](Val<std::int64_t> i) { r.visit(i); });
  r.store(2);
  kb.for_(1, n32, 2, [&](Val<std::int32_t> i) { r.visit(i); });
  r.store(4);
  kb.for_(n32, 0, -1, [&](Val<std::int32_t> i) { r.visit(i); });
  r.store(6);
  kb.for_(3, 40, step, [&](Val<std::int64_t> i) { r.visit(i); });
  r.store(8);
  kb.for_(20, -5, down, [&](Val<std::int64_t> i) { r.visit(i); });
  r.store(10);
  kb.for_(0, 10, zero, [&](Val<std::int64_t> i) { r.visit(i); });  // no iterations, no hang
  r.store(12);
  kb.for_(small, 255, 2, [&](Val<std::uint8_t> i) { r.visit(i); });  // 250, 252, 254: no wrap
  r.store(14);
  auto v = kb.var<std::int16_t>(5);
  kb.for_(v, 0, -2, [&](Val<std::int16_t> i) { r.visit(i); });
  r.store(16);
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  auto buf = rt.upload(std::vector<std::int64_t>(18, -1));
  k.launch(NDRange{1}, WorkGroup{1}, buf, std::int64_t{7}, std::int32_t{7}, std::int64_t{5},
           std::int64_t{-4}, std::int64_t{0}, std::uint8_t{250});
  rt.synchronize();
  const auto got = buf.to_vector();
  auto expect = [&](std::size_t slot, std::int64_t from, std::int64_t to, std::int64_t by) {
    Trace t;
    if (by > 0) {
      for (std::int64_t i = from; i < to; i += by) t.visit(i);
    } else if (by < 0) {
      for (std::int64_t i = from; i > to; i += by) t.visit(i);
    }
    CAPTURE(slot);
    CHECK(got[slot] == t.count);
    CHECK(got[slot + 1] == t.hash);
  };
  expect(0, 0, 7, 1);
  expect(2, 0, 10, 1);
  expect(4, 1, 7, 2);
  expect(6, 7, 0, -1);
  expect(8, 3, 40, 5);
  expect(10, 20, -5, -4);
  expect(12, 0, 10, 0);
  expect(14, 250, 255, 2);
  expect(16, 5, 0, -2);
}

TEST_CASE("for_: Julia ranges first:last and first:step:last, to the type's limits") {
  KernelBuilder kb("loops_range");
  auto out = kb.param<Global<std::int64_t>>("out");
  auto n = kb.param<std::int64_t>("n");        // 6
  auto m8 = kb.param<std::int8_t>("m8");       // 127
  auto step = kb.param<std::int64_t>("step");  // -3
  Recorder r(kb, out);
  kb.for_(range(1, n), [&](Val<std::int64_t> i) { r.visit(i); });
  r.store(0);
  kb.for_(range(n, -1, 1), [&](Val<std::int64_t> i) { r.visit(i); });
  r.store(2);
  kb.for_(range(2, 3, 11), [&](Val<std::int64_t> i) { r.visit(i); });
  r.store(4);
  kb.for_(range(5, 4), [&](Val<std::int64_t> i) { r.visit(i); });  // empty, as 5:4 in Julia
  r.store(6);
  kb.for_(range(120, m8), [&](Val<std::int8_t> i) { r.visit(i); });  // ends at 127 exactly
  r.store(8);
  kb.for_(range(kb.lit<std::int8_t>(-120), -1, -128), [&](Val<std::int8_t> i) { r.visit(i); });
  r.store(10);
  kb.for_(range(m8, -100, -128), [&](Val<std::int8_t> i) { r.visit(i); });  // 127, 27, -73
  r.store(12);
  kb.for_(range(10, step, -2), [&](Val<std::int64_t> i) { r.visit(i); });
  r.store(14);
  kb.for_(0, m8, 100, [&](Val<std::int8_t> i) { r.visit(i); });  // 0, 100: 200 would wrap
  r.store(16);
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  auto buf = rt.upload(std::vector<std::int64_t>(18, -1));
  k.launch(NDRange{1}, WorkGroup{1}, buf, std::int64_t{6}, std::int8_t{127}, std::int64_t{-3});
  rt.synchronize();
  const auto got = buf.to_vector();
  auto expect = [&](std::size_t slot, std::int64_t first, std::int64_t by, std::int64_t last) {
    Trace t;
    if (by > 0) {
      for (std::int64_t i = first; i <= last; i += by) t.visit(i);
    } else {
      for (std::int64_t i = first; i >= last; i += by) t.visit(i);
    }
    CAPTURE(slot);
    CHECK(got[slot] == t.count);
    CHECK(got[slot + 1] == t.hash);
  };
  expect(0, 1, 1, 6);
  expect(2, 6, -1, 1);
  expect(4, 2, 3, 11);
  expect(6, 5, 1, 4);
  expect(8, 120, 1, 127);
  expect(10, -120, -1, -128);
  expect(12, 127, -100, -128);
  expect(14, 10, -3, -2);
  expect(16, 0, 100, 126);
}

TEST_CASE("for_: break_ and continue_ in every form, continue stepping the counter") {
  KernelBuilder kb("loops_jumps");
  auto out = kb.param<Global<std::int64_t>>("out");
  auto step = kb.param<std::int64_t>("step");  // 1 at run time
  Recorder r(kb, out);
  auto body = [&](Val<std::int64_t> i) {
    kb.if_(i % std::int64_t{3} == std::int64_t{0}, [&] { kb.continue_(); });
    kb.if_(i > std::int64_t{14}, [&] { kb.break_(); });
    r.visit(i);
  };
  kb.for_(0, 100, body);
  r.store(0);
  kb.for_(0, 100, step, body);
  r.store(2);
  kb.for_(range(0, 100), body);
  r.store(4);
  kb.for_(range(0, step, 100), body);
  r.store(6);
  auto down = [&](Val<std::int64_t> i) {
    kb.if_(i % std::int64_t{3} == std::int64_t{0}, [&] { kb.continue_(); });
    kb.if_(i < std::int64_t{20}, [&] { kb.break_(); });
    r.visit(i);
  };
  kb.for_(range(30, -1, 0), down);
  r.store(8);
  const auto got = [&] {
    Kernel k = test::compile_checked(kb.finish());
    auto& rt = test::runtime();
    auto buf = rt.upload(std::vector<std::int64_t>(10, -1));
    k.launch(NDRange{1}, WorkGroup{1}, buf, std::int64_t{1});
    rt.synchronize();
    return buf.to_vector();
  }();
  Trace up;
  for (std::int64_t i = 0; i < 100; ++i) {
    if (i % 3 == 0) continue;
    if (i > 14) break;
    up.visit(i);
  }
  for (std::size_t slot : {0u, 2u, 4u, 6u}) {
    CAPTURE(slot);
    CHECK(got[slot] == up.count);
    CHECK(got[slot + 1] == up.hash);
  }
  Trace dn;
  for (std::int64_t i = 30; i >= 0; --i) {
    if (i % 3 == 0) continue;
    if (i < 20) break;
    dn.visit(i);
  }
  CHECK(got[8] == dn.count);
  CHECK(got[9] == dn.hash);
}

TEST_CASE("for_: a zero step known when building, and plain bounds outside the counter's type") {
  KernelBuilder kb("loops_bad");
  auto small = kb.param<std::uint8_t>("small");
  auto n = kb.param<std::int64_t>("n");
  auto body = [](auto) {};
  auto msg = user_error_of([&] { kb.for_(0, n, 0, body); });
  CHECK(msg.find("step is 0") != std::string::npos);
  msg = user_error_of([&] { kb.for_(0, n, kb.lit<std::int64_t>(0), body); });
  CHECK(msg.find("step is 0") != std::string::npos);
  msg = user_error_of([&] { kb.for_(small, 300, body); });
  CHECK(msg.find("end 300 does not fit the counter's type u8") != std::string::npos);
  msg = user_error_of([&] { kb.for_(range(small, -1, 0), body); });
  CHECK(msg.find("step -1 does not fit the counter's type u8") != std::string::npos);
  KernelBuilder other("loops_other");
  auto foreign = other.param<std::int64_t>("m");
  msg = user_error_of([&] { kb.for_(0, foreign, body); });
  CHECK(msg.find("another kernel") != std::string::npos);
}

// --- the lazy conditional value --------------------------------------------------------------

TEST_CASE("ternary: only the taken side runs, so a guarded read past the end is never made") {
  // KA: bin = tid <= length(input) ? input[tid] : 0
  KernelBuilder kb("ternary_guard");
  auto out = kb.param<Global<float>>("out");
  auto in = kb.param<Const<float>>("in");
  auto ints = kb.param<Global<std::int32_t>>("ints");
  auto len = kb.param<std::int64_t>("len");
  auto tid = kb.global_index();
  auto inside = tid < len;
  auto bin = kb.ternary(
      inside, [&] { return in[tid]; }, [&] { return kb.lit(0.0f); });
  auto scaled = kb.ternary(
      inside, [&] { return in[tid] * 2.0f; }, [] { return -1; });
  auto counter = kb.var<std::int32_t>(7);
  auto plain = kb.ternary(
      !inside, [] { return 10; }, [&] { return counter; });
  out[tid] = bin + scaled;
  ints[tid] = plain;
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::size_t n = 20, items = 32;
  std::vector<float> input(n);
  for (std::size_t i = 0; i < n; ++i) input[i] = 0.5f * static_cast<float>(i) + 1.0f;
  auto in_buf = rt.upload(input);
  auto out_buf = rt.zeros<float>(items);
  auto int_buf = rt.zeros<std::int32_t>(items);
  k.launch(NDRange{items}, WorkGroup{8}, out_buf, in_buf, int_buf, static_cast<std::int64_t>(n));
  rt.synchronize();  // a BoundsError here would mean in[tid] was read for tid >= len
  const auto got = out_buf.to_vector();
  const auto got_ints = int_buf.to_vector();
  for (std::size_t i = 0; i < items; ++i) {
    CAPTURE(i);
    const float expected = i < n ? input[i] + input[i] * 2.0f : 0.0f - 1.0f;
    CHECK(got[i] == expected);
    CHECK(got_ints[i] == (i < n ? 7 : 10));
  }
}

static_assert(std::is_same_v<detail::ternary_t<Val<float>, float>, float>);
static_assert(std::is_same_v<detail::ternary_t<int, Ref<const half>>, float>);
static_assert(
    std::is_same_v<detail::ternary_t<Var<std::uint8_t>, Val<std::uint8_t>>, std::uint8_t>);
static_assert(std::is_same_v<detail::ternary_t<double, double>, double>);

// --- operators on variables and elements -----------------------------------------------------

static_assert(plus_assignable<Ref<float>, float>);
static_assert(plus_assignable<Ref<float>, Val<float>>);
static_assert(plus_assignable<Ref<half>, float>);
static_assert(!plus_assignable<Ref<const float>, float>);
static_assert(!plus_assignable<Ref<const float>, Val<float>>);
static_assert(!mod_assignable<Ref<const std::int32_t>, std::int32_t>);
static_assert(!shift_assignable<Ref<const std::int32_t>, std::int32_t>);
static_assert(shift_assignable<Ref<std::uint32_t>, std::uint32_t>);
static_assert(shift_assignable<Var<std::int64_t>, Val<std::int64_t>>);
static_assert(!shift_assignable<Ref<float>, float>);
static_assert(!shift_assignable<Var<double>, double>);
static_assert(!and_assignable<Var<float>, float>);
static_assert(!and_assignable<Ref<double>, Val<double>>);
static_assert(and_assignable<Var<bool>, Val<bool>>);
static_assert(!bit_and<Val<float>, Val<float>>);
static_assert(!bit_and<Var<float>, float>);
static_assert(!bit_and<Ref<float>, Val<float>>);
static_assert(bit_and<Ref<std::int32_t>, Var<std::int32_t>>);
static_assert(!shift_right<Val<bool>, Val<bool>>);
static_assert(shift_right<Var<std::uint16_t>, std::uint16_t>);

TEST_CASE("compound assignment and integer operators on Var and on elements") {
  KernelBuilder kb("operators");
  auto o = kb.param<Global<std::int32_t>>("o");  // 30 results
  auto f = kb.param<Global<float>>("f");         // 8 results
  auto a = kb.param<Global<std::int32_t>>("a");  // a[0] = 1000, a[1] = 7, a[2] = 3
  auto x = kb.param<Const<float>>("x");          // x[0] = 2.5
  auto seven = kb.var<std::int32_t>(7);
  auto v = kb.var<std::int32_t>(100);
  // Var with Val, Var, element and plain operands.
  v += a[1];  // 107
  o[0] = v;
  v -= seven;  // 100
  o[1] = v;
  v *= 3;  // 300
  o[2] = v;
  v /= kb.lit(7);  // 42
  o[3] = v;
  v %= a[2] + 2;  // 2
  o[4] = v;
  v <<= 4;  // 32
  o[5] = v;
  v |= seven;  // 39
  o[6] = v;
  v &= a[2] * 5;  // 39 & 15 = 7
  o[7] = v;
  v ^= 5;  // 2
  o[8] = v;
  v = kb.lit(-64);
  v >>= 2;  // -16 (arithmetic shift)
  o[9] = v;
  // Elements with Val, Var, element and plain operands.
  o[10] = 5;
  o[10] += 1;      // 6
  o[10] *= seven;  // 42
  o[10] -= a[1];   // 35
  o[10] /= 2;      // 17
  o[10] %= seven;  // 3
  o[11] = 1;
  o[11] <<= a[2];      // 8
  o[11] |= 3;          // 11
  o[11] ^= seven;      // 12
  o[11] &= kb.lit(4);  // 4
  o[11] >>= 1;         // 2
  // Binary operators on Var and element operands.
  o[12] = a[0] % seven;       // 1000 % 7 = 6
  o[13] = seven % a[2];       // 1
  o[14] = a[0] & seven;       // 1000 & 7 = 0
  o[15] = a[0] | a[2];        // 1003
  o[16] = seven ^ a[1];       // 0
  o[17] = a[2] << seven;      // 384
  o[18] = a[0] >> a[2];       // 125
  o[19] = seven << 2;         // 28
  o[20] = 1000 >> seven;      // 7
  o[21] = a[0] % 7;           // 6
  o[22] = seven % seven;      // 0
  o[23] = kb.lit(99) % a[0];  // 99
  // Floats: the arithmetic compound assignments, `o[i] += 1.0f` among them.
  f[0] = 1.0f;
  f[0] += 1.0f;  // 2
  f[0] *= x[0];  // 5
  f[0] -= 0.5f;  // 4.5
  f[0] /= 3;     // 1.5
  auto acc = kb.var(10.0f);
  acc += x[0];  // 12.5
  acc %= 5.0f;  // 2.5
  f[1] = acc;
  f[2] = 0.25f;
  f[2] += acc;   // 2.75
  f[2] += f[0];  // 4.25
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  auto ob = rt.zeros<std::int32_t>(30);
  auto fb = rt.zeros<float>(8);
  auto ab = rt.upload(std::vector<std::int32_t>{1000, 7, 3});
  auto xb = rt.upload(std::vector<float>{2.5f});
  k.launch(NDRange{1}, WorkGroup{1}, ob, fb, ab, xb);
  rt.synchronize();
  const auto got = ob.to_vector();
  const std::vector<std::int32_t> expected = {107, 100, 300, 42,   2, 32,  39,  7,  2, -16, 3, 2,
                                              6,   1,   0,   1003, 0, 384, 125, 28, 7, 6,   0, 99};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == expected[i]);
  }
  const auto fl = fb.to_vector();
  CHECK(fl[0] == 1.5f);
  CHECK(fl[1] == 2.5f);
  CHECK(fl[2] == 4.25f);
}

// --- variables and elements as indices and cast operands ---------------------------------------

TEST_CASE("arrays indexed by a variable or an element, and cast of either, read it first") {
  // KA: shared_histogram[bin] with bin a variable; Int64(input[tid]) on an element.
  KernelBuilder kb("index_by_var");
  auto out = kb.param<Global<std::int64_t>>("out");
  auto where = kb.param<Const<std::int32_t>>("where");
  auto tid = kb.global_index();
  auto table = private_array<std::int64_t>(kb, {4});
  kb.for_(0, 4, [&](Val<std::int64_t> k) { table(k) = k * 100; });
  auto slot = kb.var(cast<std::int64_t>(where[tid]));
  slot = slot % std::int64_t{4};
  auto view_of_out = view(out, kb.ndrange());
  view_of_out(tid) = table(slot) + cast<std::int64_t>(slot);
  auto perm = kb.param<Const<std::int64_t>>("perm");
  auto gathered = kb.param<Global<std::int32_t>>("gathered");
  auto by_slot = kb.param<Global<std::int64_t>>("by_slot");
  by_slot[slot] = slot;                    // a pointer indexed by a variable
  gathered[perm[tid]] = where[perm[tid]];  // and by an element
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::vector<std::int32_t> input = {3, 6, 1, 0, 9, 2, 7, 4};
  auto in_buf = rt.upload(input);
  auto out_buf = rt.zeros<std::int64_t>(input.size());
  const std::vector<std::int64_t> permutation = {5, 2, 7, 0, 3, 6, 1, 4};
  auto perm_buf = rt.upload(permutation);
  auto gathered_buf = rt.zeros<std::int32_t>(input.size());
  auto by_slot_buf = rt.zeros<std::int64_t>(4);
  k.launch(NDRange{input.size()}, out_buf, in_buf, perm_buf, gathered_buf, by_slot_buf);
  rt.synchronize();
  CHECK(gathered_buf.to_vector() == input);
  CHECK(by_slot_buf.to_vector() == std::vector<std::int64_t>{0, 1, 2, 3});
  const auto got = out_buf.to_vector();
  for (std::size_t i = 0; i < input.size(); ++i) {
    CAPTURE(i);
    const std::int64_t s = input[i] % 4;
    CHECK(got[i] == s * 100 + s);
  }
}
