// Structs as kernel parameters: layouts against the C++ compiler's, members read and written
// through pointers to arrays of structs, by-value structs, whole-struct copies, private struct
// variables, device functions taking structs and returning several values, and the launch's
// checks of the C++ type; each result against the same computation on the host.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

#include "jit/cache/cache_key.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;

namespace structs_test {

struct Particle {
  float x, y;
  std::int32_t id;
  double mass;  // after 12 bytes: 4 bytes of padding first
};
SPVJIT_STRUCT(Particle, x, y, id, mass)

struct Inner {
  std::int16_t tag;  // then 2 bytes of padding
  float weight;
};
SPVJIT_STRUCT(Inner, tag, weight)

struct Outer {
  std::uint8_t flag;   // then 3 bytes of padding
  Inner inner;         // at 4
  float v[3];          // at 12
  std::int64_t count;  // at 24
  std::uint16_t last;  // at 32, then tail padding to 40
};
SPVJIT_STRUCT(Outer, flag, inner, v, count, last)

struct Odd {  // 6 bytes: not a multiple of 8, nor of 4
  std::int16_t a;
  std::uint8_t b;
  std::uint8_t c;
  std::int16_t d;
};
SPVJIT_STRUCT(Odd, a, b, c, d)

struct SameShape {  // Particle's layout under another name
  float x, y;
  std::int32_t id;
  double mass;
};
SPVJIT_STRUCT(SameShape, x, y, id, mass)

struct Reordered {  // Particle's members in another order: another layout
  double mass;
  float x, y;
  std::int32_t id;
};
SPVJIT_STRUCT(Reordered, mass, x, y, id)

struct Point {
  float x, y;
};
SPVJIT_STRUCT(Point, x, y)

struct Neighbour {  // Rodinia lavaMD's nei_str
  std::int32_t x, y, z, number;
  std::int64_t offset;
};
SPVJIT_STRUCT(Neighbour, x, y, z, number, offset)

struct Box {  // a struct holding an array of structs, as lavaMD's box_str (26 there)
  std::int32_t number;
  std::int64_t offset;  // at 8
  std::int32_t nn;      // at 16, then 4 bytes of padding
  Neighbour nei[3];     // at 24, 24 bytes each
};
SPVJIT_STRUCT(Box, number, offset, nn, nei)

struct Packed {
  std::uint8_t tag;
  std::int32_t value;
} __attribute__((packed));
SPVJIT_STRUCT(Packed, tag, value)

}  // namespace structs_test

using namespace structs_test;

static_assert(KernelStruct<Particle> && KernelElement<Particle> && !KernelScalar<Particle>);
static_assert(!KernelStruct<float> && KernelElement<float>);
static_assert(requires(Runtime & rt) { rt.allocate<Particle>(4); });

namespace {

template <class S>
concept MemberAssignable = requires(S s, Val<float> x) {
  s[&Particle::x] = x;
};
template <class R, class V>
concept Assignable = requires(R r, V v) {
  r = v;
};
template <class R, class V>
concept PlusAssignable = requires(const R& r, V v) {
  r += v;
};

std::vector<Particle> particles(std::size_t n) {
  std::vector<Particle> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = {static_cast<float>(i) * 0.5f, static_cast<float>(i) + 1.0f,
              static_cast<std::int32_t>(i * 3), 10.0 + static_cast<double>(i)};
  }
  return out;
}

}  // namespace

