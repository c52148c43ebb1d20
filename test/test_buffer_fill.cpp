// Buffer::fill and Runtime::filled (on the device for element sizes OpenCL fills with, from a
// host copy for others), and Buffer<bool> with std::vector<bool>, which has no array to copy.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "spvjit/spvjit.hpp"
#include "spvjit/view.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;

namespace buffer_fill_test {

struct Pair {  // 8 bytes: a pattern OpenCL fills with
  std::int16_t tag;
  float weight;
};
SPVJIT_STRUCT(Pair, tag, weight)

struct Triple {  // 12 bytes: written from a host copy
  float a, b, c;
};
SPVJIT_STRUCT(Triple, a, b, c)

}  // namespace buffer_fill_test

using buffer_fill_test::Pair;
using buffer_fill_test::Triple;

TEST_CASE("Buffer::fill sets every element, on the device or from a host copy") {
  auto& rt = test::runtime();
  auto f = rt.upload(std::vector<float>(1000, -1.0f));
  f.fill(2.5f);
  CHECK(f.to_vector() == std::vector<float>(1000, 2.5f));
  CHECK(rt.filled<std::int64_t>(37, -3).to_vector() == std::vector<std::int64_t>(37, -3));
  CHECK(rt.filled<std::uint8_t>(5, 7).to_vector() == std::vector<std::uint8_t>(5, 7));
  CHECK(rt.filled<float>(0, 1.0f).size() == 0);

  auto pairs = rt.filled<Pair>(9, Pair{-4, 0.75f});
  for (const Pair& p : pairs.to_vector()) {
    CHECK(p.tag == -4);
    CHECK(p.weight == 0.75f);
  }
  auto triples = rt.filled<Triple>(11, Triple{1.0f, -2.0f, 3.5f});
  for (const Triple& t : triples.to_vector()) {
    CHECK(t.a == 1.0f);
    CHECK(t.b == -2.0f);
    CHECK(t.c == 3.5f);
  }

  // A view fills its own elements only (views start at multiples of 128 bytes on PoCL).
  std::vector<std::int32_t> start(100);
  for (std::size_t i = 0; i < start.size(); ++i) start[i] = static_cast<std::int32_t>(i);
  auto whole = rt.upload(start);
  auto middle = view(whole, 32, 10);
  middle.fill(-9);
  const auto after = whole.to_vector();
  for (std::size_t i = 0; i < after.size(); ++i) {
    CAPTURE(i);
    CHECK(after[i] == (i >= 32 && i < 42 ? -9 : static_cast<std::int32_t>(i)));
  }
  auto many = rt.filled<Triple>(50, Triple{1.0f, -2.0f, 3.5f});
  auto odd = view(many, 32, 7);  // 384 bytes in
  odd.fill(Triple{9.0f, 8.0f, 7.0f});
  const auto t = many.to_vector();
  for (std::size_t i = 0; i < t.size(); ++i) {
    CAPTURE(i);
    CHECK(t[i].a == (i >= 32 && i < 39 ? 9.0f : 1.0f));
    CHECK(t[i].c == (i >= 32 && i < 39 ? 7.0f : 3.5f));
  }

  Buffer<float> moved_from = std::move(f);
  CHECK_THROWS_AS(f.fill(1.0f), UserError);  // NOLINT(bugprone-use-after-move)
}

TEST_CASE("Buffer<bool> round-trips a std::vector<bool>, and a kernel reads and writes it") {
  auto& rt = test::runtime();
  std::vector<bool> flags(300);
  for (std::size_t i = 0; i < flags.size(); ++i) flags[i] = i % 3 == 0;
  auto in = rt.upload(flags);
  CHECK(in.to_vector() == flags);
  auto out = rt.filled<bool>(flags.size(), false);
  CHECK(out.to_vector() == std::vector<bool>(flags.size(), false));

  KernelBuilder kb("negate_flags");
  auto dst = kb.param<Global<bool>>("dst");
  auto src = kb.param<Const<bool>>("src");
  auto i = kb.global_index();
  dst[i] = !src[i].get();
  Kernel k = test::jit().compile(kb.finish());
  k.launch(NDRange{flags.size()}, out, in);
  rt.synchronize();
  std::vector<bool> expected(flags.size());
  for (std::size_t j = 0; j < flags.size(); ++j) expected[j] = !flags[j];
  CHECK(out.to_vector() == expected);

  out.write(flags);
  CHECK(out.to_vector() == flags);
  auto part = view(out, 128, 67);
  CHECK(part.to_vector() == std::vector<bool>(flags.begin() + 128, flags.begin() + 195));
  part.write(std::vector<bool>(67, true));
  const auto now = out.to_vector();
  for (std::size_t j = 0; j < now.size(); ++j) {
    CAPTURE(j);
    CHECK(now[j] == (j >= 128 && j < 195 ? true : static_cast<bool>(flags[j])));
  }
}
