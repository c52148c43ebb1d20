// Pointers inside structs: members of type T* / const T* (T a scalar or a described struct)
// laid out as the C++ compiler lays them out, read in the kernel as Global / Const pointers
// into host-shared memory (SharedArrays here), through by-value structs, arrays of structs,
// private copies and chains of structs pointing to structs; each result against the host.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace struct_pointers_test {

struct Segment {
  float* data;  // first member: at 0
  std::int64_t n;
  double scale;
};
SPVJIT_STRUCT(Segment, data, n, scale)

struct Tagged {
  std::int32_t tag;     // then 4 bytes of padding
  const float* values;  // at 8
};
SPVJIT_STRUCT(Tagged, tag, values)

struct Holder {
  std::uint8_t flag;     // then 7 bytes of padding
  Tagged inner;          // at 8, a pointer inside at 16
  std::int32_t* counts;  // at 24
  std::int16_t last;     // at 32, then tail padding to 40
};
SPVJIT_STRUCT(Holder, flag, inner, counts, last)

struct Point {
  float x, y;
};
SPVJIT_STRUCT(Point, x, y)

struct Path {  // a pointer to described structs
  const Point* points;
  std::int32_t count;
  float weight;
};
SPVJIT_STRUCT(Path, points, count, weight)

struct Node {  // points to its own type
  float value;
  const Node* next;
};
SPVJIT_STRUCT(Node, value, next)

}  // namespace struct_pointers_test

using namespace struct_pointers_test;

namespace {

template <class R, class V>
concept Assignable = requires(R r, V v) {
  r = v;
};

std::vector<float> floats(std::size_t n, float base) {
  std::vector<float> out(n);
  for (std::size_t k = 0; k < n; ++k) out[k] = base + 0.25f * static_cast<float>(k);
  return out;
}

template <class T>
SharedArray<T> shared_copy(const std::vector<T>& host) {
  auto a = allocate_shared<T>(test::runtime(), host.size());
  for (std::size_t k = 0; k < host.size(); ++k) a.data()[k] = host[k];
  return a;
}

}  // namespace

// The member reads as the pointer it holds: writable or read-only as the C++ pointee is.
static_assert(requires(StructVal<Segment> s) {
  { s.get(&Segment::data) } -> std::same_as<Global<float>>;
  { s[&Segment::data] } -> std::same_as<Global<float>>;
});
static_assert(requires(StructVal<Tagged> t) {
  { t.get(&Tagged::values) } -> std::same_as<Const<float>>;
});
static_assert(requires(StructRef<Path> p) {
  { p[&Path::points] } -> std::same_as<Const<Point>>;
});
// A store through `float*` compiles, through `const float*` it does not.
static_assert(Assignable<decltype(std::declval<Global<float>>()[0]), Val<float>>);
static_assert(
    !Assignable<decltype(std::declval<StructVal<Tagged>>().get(&Tagged::values)[0]), Val<float>>);
static_assert(!Assignable<decltype(std::declval<StructRef<Path>>()[&Path::points][0][&Point::x]),
                          Val<float>>);