TEST_CASE("structs: layouts follow the C++ compiler's offsets, padding and size") {
  const auto& p = *struct_layout<Particle>();
  CHECK(p.size() == sizeof(Particle));
  CHECK(p.align() == alignof(Particle));
  REQUIRE(p.fields().size() == 4);
  CHECK(p.fields()[2].offset == offsetof(Particle, id));
  CHECK(p.fields()[3].offset == offsetof(Particle, mass));
  CHECK(p.fields()[3].offset == 16);
  CHECK(p.describe() == "struct Particle{f32,f32,i32,f64} (24 bytes)");
  CHECK(p.signature() == "f32@0,f32@4,i32@8,f64@16,/24");

  const auto& o = *struct_layout<Outer>();
  CHECK(o.size() == sizeof(Outer));
  CHECK(o.size() == 40);
  CHECK(o.fields()[1].offset == offsetof(Outer, inner));
  CHECK(o.fields()[2].offset == offsetof(Outer, v));
  CHECK(o.fields()[3].offset == offsetof(Outer, count));
  CHECK(o.fields()[4].offset == offsetof(Outer, last));
  CHECK(o.describe() == "struct Outer{u8,struct Inner{i16,f32},f32[3],i64,u16} (40 bytes)");
  const std::vector<StructLeaf> leaves = {{0, Scalar::U8},   {4, Scalar::I16},  {8, Scalar::F32},
                                          {12, Scalar::F32}, {16, Scalar::F32}, {20, Scalar::F32},
                                          {24, Scalar::I64}, {32, Scalar::U16}};
  CHECK(o.leaves() == leaves);

  CHECK(struct_layout<Odd>()->size() == 6);
  CHECK(struct_layout<Odd>()->fields()[3].offset == offsetof(Odd, d));

  CHECK(p.same_shape(*struct_layout<SameShape>()));
  CHECK_FALSE(p.accepts(*struct_layout<SameShape>()));  // another struct of the same shape
  CHECK_FALSE(p.same_shape(*struct_layout<Reordered>()));
}

TEST_CASE("structs: the kernel's struct type has the C++ offsets, checked when built") {
  KernelBuilder kb("outer_layout");
  auto os = kb.param<Global<Outer>>("os");
  (void)os;
  const std::string ir = kb.to_string();
  // u8, 3 bytes of padding, Inner (i16, 2 bytes, f32), f32[3], i64, u16, 6 bytes of tail.
  CHECK(ir.find("%struct.Inner = type { i16, [2 x i8], float }") != std::string::npos);
  CHECK(ir.find("%struct.Outer = type { i8, [3 x i8], %struct.Inner, [3 x float], i64, i16, [6 x "
                "i8] }") != std::string::npos);

  KernelBuilder packed("packed_layout");
  CHECK_THROWS_WITH_AS(packed.param<Global<Packed>>("ps"),
                       doctest::Contains("layout of struct Packed of kernel 'packed_layout': "
                                         "member 'value' is at byte 1 in C++ but "
                                         "would be at byte 4 in the kernel"),
                       UserError);
}

TEST_CASE("structs: kernels read and write members through pointers to arrays of structs") {
  KernelBuilder kb("particles_step");
  auto ps = kb.param<Global<Particle>>("ps");
  auto in = kb.param<Const<Particle>>("in");
  auto dt = kb.param<float>("dt");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    ps[i][&Particle::x] = in[i][&Particle::x] + dt * in[i][&Particle::y];
    ps[i][&Particle::y] = in[i][&Particle::y];
    ps[i][&Particle::id] = in[i][&Particle::id] * 2;
    ps[i][&Particle::mass] = in[i][&Particle::mass];
    ps[i][&Particle::mass] += 1.0;  // plain C++ numbers, as on scalar elements
    ps[i][&Particle::id] += 3;
    ps[i][&Particle::y] *= 2.0f;
    ps[i][&Particle::mass] -= kb.lit(0.5);
  });
  // A read-only struct's members take no compound assignment; a string is no number.
  static_assert(PlusAssignable<decltype(ps[i][&Particle::mass]), double>);
  static_assert(!PlusAssignable<decltype(in[i][&Particle::mass]), double>);
  static_assert(!PlusAssignable<decltype(ps[i][&Particle::mass]), const char*>);
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::size_t n = 37;
  const auto host = particles(n);
  auto in_buf = rt.upload(host);
  auto out_buf = rt.zeros<Particle>(n);
  k.launch(NDRange{n}, out_buf, in_buf, 0.25f);
  rt.synchronize();
  const auto got = out_buf.to_vector();
  for (std::size_t j = 0; j < n; ++j) {
    CAPTURE(j);
    CHECK(got[j].x == host[j].x + 0.25f * host[j].y);
    CHECK(got[j].y == host[j].y * 2.0f);
    CHECK(got[j].id == host[j].id * 2 + 3);
    CHECK(got[j].mass == host[j].mass + 1.0 - 0.5);
  }
}

