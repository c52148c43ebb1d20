// Must not compile: select with two numbers of different C++ types has no one result type.
// expect: select(c, a, b) with two numbers of different types
#include <spvjit/spvjit.hpp>

using namespace spvjit;

void build(KernelBuilder& kb) {
  auto f = kb.param<Global<float>>("f");
  Val<float> x = f[0];
  f[1] = select(x > 0.0f, 4.0f, 2);
}
