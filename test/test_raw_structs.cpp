// OpenCL C kernels with struct parameters, compiled by clang-15 at test time as an OpenCL
// author would (`__global struct latLong*`, structs by value, which clang passes byval on
// spir64): the signature records clang's layouts, a C++ struct of the same layout launches
// them, another is a UserError, and the results equal the host's.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "spvjit/raw_module.hpp"
#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

namespace raw_structs_test {

struct LatLong {
  float lat, lng;
};
SPVJIT_STRUCT(LatLong, lat, lng)

struct Particle {
  float x, y;
  std::uint32_t id;  // i32 in the module: LLVM types carry no signedness
  double mass;
};
SPVJIT_STRUCT(Particle, x, y, id, mass)

struct Wide {  // Particle's size, another layout
  double a;
  float b;
  std::int32_t c;
  double d;
};
SPVJIT_STRUCT(Wide, a, b, c, d)

struct Segment {  // pointers inside: OpenCL C 2.0 with shared virtual memory
  const float* data;
  std::int64_t n;
  float scale;
};
SPVJIT_STRUCT(Segment, data, n, scale)

struct Neighbour {  // nei_str below
  std::int32_t x, y, z, number;
  std::int64_t offset;
};
SPVJIT_STRUCT(Neighbour, x, y, z, number, offset)

struct Box {  // box_str below: an array of structs inside, and `float grid[2][3]` flattened
  std::int32_t number;
  std::int64_t offset;
  std::int32_t nn;
  Neighbour nei[3];
  float grid[6];
};
SPVJIT_STRUCT(Box, number, offset, nn, nei, grid)

}  // namespace raw_structs_test

using namespace raw_structs_test;

namespace {

const char* const source = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
struct latLong { float lat; float lng; };
struct particle { float x, y; int id; double mass; };

__kernel void distances(__global const struct latLong* d, __global float* out,
                        struct latLong q, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = (d[i].lat - q.lat) * 2.0f + (d[i].lng - q.lng);
}

__kernel void push(__global struct particle* ps, struct particle q) {
  int i = get_global_id(0);
  ps[i].x += q.x;
  ps[i].id = ps[i].id * 2 + q.id;
  ps[i].mass *= q.mass;
}
)";

const char* const pointer_source = R"(
struct segment { __global const float* data; long n; float scale; };

// OpenCL C takes such structs through a pointer only ("struct kernel parameters may not
// contain pointers"); spvjit's own kernels take them by value too.
__kernel void segment_sums(__global const struct segment* segs, __global float* out) {
  int i = get_global_id(0);
  float sum = 0.0f;
  for (long k = 0; k < segs[i].n; ++k) sum += segs[i].data[k];
  out[i] = sum * segs[i].scale;
}
)";

// Rodinia lavaMD's box_str, smaller: a struct holding an array of structs, taken through a
// pointer and by value.
const char* const nested_array_source = R"(
typedef struct nei_str { int x, y, z, number; long offset; } nei_str;
typedef struct box_str { int number; long offset; int nn; nei_str nei[3]; float grid[2][3]; } box_str;

__kernel void box_sums(__global const box_str* boxes, __global long* out, box_str q) {
  int i = get_global_id(0);
  long sum = boxes[i].offset + q.nei[1].offset + q.nei[2].z;
  for (int k = 0; k < boxes[i].nn; ++k) sum += boxes[i].nei[k].number * (k + 1) + boxes[i].nei[k].offset;
  out[i] = sum + (long)(boxes[i].grid[1][2] * 4.0f);
}
)";

const char* const pointer_array_source = R"(
struct spans { __global float* starts[2]; long n; };
__kernel void first(__global const struct spans* s, __global float* out) { out[0] = s->starts[1][0]; }
)";