TEST_CASE("structs: by-value struct parameters, private struct variables and whole copies") {
  KernelBuilder kb("particles_copy");
  auto out = kb.param<Global<Particle>>("out");
  auto in = kb.param<Const<Particle>>("in");
  auto q = kb.param<Particle>("q");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto p = kb.var(in[i]);
    p[&Particle::mass] = p[&Particle::mass] * q.get(&Particle::mass);
    p[&Particle::id] = p[&Particle::id] + q[&Particle::id];
    out[i] = p;
    kb.if_(i == 0, [&] { out[i] = q; });
  });
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::size_t n = 20;
  const auto host = particles(n);
  auto in_buf = rt.upload(host);
  auto out_buf = rt.zeros<Particle>(n);
  const Particle host_q{1.5f, -2.0f, 100, 3.0};
  k.launch(NDRange{n}, out_buf, in_buf, host_q);
  rt.synchronize();
  const auto got = out_buf.to_vector();
  CHECK(got[0].x == host_q.x);
  CHECK(got[0].y == host_q.y);
  CHECK(got[0].id == host_q.id);
  CHECK(got[0].mass == host_q.mass);
  for (std::size_t j = 1; j < n; ++j) {
    CAPTURE(j);
    CHECK(got[j].x == host[j].x);
    CHECK(got[j].y == host[j].y);
    CHECK(got[j].id == host[j].id + 100);
    CHECK(got[j].mass == host[j].mass * 3.0);
  }
}

TEST_CASE("structs: nested structs, array members and odd sizes") {
  KernelBuilder kb("outer_update");
  auto os = kb.param<Global<Outer>>("os");
  auto odds = kb.param<Global<Odd>>("odds");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto o = os[i];
    auto inner = o[&Outer::inner];
    inner[&Inner::weight] = inner[&Inner::weight] + o[&Outer::v][0] + o[&Outer::v][2];
    inner[&Inner::tag] = cast<std::int16_t>(cast<std::int32_t>(inner.get(&Inner::tag)) + 1);
    o[&Outer::v][1] = cast<float>(o.get(&Outer::count));
    o[&Outer::count] = o[&Outer::count] + cast<std::int64_t>(o.get(&Outer::last));
    o[&Outer::flag] = cast<std::uint8_t>(cast<std::int32_t>(o.get(&Outer::flag)) ^ 1);
    odds[i][&Odd::d] = cast<std::int16_t>(cast<std::int32_t>(odds[i].get(&Odd::a)) *
                                          cast<std::int32_t>(odds[i].get(&Odd::c)));
    odds[i][&Odd::b] = odds[i][&Odd::c];
  });
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::size_t n = 13;
  std::vector<Outer> host(n);
  std::vector<Odd> odd_host(n);
  for (std::size_t j = 0; j < n; ++j) {
    host[j].flag = static_cast<std::uint8_t>(j % 2);
    host[j].inner = {static_cast<std::int16_t>(j * 10), static_cast<float>(j)};
    host[j].v[0] = 1.0f;
    host[j].v[1] = -1.0f;
    host[j].v[2] = static_cast<float>(j) * 2.0f;
    host[j].count = static_cast<std::int64_t>(j) * 1000000000;
    host[j].last = static_cast<std::uint16_t>(60000 + j);
    odd_host[j] = {static_cast<std::int16_t>(j), static_cast<std::uint8_t>(0),
                   static_cast<std::uint8_t>(j + 1), 0};
  }
  auto buf = rt.upload(host);
  auto odd_buf = rt.upload(odd_host);
  k.launch(NDRange{n}, buf, odd_buf);
  rt.synchronize();
  const auto got = buf.to_vector();
  const auto odd_got = odd_buf.to_vector();
  for (std::size_t j = 0; j < n; ++j) {
    CAPTURE(j);
    CHECK(got[j].inner.weight == static_cast<float>(j) + 1.0f + static_cast<float>(j) * 2.0f);
    CHECK(got[j].inner.tag == static_cast<std::int16_t>(j * 10 + 1));
    CHECK(got[j].v[1] == static_cast<float>(host[j].count));
    CHECK(got[j].count == host[j].count + host[j].last);
    CHECK(got[j].flag == static_cast<std::uint8_t>((j % 2) ^ 1));
    CHECK(got[j].last == host[j].last);
    CHECK(odd_got[j].d == static_cast<std::int16_t>(j * (j + 1)));
    CHECK(odd_got[j].b == odd_host[j].c);
    CHECK(odd_got[j].a == odd_host[j].a);
  }
}

