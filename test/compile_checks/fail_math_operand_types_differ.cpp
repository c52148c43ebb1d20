// A math function on operands of two kernel types must say which cast to insert.
// expect: the operands have different kernel types; convert one with cast<T>(x)
#include "spvjit/spvjit.hpp"

void kernel_body(spvjit::KernelBuilder& kb) {
  auto x = kb.param<float>("x");
  auto y = kb.param<double>("y");
  (void)spvjit::hypot(x, y);
}