TEST_CASE("struct pointers: layouts of pointer members follow offsetof, padding and size") {
  const auto& seg = *struct_layout<Segment>();
  CHECK(seg.size() == sizeof(Segment));
  CHECK(seg.align() == alignof(Segment));
  CHECK(seg.fields()[0].offset == offsetof(Segment, data));
  CHECK(seg.fields()[1].offset == offsetof(Segment, n));
  CHECK(seg.fields()[2].offset == offsetof(Segment, scale));
  CHECK(seg.describe() == "struct Segment{global f32*,i64,f64} (24 bytes)");
  CHECK(seg.signature() == "global f32*@0,i64@8,f64@16,/24");
  CHECK(seg.first_pointer_member() == "Segment::data");

  const auto& tagged = *struct_layout<Tagged>();
  CHECK(tagged.fields()[1].offset == offsetof(Tagged, values));
  CHECK(tagged.fields()[1].offset == 8);
  CHECK(tagged.size() == sizeof(Tagged));
  CHECK(tagged.describe() == "struct Tagged{i32,global const f32*} (16 bytes)");

  const auto& holder = *struct_layout<Holder>();
  CHECK(holder.size() == sizeof(Holder));
  CHECK(holder.size() == 40);
  CHECK(holder.fields()[1].offset == offsetof(Holder, inner));
  CHECK(holder.fields()[2].offset == offsetof(Holder, counts));
  CHECK(holder.fields()[3].offset == offsetof(Holder, last));
  const std::vector<StructLeaf> leaves = {
      {0, Scalar::U8, false},
      {offsetof(Holder, inner) + offsetof(Tagged, tag), Scalar::I32, false},
      {offsetof(Holder, inner) + offsetof(Tagged, values), Scalar::F32, true},
      {offsetof(Holder, counts), Scalar::I32, true},
      {offsetof(Holder, last), Scalar::I16, false}};
  CHECK(holder.leaves() == leaves);
  CHECK(holder.first_pointer_member() == "Holder::inner.values");
  CHECK(holder.describe() ==
        "struct Holder{u8,struct Tagged{i32,global const f32*},global i32*,i16} (40 bytes)");

  CHECK(struct_layout<Path>()->describe() ==
        "struct Path{global const struct Point*,i32,f32} (16 bytes)");
  CHECK(struct_layout<Node>()->describe() ==
        "struct Node{f32,global const struct Node*} (16 bytes)");
  CHECK(struct_layout<Node>()->fields()[1].offset == offsetof(Node, next));
  CHECK(struct_layout<Point>()->first_pointer_member().empty());

  // The kernel's types: typed global pointers, explicit padding where C++ put some.
  KernelBuilder kb("pointer_layouts");
  (void)kb.param<Global<Holder>>("hs");
  (void)kb.param<Const<Node>>("nodes");
  (void)kb.param<Path>("path");
  const std::string ir = kb.to_string();
  CHECK(ir.find("%struct.Tagged = type { i32, [4 x i8], float addrspace(1)* }") !=
        std::string::npos);
  CHECK(ir.find("%struct.Holder = type { i8, [7 x i8], %struct.Tagged, i32 addrspace(1)*, i16, [6 "
                "x i8] }") != std::string::npos);
  CHECK(ir.find("%struct.Node = type { float, [4 x i8], %struct.Node addrspace(1)* }") !=
        std::string::npos);
  CHECK(ir.find("%struct.Path = type { %struct.Point addrspace(1)*, i32, float }") !=
        std::string::npos);
  CHECK(ir.find("%struct.Point = type { float, float }") != std::string::npos);
}

TEST_CASE("struct pointers: a by-value struct's pointer is read and written by the kernel") {
  KernelBuilder kb("segment_sum");
  auto out = kb.param<Global<double>>("out");
  auto seg = kb.param<Segment>("seg");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto d = seg.get(&Segment::data);
    auto sum = kb.var(0.0);
    kb.for_(0, seg.get(&Segment::n), [&](Val<std::int64_t> k) { sum += cast<double>(d[k]); });
    out[i] = sum * seg.get(&Segment::scale);
    // A store through `float*`: past the n elements summed, so no work-item reads it.
    kb.if_(i < seg.get(&Segment::n),
           [&] { seg[&Segment::data][seg.get(&Segment::n) + i] = d[i] * 2.0f; });
  });
  Kernel k = test::compile_checked(kb.finish());
  CHECK(k.params()[1].describe() == "struct Segment{global f32*,i64,f64} (24 bytes)");

  const std::size_t n = 21, items = 32;
  auto host = floats(n, 1.5f);
  host.resize(2 * n, -1.0f);
  auto data = shared_copy(host);
  auto out_buf = test::runtime().zeros<double>(items);
  const Segment s{data.data(), static_cast<std::int64_t>(n), 0.5};
  k.launch(NDRange{items}, out_buf, s);
  test::runtime().synchronize();
  double want = 0;
  for (std::size_t j = 0; j < n; ++j) want += static_cast<double>(host[j]);
  want *= 0.5;
  const auto got = out_buf.to_vector();
  for (std::size_t j = 0; j < items; ++j) {
    CAPTURE(j);
    CHECK(got[j] == doctest::Approx(want).epsilon(1e-12));
  }
  for (std::size_t j = 0; j < n; ++j) {
    CHECK(data.data()[j] == host[j]);
    CHECK(data.data()[n + j] == host[j] * 2.0f);
  }
}