TEST_CASE("structs: arrays of structs as members: layout, members, element and whole copies") {
  const auto& b = *struct_layout<Box>();
  CHECK(b.size() == sizeof(Box));
  CHECK(b.size() == 96);
  REQUIRE(b.fields().size() == 4);
  CHECK(b.fields()[3].offset == offsetof(Box, nei));
  CHECK(b.fields()[3].array);
  CHECK(b.fields()[3].count == 3);
  CHECK(b.describe() ==
        "struct Box{i32,i64,i32,struct Neighbour{i32,i32,i32,i32,i64}[3]} (96 bytes)");
  REQUIRE(b.leaves().size() == 3 + 3 * 5);
  CHECK(b.leaves()[3] == StructLeaf{24, Scalar::I32});
  CHECK(b.leaves()[8] == StructLeaf{48, Scalar::I32});
  CHECK(b.leaves()[17] == StructLeaf{88, Scalar::I64});
  CHECK(b.signature().find("i64@64,i32@72,") != std::string::npos);

  KernelBuilder kb("box_update");
  auto out = kb.param<Global<Box>>("out");
  auto in = kb.param<Const<Box>>("in");
  auto q = kb.param<Box>("q");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    out[i] = in[i];  // the whole struct, its array of structs included
    auto o = out[i];
    o[&Box::nei][1][&Neighbour::number] =
        in[i][&Box::nei][0].get(&Neighbour::number) + in[i].get(&Box::nn);
    o[&Box::nei][2][&Neighbour::offset] =
        q[&Box::nei][2].get(&Neighbour::offset) + in[i].get(&Box::offset);
    o[&Box::nei][0] = q[&Box::nei][1];  // one element, from a by-value struct
    auto copy = kb.var(in[i][&Box::nei][2]);
    copy[&Neighbour::x] = copy[&Neighbour::x] * 10;
    o[&Box::nei][2][&Neighbour::y] = copy.get(&Neighbour::x);
  });
  CHECK(kb.to_string().find(
            "%struct.Box = type { i32, [4 x i8], i64, i32, [4 x i8], [3 x %struct.Neighbour] }") !=
        std::string::npos);
  CHECK_THROWS_WITH_AS((void)out[0][&Box::nei][3],
                       doctest::Contains("index 3 is out of bounds: the array holds 3 elements"),
                       UserError);
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::size_t n = 11;
  auto neighbour = [](std::size_t j, std::size_t e) {
    const auto v = static_cast<std::int32_t>(j * 10 + e);
    return Neighbour{v, v + 1, v + 2, v + 3, static_cast<std::int64_t>(v) * 5000000000};
  };
  std::vector<Box> host(n);
  for (std::size_t j = 0; j < n; ++j) {
    host[j] = Box{static_cast<std::int32_t>(j),
                  static_cast<std::int64_t>(j) << 33,
                  static_cast<std::int32_t>(7 * j),
                  {neighbour(j, 0), neighbour(j, 1), neighbour(j, 2)}};
  }
  const Box host_q{-1, -2, -3, {neighbour(100, 0), neighbour(100, 1), neighbour(100, 2)}};
  auto in_buf = rt.upload(host);
  auto out_buf = rt.zeros<Box>(n);
  k.launch(NDRange{n}, out_buf, in_buf, host_q);
  rt.synchronize();
  const auto got = out_buf.to_vector();
  auto same = [](const Neighbour& a, const Neighbour& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.number == b.number && a.offset == b.offset;
  };
  for (std::size_t j = 0; j < n; ++j) {
    CAPTURE(j);
    CHECK(got[j].number == host[j].number);
    CHECK(got[j].offset == host[j].offset);
    CHECK(got[j].nn == host[j].nn);
    CHECK(same(got[j].nei[0], host_q.nei[1]));
    Neighbour want1 = host[j].nei[1];
    want1.number = host[j].nei[0].number + host[j].nn;
    CHECK(same(got[j].nei[1], want1));
    Neighbour want2 = host[j].nei[2];
    want2.offset = host_q.nei[2].offset + host[j].offset;
    want2.y = host[j].nei[2].x * 10;
    CHECK(same(got[j].nei[2], want2));
  }
}

