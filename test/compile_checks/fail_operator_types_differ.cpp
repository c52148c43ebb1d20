// An element of one kernel type times a value of another must say which cast to insert.
// expect: the operands of '*' have different kernel types; convert one with cast<T>(x)
#include "spvjit/spvjit.hpp"

void kernel_body(spvjit::KernelBuilder& kb) {
  auto a = kb.param<spvjit::Global<double>>("a");
  auto x = kb.param<float>("x");
  auto i = kb.global_index();
  a[i] = a[i] * x;
}