// The module clang-15 makes of `source` (OpenCL C `std`), as a spvjit kernel.
KernelDef compile_opencl_c(const char* kernel, const char* text = source,
                           const char* std = "CL1.2") {
  const test::TempDir dir("spvjit-raw-structs");
  const std::string cl = dir / "structs.cl";
  const std::string bc = dir / "structs.bc";
  std::ofstream(cl) << text;
  std::string out;
  const int rc = test::run_command(std::string(SPVJIT_CLANG) + " -target spir64 -cl-std=" + std +
                                       " -O2 "
                                       "-Xclang -no-opaque-pointers -emit-llvm -c -o " +
                                       bc + " " + cl + " 2>&1",
                                   out);
  INFO(out);
  REQUIRE(rc == 0);
  std::ifstream in(bc, std::ios::binary);
  const std::string bitcode((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return kernel_from_bitcode(bitcode, kernel);
}

}  // namespace

TEST_CASE("raw structs: an OpenCL C kernel taking __global struct latLong* and one by value") {
  const KernelDef def = compile_opencl_c("distances");
  REQUIRE(def.params().size() == 4);
  CHECK(def.params()[0].describe() == "global const struct latLong*");
  CHECK(def.params()[2].kind == ParamKind::Struct);
  CHECK(def.params()[2].describe() == "struct latLong{f32,f32} (8 bytes)");
  Kernel k = test::jit().compile(def);
  auto& rt = test::runtime();
  const int n = 29;
  std::vector<LatLong> points(n);
  for (int i = 0; i < n; ++i)
    points[static_cast<std::size_t>(i)] = {static_cast<float>(i), static_cast<float>(3 * i % 7)};
  auto d = rt.upload(points);
  auto out = rt.zeros<float>(static_cast<std::size_t>(n));
  const LatLong q{2.0f, 5.0f};
  k.launch(NDRange{32}, WorkGroup{8}, d, out, q, n);
  rt.synchronize();
  const auto got = out.to_vector();
  for (int i = 0; i < n; ++i) {
    CAPTURE(i);
    const auto& p = points[static_cast<std::size_t>(i)];
    CHECK(got[static_cast<std::size_t>(i)] == (p.lat - q.lat) * 2.0f + (p.lng - q.lng));
  }

  // Another layout at either parameter is refused, naming it.
  const Particle wrong{};
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{32}, WorkGroup{8}, d, out, wrong, n),
      "launch of kernel 'distances': argument 2 'arg2': expected struct "
      "latLong{f32,f32} (8 bytes), got a struct Particle{f32,f32,u32,f64} (24 bytes)",
      UserError);
  auto particles = rt.zeros<Particle>(32);
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{32}, WorkGroup{8}, particles, out, q, n),
      doctest::Contains("argument 0 'arg0': expected global const struct latLong*, "
                        "got Buffer<struct Particle>"),
      UserError);
}

TEST_CASE("raw structs: members read and written through a struct pointer, a double after an int") {
  const KernelDef def = compile_opencl_c("push");
  REQUIRE(def.params().size() == 2);
  CHECK(def.params()[0].describe() == "global struct particle*");
  CHECK(def.params()[1].describe() == "struct particle{f32,f32,i32,f64} (24 bytes)");
  Kernel k = test::jit().compile(def);
  auto& rt = test::runtime();
  const std::size_t n = 16;
  std::vector<Particle> host(n);
  for (std::size_t i = 0; i < n; ++i) {
    host[i] = {static_cast<float>(i), 1.0f, static_cast<std::uint32_t>(i),
               0.5 * static_cast<double>(i)};
  }
  auto ps = rt.upload(host);
  const Particle q{10.0f, 0.0f, 3, 4.0};
  k.launch(NDRange{n}, ps, q);
  rt.synchronize();
  const auto got = ps.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    CHECK(got[i].x == host[i].x + q.x);
    CHECK(got[i].y == host[i].y);
    CHECK(got[i].id == host[i].id * 2 + q.id);
    CHECK(got[i].mass == host[i].mass * q.mass);
  }
  const Wide wide{};
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{n}, ps, wide),
      doctest::Contains("argument 1 'arg1': expected struct particle{f32,f32,i32,f64} "
                        "(24 bytes), got a struct Wide{f64,f32,i32,f64} (24 bytes)"),
      UserError);
}