TEST_CASE("structs: device functions take structs and return a struct or several values") {
  KernelBuilder kb("struct_functions");
  auto out = kb.param<Global<Point>>("out");
  auto quot = kb.param<Global<std::int32_t>>("quot");
  auto rem = kb.param<Global<std::int32_t>>("rem");
  auto a = kb.param<Const<Point>>("a");
  auto b = kb.param<Const<Point>>("b");
  auto divmod = device_function<std::tuple<std::int32_t, std::int32_t>(std::int32_t, std::int32_t)>(
      kb, "divmod", [&](Val<std::int32_t> x, Val<std::int32_t> y) {
        return std::tuple{x / y, x % y};
      });
  auto mid =
      device_function<Point(Point, Point)>(kb, "mid", [&](StructVal<Point> p, StructVal<Point> q) {
        auto m = kb.var(p);
        m[&Point::x] = (p.get(&Point::x) + q.get(&Point::x)) * 0.5f;
        m[&Point::y] = (p.get(&Point::y) + q.get(&Point::y)) * 0.5f;
        return m;
      });
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    out[i] = mid(a[i], b[i]);
    auto [q, r] = divmod(cast<std::int32_t>(i) + 17, kb.lit<std::int32_t>(5));
    quot[i] = q;
    rem[i] = r;
  });
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::size_t n = 11;
  std::vector<Point> ha(n), hb(n);
  for (std::size_t j = 0; j < n; ++j) {
    ha[j] = {static_cast<float>(j), 2.0f};
    hb[j] = {3.0f, static_cast<float>(j) * 4.0f};
  }
  auto ba = rt.upload(ha);
  auto bb = rt.upload(hb);
  auto bo = rt.zeros<Point>(n);
  auto bq = rt.zeros<std::int32_t>(n);
  auto br = rt.zeros<std::int32_t>(n);
  k.launch(NDRange{n}, bo, bq, br, ba, bb);
  rt.synchronize();
  const auto got = bo.to_vector();
  const auto gq = bq.to_vector();
  const auto gr = br.to_vector();
  for (std::size_t j = 0; j < n; ++j) {
    CAPTURE(j);
    CHECK(got[j].x == (ha[j].x + hb[j].x) * 0.5f);
    CHECK(got[j].y == (ha[j].y + hb[j].y) * 0.5f);
    CHECK(gq[j] == static_cast<std::int32_t>(j + 17) / 5);
    CHECK(gr[j] == static_cast<std::int32_t>(j + 17) % 5);
  }
}