TEST_CASE("struct pointers: an array of structs, each pointing into another SharedArray") {
  KernelBuilder kb("segments_sum");
  auto segs = kb.param<Const<Segment>>("segs");
  auto out = kb.param<Global<double>>("out");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto sum = kb.var(0.0);
    kb.for_(0, segs[i][&Segment::n],
            [&](Val<std::int64_t> k) { sum += cast<double>(segs[i][&Segment::data][k]); });
    out[i] = sum * segs[i][&Segment::scale];
  });
  Kernel k = test::compile_checked(kb.finish());

  const std::size_t count = 5;
  std::vector<std::vector<float>> hosts;
  std::vector<SharedArray<float>> arrays;
  auto segments = allocate_shared<Segment>(test::runtime(), count);
  for (std::size_t j = 0; j < count; ++j) {
    hosts.push_back(floats(3 + 4 * j, static_cast<float>(j) - 2.0f));
    arrays.push_back(shared_copy(hosts.back()));
    segments.data()[j] = {arrays.back().data(), static_cast<std::int64_t>(hosts.back().size()),
                          1.0 + static_cast<double>(j)};
  }
  auto out_buf = test::runtime().zeros<double>(count);
  k.launch(NDRange{count}, segments, out_buf);
  test::runtime().synchronize();
  const auto got = out_buf.to_vector();
  for (std::size_t j = 0; j < count; ++j) {
    double want = 0;
    for (float v : hosts[j]) want += static_cast<double>(v);
    CAPTURE(j);
    CHECK(got[j] == doctest::Approx(want * (1.0 + static_cast<double>(j))).epsilon(1e-12));
  }

  // The same structs from a Buffer: only the pointees need to be shared memory.
  std::vector<Segment> host_segments(segments.data(), segments.data() + count);
  auto buffer = test::runtime().upload(host_segments);
  auto out2 = test::runtime().zeros<double>(count);
  k.launch(NDRange{count}, buffer, out2);
  test::runtime().synchronize();
  CHECK(out2.to_vector() == got);
}

TEST_CASE("struct pointers: nested structs holding pointers, whole-struct copies keep them") {
  KernelBuilder kb("holders");
  auto hs = kb.param<Global<Holder>>("hs");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto copy = kb.var(hs[i]);  // copies the pointers as they are
    auto values = copy[&Holder::inner][&Tagged::values];
    auto counts = copy.get(&Holder::counts);
    counts[0] = cast<std::int32_t>(values[0] + values[1]) + copy[&Holder::inner][&Tagged::tag];
    hs[i][&Holder::last] = cast<std::int16_t>(hs[i][&Holder::inner][&Tagged::values][1]);
  });
  Kernel k = test::compile_checked(kb.finish());

  const std::size_t count = 6;
  auto values = shared_copy(floats(2 * count, 3.0f));
  auto counts = zeros_shared<std::int32_t>(test::runtime(), count);
  std::vector<Holder> host(count);
  for (std::size_t j = 0; j < count; ++j) {
    host[j].flag = static_cast<std::uint8_t>(j);
    host[j].inner = {static_cast<std::int32_t>(100 * j), values.data() + 2 * j};
    host[j].counts = counts.data() + j;
    host[j].last = -1;
  }
  auto hs_buf = test::runtime().upload(host);
  k.launch(NDRange{count}, hs_buf);
  test::runtime().synchronize();
  const auto got = hs_buf.to_vector();
  for (std::size_t j = 0; j < count; ++j) {
    CAPTURE(j);
    const float a = values.data()[2 * j], b = values.data()[2 * j + 1];
    CHECK(counts.data()[j] ==
          static_cast<std::int32_t>(a + b) + static_cast<std::int32_t>(100 * j));
    CHECK(got[j].last == static_cast<std::int16_t>(b));
    CHECK(got[j].inner.values == host[j].inner.values);  // the pointers come back untouched
    CHECK(got[j].counts == host[j].counts);
    CHECK(got[j].flag == host[j].flag);
  }
}