TEST_CASE(
    "raw structs: an OpenCL C 2.0 kernel follows pointers inside structs into shared memory") {
  const KernelDef def = compile_opencl_c("segment_sums", pointer_source, "CL2.0");
  REQUIRE(def.params().size() == 2);
  CHECK(def.params()[0].describe() == "global const struct segment*");
  CHECK(def.params()[0].struct_layout->describe() ==
        "struct segment{global f32*,i64,f32} (24 bytes)");
  Kernel k = test::jit().compile(def);
  auto& rt = test::runtime();
  const std::size_t count = 4;
  std::vector<std::vector<float>> hosts;
  std::vector<SharedArray<float>> arrays;
  std::vector<Segment> segments;
  for (std::size_t j = 0; j < count; ++j) {
    hosts.emplace_back(2 + 3 * j);
    for (std::size_t q = 0; q < hosts[j].size(); ++q)
      hosts[j][q] = static_cast<float>(q + j) * 0.5f;
    arrays.push_back(allocate_shared<float>(rt, hosts[j].size()));
    std::copy(hosts[j].begin(), hosts[j].end(), arrays[j].data());
    segments.push_back({arrays[j].data(), static_cast<std::int64_t>(hosts[j].size()),
                        1.0f + static_cast<float>(j)});
  }
  auto segs = rt.upload(segments);
  auto out = rt.zeros<float>(count);
  k.launch(NDRange{count}, segs, out);
  rt.synchronize();
  const auto got = out.to_vector();
  for (std::size_t j = 0; j < count; ++j) {
    float sum = 0;
    for (float v : hosts[j]) sum += v;
    CAPTURE(j);
    CHECK(got[j] == sum * segments[j].scale);
  }
  // Structs with a scalar where the module has a pointer are another layout.
  auto wide = rt.zeros<Wide>(count);
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{count}, wide, out),
      doctest::Contains("argument 0 'arg0': expected global const struct segment*, "
                        "got Buffer<struct Wide>"),
      UserError);
}

TEST_CASE("raw structs: a struct holding an array of structs, through a pointer and by value") {
  const KernelDef def = compile_opencl_c("box_sums", nested_array_source);
  REQUIRE(def.params().size() == 3);
  CHECK(def.params()[0].describe() == "global const struct box_str*");
  CHECK(def.params()[2].describe() ==
        "struct box_str{i32,i64,i32,struct nei_str{i32,i32,i32,i32,i64}[3],f32[6]} (120 bytes)");
  CHECK(def.params()[2].struct_layout->leaves() == struct_layout<Box>()->leaves());
  CHECK(def.params()[2].struct_layout->accepts(*struct_layout<Box>()));
  Kernel k = test::jit().compile(def);
  auto& rt = test::runtime();
  const std::size_t n = 9;
  auto neighbour = [](std::size_t j, std::size_t e) {
    const auto v = static_cast<std::int32_t>(j * 10 + e);
    return Neighbour{v, v + 1, v + 2, v + 3, static_cast<std::int64_t>(v) * 3000000000};
  };
  std::vector<Box> host(n);
  for (std::size_t j = 0; j < n; ++j) {
    host[j] = Box{0,
                  static_cast<std::int64_t>(j) << 34,
                  static_cast<std::int32_t>(j % 4),
                  {neighbour(j, 0), neighbour(j, 1), neighbour(j, 2)},
                  {0, 0, 0, 0, 0, 0.25f * static_cast<float>(j)}};
  }
  const Box q{0, 0, 0, {neighbour(50, 0), neighbour(50, 1), neighbour(50, 2)}, {}};
  auto boxes = rt.upload(host);
  auto out = rt.zeros<std::int64_t>(n);
  k.launch(NDRange{n}, boxes, out, q);
  rt.synchronize();
  const auto got = out.to_vector();
  for (std::size_t j = 0; j < n; ++j) {
    CAPTURE(j);
    std::int64_t want = host[j].offset + q.nei[1].offset + q.nei[2].z;
    for (std::int32_t e = 0; e < host[j].nn; ++e) {
      want += host[j].nei[e].number * (e + 1) + host[j].nei[e].offset;
    }
    CHECK(got[j] == want + static_cast<std::int64_t>(host[j].grid[5] * 4.0f));
  }
  auto particles = rt.zeros<Particle>(n);
  CHECK_THROWS_WITH_AS(
      k.launch(NDRange{n}, particles, out, q),
      doctest::Contains("expected global const struct box_str*, got Buffer<struct Particle>"),
      UserError);

  // An array of pointers is no layout spvjit spells out: refused, naming the member's type.
  CHECK_THROWS_WITH_AS(
      compile_opencl_c("first", pointer_array_source, "CL2.0"),
      doctest::Contains("struct spans has a member of type [2 x float addrspace(1)*]"), UserError);
}