TEST_CASE("structs: device functions mix structs, vectors and scalars in arguments and results") {
  KernelBuilder kb("struct_vector_functions");
  auto out = kb.param<Global<Point>>("out");
  auto lanes = kb.param<Global<float>>("lanes");
  auto sums = kb.param<Global<float>>("sums");
  auto a = kb.param<Const<Point>>("a");
  auto shift = device_function<Point(Point, Vec<float, 2>)>(
      kb, "shift", [&](StructVal<Point> p, Vec<float, 2> d) {
        auto m = kb.var(p);
        m[&Point::x] += d[0];
        m[&Point::y] += d[1];
        return m;
      });
  auto spread = device_function<Vec<float, 4>(Point, float)>(
      kb, "spread", [&](StructVal<Point> p, Val<float> f) {
        const Val<float> x = p.get(&Point::x), y = p.get(&Point::y);
        return make_vec(x, y, x * f, y * f);
      });
  auto split =
      device_function<std::tuple<float, float>(Vec<float, 4>)>(kb, "split", [&](Vec<float, 4> v) {
        return std::tuple{reduce_add(v), v[3]};
      });
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    out[i] = shift(a[i], make_vec(kb.lit(1.0f), kb.lit(-2.0f)));
    const auto v = spread(a[i], kb.lit(3.0f));
    vstore(lanes, i * 4, v);
    auto [total, last] = split(v);
    sums[i * 2] = total;
    sums[i * 2 + 1] = last;
  });
  Kernel k = test::compile_checked(kb.finish());
  auto& rt = test::runtime();
  const std::size_t n = 9;
  std::vector<Point> ha(n);
  for (std::size_t j = 0; j < n; ++j)
    ha[j] = {static_cast<float>(j) * 0.5f, 7.0f - static_cast<float>(j)};
  auto ba = rt.upload(ha);
  auto bo = rt.zeros<Point>(n);
  auto bl = rt.zeros<float>(4 * n);
  auto bs = rt.zeros<float>(2 * n);
  k.launch(NDRange{n}, bo, bl, bs, ba);
  rt.synchronize();
  const auto got = bo.to_vector();
  const auto gl = bl.to_vector();
  const auto gs = bs.to_vector();
  for (std::size_t j = 0; j < n; ++j) {
    CAPTURE(j);
    const float x = ha[j].x, y = ha[j].y;
    CHECK(got[j].x == x + 1.0f);
    CHECK(got[j].y == y - 2.0f);
    CHECK(gl[4 * j] == x);
    CHECK(gl[4 * j + 1] == y);
    CHECK(gl[4 * j + 2] == x * 3.0f);
    CHECK(gl[4 * j + 3] == y * 3.0f);
    // reduce_add's order is not fixed: these values are exact in any order.
    CHECK(gs[2 * j] == x + y + x * 3.0f + y * 3.0f);
    CHECK(gs[2 * j + 1] == y * 3.0f);
  }
}

