// ldexp's exponent is an int32_t: an int64 operand must be cast, and the message says to.
// expect: the exponent is an int32_t; convert it with cast<int32_t>(n)
#include "spvjit/spvjit.hpp"

void kernel_body(spvjit::KernelBuilder& kb) {
  auto x = kb.param<float>("x");
  auto n = kb.param<std::int64_t>("n");
  (void)spvjit::ldexp(x, n);
}
