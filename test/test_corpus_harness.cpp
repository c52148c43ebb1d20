// The corpus harness itself (corpus_run.cpp): its comparison finds what differs, within the bound
// a case states and no further, so a corpus case that passes has really agreed.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "test/corpus_run.hpp"

using namespace spvjit::corpus;

TEST_CASE("corpus harness: one ulp apart differs bit for bit, and agrees within a bound of 1") {
  const HostData want = values(std::vector<float>{1.0f, 2.0f, -3.0f});
  const HostData got = values(std::vector<float>{1.0f, std::nextafter(2.0f, 3.0f), -3.0f});
  CHECK(difference("x", want, want, 0).empty());
  CHECK(difference("x", got, want, 0) ==
        "buffer 'x' differs from clBuildProgram's in 1 of 3 elements; first [1]: spvjit 2.00000024 "
        "(0x40000001), clBuildProgram 2 (0x40000000); at most 1 ulps (bound 0)");
  CHECK(difference("x", got, want, 1).empty());
}

TEST_CASE("corpus harness: ulps count across zero, two NaNs agree, integers have no bound") {
  const float tiny = std::numeric_limits<float>::denorm_min();
  CHECK(difference("z", values(std::vector<float>{-tiny}), values(std::vector<float>{tiny}), 1) !=
        "");
  CHECK(difference("z", values(std::vector<float>{-tiny}), values(std::vector<float>{tiny}), 2) ==
        "");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(difference("n", values(std::vector<double>{nan}), values(std::vector<double>{-nan}), 0) ==
        "");
  CHECK(difference("i", values(std::vector<std::int32_t>{5}), values(std::vector<std::int32_t>{6}),
                   100) ==
        "buffer 'i' differs from clBuildProgram's in 1 of 1 elements; first [0]: spvjit 5, "
        "clBuildProgram 6");
  CHECK(difference("s", values(std::vector<Node>{{1, 2}}), values(std::vector<Node>{{1, 3}}), 0) !=
        "");
  CHECK(difference("t", values(std::vector<float>{1.0f}), values(std::vector<double>{1.0}), 0) ==
        "buffer 't': spvjit's and clBuildProgram's copies differ in type or size");
}