TEST_CASE("structs: a launch checks the C++ type of struct arguments") {
  KernelBuilder kb("struct_checks");
  auto ps = kb.param<Global<Particle>>("ps");
  auto q = kb.param<Particle>("q");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { ps[i][&Particle::mass] = q.get(&Particle::mass); });
  Kernel k = test::jit().compile(kb.finish());
  auto& rt = test::runtime();
  auto good = rt.zeros<Particle>(4);
  auto same_shape = rt.zeros<SameShape>(4);
  auto floats = rt.zeros<float>(4);
  const Particle p{};
  const SameShape s{};
  CHECK(k.params()[0].describe() == "global struct Particle*");
  CHECK(k.params()[1].describe() == "struct Particle{f32,f32,i32,f64} (24 bytes)");
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{4}, same_shape, p),
      "launch of kernel 'struct_checks': argument 0 'ps': expected global struct Particle*, got "
      "Buffer<struct SameShape> of struct SameShape{f32,f32,i32,f64} (24 bytes)",
      UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, floats, p),
                       "launch of kernel 'struct_checks': argument 0 'ps': expected global "
                       "struct Particle*, got Buffer<f32>",
                       UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, good, s),
                       "launch of kernel 'struct_checks': argument 1 'q': expected struct "
                       "Particle{f32,f32,i32,f64} (24 bytes), got a struct "
                       "SameShape{f32,f32,i32,f64} (24 bytes)",
                       UserError);
  CHECK_THROWS_WITH_AS(k.launch(NDRange{4}, good, 1.0),
                       doctest::Contains("argument 1 'q': expected struct Particle"), UserError);
  const Particle q4{0, 0, 0, 4.5};
  k.launch(NDRange{4}, good, q4);
  rt.synchronize();
  for (const auto& got : good.to_vector()) CHECK(got.mass == 4.5);

  // Shared arrays and views of structs launch the same way.
  auto shared = zeros_shared<Particle>(rt, 4);
  const Particle q5{0, 0, 0, -1.25};
  k.launch(NDRange{4}, shared, q5);
  rt.synchronize();
  for (const auto& got : shared) CHECK(got.mass == -1.25);
  auto big = rt.zeros<Particle>(32);
  k.launch(NDRange{4}, view(big, 16, 4), q4);
  rt.synchronize();
  const auto all = big.to_vector();
  for (std::size_t j = 0; j < all.size(); ++j)
    CHECK(all[j].mass == (j >= 16 && j < 20 ? 4.5 : 0.0));
}

TEST_CASE("structs: array parameters with shapes and struct parameters in one kernel") {
  KernelBuilder kb("struct_and_shapes");
  auto grid = kb.param<GlobalArray<float, 2>>("grid");
  auto ps = kb.param<Global<Particle>>("ps");
  auto q = kb.param<Particle>("q");
  auto cm = kb.param<ConstArray<double, 2, ColumnMajor>>("cm");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    // Row i of grid, column i of cm, and how many particles the launch passed.
    grid(i, 0) = cast<float>(length(ps)) + q.get(&Particle::x);
    grid(i, 1) = cast<float>(size(grid, 1));
    ps[i][&Particle::mass] = cm(i, 1) + q.get(&Particle::mass);
    ps[i][&Particle::id] = cast<std::int32_t>(size(cm, 0));
  });
  Kernel k = test::compile_checked(kb.finish());
  CHECK(k.params()[0].describe() == "global f32[2-d]");
  CHECK(k.params()[1].describe() == "global struct Particle*");
  CHECK(k.params()[2].describe() == "struct Particle{f32,f32,i32,f64} (24 bytes)");
  CHECK(k.params()[3].describe() == "global const f64[2-d column-major]");
  CHECK(k.params()[1].rank == 0);
  CHECK(k.params()[0].struct_layout == nullptr);
  auto& rt = test::runtime();
  const std::size_t n = 6;
  auto grid_buf = rt.zeros<float>(2 * n);
  auto particles_buf = rt.zeros<Particle>(n);
  std::vector<double> cm_host(2 * n);
  for (std::size_t e = 0; e < cm_host.size(); ++e) cm_host[e] = 0.5 * static_cast<double>(e);
  auto cm_buf = rt.upload(cm_host);
  const Particle q_host{1.5f, 0, 0, 100.0};
  k.launch(NDRange{n}, shaped(grid_buf, {n, 2}), particles_buf, q_host, shaped(cm_buf, {n, 2}));
  rt.synchronize();
  const auto g = grid_buf.to_vector();
  const auto got = particles_buf.to_vector();
  for (std::size_t j = 0; j < n; ++j) {
    CAPTURE(j);
    CHECK(g[2 * j] == static_cast<float>(n) + 1.5f);
    CHECK(g[2 * j + 1] == 2.0f);
    CHECK(got[j].mass == cm_host[j + n] + 100.0);  // column-major: (j, 1) at j + n
    CHECK(got[j].id == static_cast<std::int32_t>(n));
  }
  // Shapes are for arrays of scalars (GlobalArray<T, N> takes kernel scalars too); memory of
  // structs passes whole, and never for an array of floats.
  static_assert(!ShapeableMemory<Buffer<Particle>> && ShapeableMemory<Buffer<float>>);
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{n}, particles_buf, particles_buf, q_host, shaped(cm_buf, {n, 2})),
      doctest::Contains("argument 0 'grid': expected global f32[2-d], got "
                        "Buffer<struct Particle>"),
      UserError);
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{n}, shaped(grid_buf, {n, 2}), grid_buf, q_host, shaped(cm_buf, {n, 2})),
      doctest::Contains("argument 1 'ps': expected global struct Particle*"), UserError);
}

