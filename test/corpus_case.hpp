// A case of the kernel corpus (test/corpus): third-party OpenCL C kernels, described as data —
// buffers with their initial contents, launches in order on those buffers, the outputs to
// compare and the bound they must agree within — which corpus_run.cpp runs twice: through
// spvjit (clang's bitcode, kernel_from_bitcode) and through clBuildProgram on the same device.
//
// Cases are written in test_corpus_<suite>.cpp with CORPUS_CASE; each becomes one doctest case
// per optimisation level ("corpus: polybench 2mm -O2"), and an entry of the registry that the
// compile-time probe (corpus_times.cpp) walks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "spvjit/ndrange.hpp"
#include "spvjit/structs.hpp"

namespace spvjit::corpus {

// Structs the corpus's kernels take pointers to, laid out as clang lays out their OpenCL C.
struct LatLong {  // Rodinia nn: struct latLong
  float lat, lng;
};
SPVJIT_STRUCT(LatLong, lat, lng)
struct Node {  // Rodinia bfs: Node
  std::int32_t starting, no_of_edges;
};
SPVJIT_STRUCT(Node, starting, no_of_edges)
struct PointStruct {  // Rodinia streamcluster: Point_Struct (padding after weight and cost)
  float weight;
  std::int64_t assign;
  float cost;
};
SPVJIT_STRUCT(PointStruct, weight, assign, cost)
struct Float3 {  // Rodinia cfd: FLOAT3
  float x, y, z;
};
SPVJIT_STRUCT(Float3, x, y, z)
struct Knode {  // Rodinia b+tree: knode with DEFAULT_ORDER 256 (clang: {i32, [257 x i32] x2, i8,
                // i32})
  std::int32_t location;
  std::int32_t indices[257];
  std::int32_t keys[257];
  std::int8_t is_leaf;  // OpenCL C bool, one byte in memory
  std::int32_t num_keys;
};
SPVJIT_STRUCT(Knode, location, indices, keys, is_leaf, num_keys)
struct Record {  // Rodinia b+tree: record
  std::int32_t value;
};
SPVJIT_STRUCT(Record, value)
struct FourVector {  // Rodinia lavaMD: FOUR_VECTOR
  float v, x, y, z;
};
SPVJIT_STRUCT(FourVector, v, x, y, z)
struct NeiStr {  // Rodinia lavaMD: nei_str
  std::int32_t x, y, z, number;
  std::int64_t offset;
};
SPVJIT_STRUCT(NeiStr, x, y, z, number, offset)
struct BoxStr {  // Rodinia lavaMD: box_str, holding an array of structs
  std::int32_t x, y, z, number;
  std::int64_t offset;
  std::int32_t nn;
  NeiStr nei[26];
};
SPVJIT_STRUCT(BoxStr, x, y, z, number, offset, nn, nei)
struct ParStr {  // Rodinia lavaMD: par_str, passed by value
  float alpha;
};
SPVJIT_STRUCT(ParStr, alpha)
struct DimStr {  // Rodinia lavaMD: dim_str, passed by value
  std::int32_t cur_arg, arch_arg, cores_arg, boxes1d_arg;
  std::int64_t number_boxes, box_mem, space_elem, space_mem, space_mem2;
};
SPVJIT_STRUCT(DimStr, cur_arg, arch_arg, cores_arg, boxes1d_arg, number_boxes, box_mem, space_elem,
              space_mem, space_mem2)

/// A buffer's initial contents. Integers are signed: raw kernels' i8..i64 parameters are.
using HostData =
    std::variant<std::vector<std::int8_t>, std::vector<std::int16_t>, std::vector<std::int32_t>,
                 std::vector<std::int64_t>, std::vector<float>, std::vector<double>,
                 std::vector<LatLong>, std::vector<Node>, std::vector<PointStruct>,
                 std::vector<Float3>, std::vector<Knode>, std::vector<Record>,
                 std::vector<FourVector>, std::vector<BoxStr>>;

template <class T>
HostData zeros(std::size_t n) {
  return std::vector<T>(n);
}
/// n values uniform in [lo, hi] (integers) or [lo, hi) (floats) from a seeded generator.
template <class T>
HostData random(std::size_t n, T lo, T hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> dist(lo, hi);
    for (auto& x : v) x = dist(gen);
  } else {
    std::uniform_int_distribution<std::int64_t> dist(lo, hi);
    for (auto& x : v) x = static_cast<T>(dist(gen));
  }
  return v;
}
/// n values f(0), f(1), ...
template <class T, class F>
HostData pattern(std::size_t n, F f) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(f(i));
  return v;
}
template <class T>
HostData values(std::vector<T> v) {
  return v;
}