TEST_CASE("struct pointers: structs pointing to structs, and a linked list of one type") {
  KernelBuilder kb("linked");
  auto paths = kb.param<Const<Path>>("paths");
  auto heads = kb.param<Const<Node>>("heads");
  auto out = kb.param<Global<float>>("out");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] {
    auto points = paths[i][&Path::points];
    auto length = kb.var(0.0f);
    kb.for_(0, paths[i][&Path::count],
            [&](Val<std::int32_t> k) { length += points[k][&Point::x] * points[k][&Point::y]; });
    // Three hops down the list that starts at heads[i].
    Const<Node> node = heads;
    Val<std::int64_t> at = i;
    auto walked = kb.var(0.0f);
    for (int hop = 0; hop < 3; ++hop) {
      walked += node[at][&Node::value];
      node = node[at][&Node::next];
      at = kb.lit(std::int64_t{0});
    }
    out[i] = length * paths[i][&Path::weight] + walked;
  });
  Kernel k = test::compile_checked(kb.finish());

  const std::size_t count = 4;
  std::vector<Point> host_points(4 * count);
  for (std::size_t j = 0; j < host_points.size(); ++j) {
    host_points[j] = {static_cast<float>(j) * 0.5f, 2.0f - static_cast<float>(j % 3)};
  }
  auto points = shared_copy(host_points);
  std::vector<Path> host_paths(count);
  for (std::size_t j = 0; j < count; ++j) {
    host_paths[j] = {points.data() + j, static_cast<std::int32_t>(j + 1),
                     0.5f * static_cast<float>(j)};
  }
  auto paths_buf = test::runtime().upload(host_paths);
  // A pool of nodes: heads[j] -> pool[j] -> pool[(j + 1) % count].
  auto pool = allocate_shared<Node>(test::runtime(), count);
  for (std::size_t j = 0; j < count; ++j) {
    pool.data()[j] = {10.0f * static_cast<float>(j + 1), pool.data() + (j + 1) % count};
  }
  std::vector<Node> host_heads(count);
  for (std::size_t j = 0; j < count; ++j) host_heads[j] = {static_cast<float>(j), pool.data() + j};
  auto heads_buf = test::runtime().upload(host_heads);
  auto out_buf = test::runtime().zeros<float>(count);
  k.launch(NDRange{count}, paths_buf, heads_buf, out_buf);
  test::runtime().synchronize();
  const auto got = out_buf.to_vector();
  for (std::size_t j = 0; j < count; ++j) {
    float length = 0;
    for (std::size_t q = 0; q <= j; ++q) length += host_points[j + q].x * host_points[j + q].y;
    const Node* node = &host_heads[j];
    float walked = 0;
    for (int hop = 0; hop < 3; ++hop, node = node->next) walked += node->value;
    CAPTURE(j);
    CHECK(got[j] == length * host_paths[j].weight + walked);
  }
}

TEST_CASE("struct pointers: misuse is refused") {
  KernelBuilder kb("pointer_misuse");
  auto seg = kb.param<Segment>("seg");
  auto t = kb.param<Tagged>("t");
  // A store through `const float*` is a compile error (see the static_asserts above); through
  // the dynamically typed pointer it is a UserError naming the read-only memory.
  CHECK_THROWS_WITH_AS(store(t.get(&Tagged::values), kb.lit(std::int64_t{0}), kb.lit(1.0f)),
                       doctest::Contains("read-only"), UserError);
  // The launch cannot know how far a pointer member reaches: its accesses go unchecked.
  CHECK(detail::extent_of(seg.get(&Segment::data)) == nullptr);
}