TEST_CASE("structs: bounds checks count structs, not bytes") {
  KernelBuilder kb("struct_bounds");
  auto ps = kb.param<Global<Particle>>("ps");
  auto n = kb.param<std::int64_t>("n");
  auto i = kb.global_index();
  kb.if_(i == 0, [&] { ps[n][&Particle::id] = 7; });
  Kernel k = test::jit().compile(kb.finish());
  auto& rt = test::runtime();
  auto buf = rt.zeros<Particle>(3);
  k.launch(NDRange{1}, buf, std::int64_t{2});
  rt.synchronize();
  CHECK(buf.to_vector()[2].id == 7);
  k.launch(NDRange{1}, buf, std::int64_t{3});
  CHECK_THROWS_WITH_AS(rt.synchronize(),
                       doctest::Contains("ps[3] is out of bounds: ps holds 3 struct Particle"),
                       BoundsError);
}

TEST_CASE("structs: the cache key tells two layouts of one name apart") {
  auto key = [](const std::shared_ptr<const StructLayout>& layout) {
    detail::KeyInputs in;
    in.kernel_name = "k";
    Param p;
    p.name = "ps";
    p.kind = ParamKind::Pointer;
    p.space = AddressSpace::Global;
    p.type = Scalar::U8;
    p.struct_layout = layout;
    const std::vector<Param> params = {p};
    in.params = params;
    return detail::cache_key(in);
  };
  const auto a = std::make_shared<const StructLayout>(
      "S", 8, 4, std::vector<StructField>{{"a", 0, Scalar::F32}, {"b", 4, Scalar::I32}});
  const auto b = std::make_shared<const StructLayout>(
      "S", 8, 4, std::vector<StructField>{{"a", 0, Scalar::I32}, {"b", 4, Scalar::F32}});
  CHECK(key(a) != key(b));
  CHECK(key(a) == key(std::make_shared<const StructLayout>(*a)));
}

TEST_CASE("structs: misuse is a UserError when the kernel is built") {
  KernelBuilder kb("struct_misuse");
  auto ps = kb.param<Const<Particle>>("ps");
  auto gs = kb.param<Global<Particle>>("gs");
  CHECK_THROWS_WITH_AS(load(ps, kb.lit<std::int64_t>(0)),
                       doctest::Contains("the pointer points to struct Particle; access a member"),
                       UserError);
  CHECK_THROWS_WITH_AS(store(gs, kb.lit<std::int64_t>(0), kb.lit(1.0f)),
                       doctest::Contains("the pointer points to struct Particle"), UserError);
  CHECK_THROWS_WITH_AS(atomic_add(gs[0][&Particle::id], 1),
                       doctest::Contains("atomics on struct members"), UserError);
  static_assert(!MemberAssignable<StructVal<Particle>>);
  static_assert(MemberAssignable<StructVar<Particle>>);
  static_assert(!Assignable<StructRef<const Particle>, StructVal<Particle>>);
  static_assert(Assignable<StructRef<Particle>, StructVal<Particle>>);
  KernelBuilder local("struct_local");
  CHECK_THROWS_WITH_AS(local.param<Local<Particle>>("l"),
                       doctest::Contains("local memory of struct Particle"), UserError);
}
