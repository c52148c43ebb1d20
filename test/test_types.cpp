#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "spvjit/types.hpp"

using namespace spvjit;

TEST_CASE("half conversion round-trips every finite half value") {
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const half h{static_cast<std::uint16_t>(bits)};
    const float f = to_float(h);
    if (std::isnan(f)) {
      CHECK(std::isnan(to_float(to_half(f))));
      continue;
    }
    CHECK_MESSAGE(to_half(f).bits == bits, "bits " << bits);
  }
}

TEST_CASE("half conversion rounds to nearest even") {
  CHECK(to_half(1.0f).bits == 0x3c00);
  CHECK(to_half(65504.0f).bits == 0x7bff);
  CHECK(to_half(65520.0f).bits == 0x7c00);            // rounds up to infinity
  CHECK(to_half(1.0f + 1.0f / 2048).bits == 0x3c00);  // tie -> even
  CHECK(to_half(1.0f + 3.0f / 2048).bits == 0x3c02);  // tie -> even (up)
  CHECK(to_half(5.96046448e-08f).bits == 0x0001);     // smallest subnormal
  CHECK(to_half(2.98023224e-08f).bits == 0x0000);     // half of it: tie -> even (zero)
}