/// A launch argument: a buffer by name, a scalar of exactly the parameter's type (an OpenCL
/// `int` takes int32_t, `long` int64_t, `short` int16_t) or a struct by value, or local memory
/// of some bytes.
using ScalarValue = std::variant<std::int8_t, std::int16_t, std::int32_t, std::int64_t, float,
                                 double, ParStr, DimStr>;
template <class T, class V>
struct IsAlternative;
template <class T, class... A>
struct IsAlternative<T, std::variant<A...>> : std::bool_constant<(std::is_same_v<T, A> || ...)> {};
template <class T>
concept CorpusScalar = IsAlternative<T, ScalarValue>::value;
struct Arg {
  enum class Kind : std::uint8_t { Buffer, Scalar, Local } kind;
  std::string buffer;
  ScalarValue scalar;
  std::size_t local_bytes = 0;

  Arg(const char* name) : kind(Kind::Buffer), buffer(name) {}
  template <CorpusScalar T>
  Arg(T v) : kind(Kind::Scalar), scalar(v) {}
  static Arg local(std::size_t bytes) {
    Arg a(std::int32_t{0});
    a.kind = Kind::Local;
    a.local_bytes = bytes;
    return a;
  }
};

struct Launch {
  std::string kernel;
  NDRange global;
  WorkGroup local;  ///< always given: both sides must run the same work-groups
  std::vector<Arg> args;
};

enum class Opt : std::uint8_t { O2, O0 };
inline const char* name(Opt o) { return o == Opt::O2 ? "-O2" : "-O0"; }

struct Case {
  std::string file;  ///< under test/corpus, e.g. "polybench/2mm/2mm.cl"
  std::vector<std::pair<std::string, HostData>> buffers;
  std::vector<Launch> launches;
  std::vector<std::string> outputs;  ///< compared after the last launch
  /// Float outputs may differ by this many units in the last place; 0: bit for bit.
  std::uint32_t max_ulps = 0;
  std::string bound_reason;
  /// A failure the case is known to have at one level: it must still fail with a message
  /// containing `message`, so that the entry turns red, and is removed, once the cause is gone.
  struct KnownFailure {
    std::string message;  ///< empty: the case must pass
    std::string why;
    bool pending = true;  ///< a defect being fixed; false: spvjit is right to refuse
  };
  KnownFailure o2_failure, o0_failure;

  explicit Case(std::string f) : file(std::move(f)) {}
  Case& buffer(std::string name, HostData data) {
    buffers.emplace_back(std::move(name), std::move(data));
    return *this;
  }
  Case& launch(std::string kernel, NDRange global, WorkGroup local, std::vector<Arg> args) {
    launches.push_back({std::move(kernel), global, local, std::move(args)});
    return *this;
  }
  Case& compare(std::vector<std::string> names) {
    outputs = std::move(names);
    return *this;
  }
  Case& bound(std::uint32_t ulps, std::string reason) {
    max_ulps = ulps;
    bound_reason = std::move(reason);
    return *this;
  }
  /// Fails today for a defect in spvjit or PoCL that is being fixed.
  Case& pending(Opt o, std::string message, std::string why) {
    (o == Opt::O2 ? o2_failure : o0_failure) = {std::move(message), std::move(why), true};
    return *this;
  }
  /// spvjit refuses the module, and is right to (the module is not a complete program).
  Case& refused(Opt o, std::string message, std::string why) {
    (o == Opt::O2 ? o2_failure : o0_failure) = {std::move(message), std::move(why), false};
    return *this;
  }
  const KnownFailure& known_failure(Opt o) const { return o == Opt::O2 ? o2_failure : o0_failure; }
};

/// Every case the corpus files define, in the order they were linked.
struct Entry {
  const char* name;
  Case (*make)();
};
std::vector<Entry>& registry();
struct Registration {
  Registration(const char* name, Case (*make)()) { registry().push_back({name, make}); }
};

/// Runs `c` both ways at `opt` and CHECKs the outputs agree, or, for a known failure, that it
/// still fails as recorded (corpus_check.cpp, in the test binary only).
void check(const Case& c, Opt opt);

}  // namespace spvjit::corpus

#define CORPUS_CASE(ident, name)                                                  \
  static ::spvjit::corpus::Case ident();                                          \
  static const ::spvjit::corpus::Registration ident##_registration(name, &ident); \
  TEST_CASE("corpus: " name " -O2") {                                             \
    ::spvjit::corpus::check(ident(), ::spvjit::corpus::Opt::O2);                  \
  }                                                                               \
  TEST_CASE("corpus: " name " -O0") {                                             \
    ::spvjit::corpus::check(ident(), ::spvjit::corpus::Opt::O0);                  \
  }                                                                               \
  static ::spvjit::corpus::Case ident()
