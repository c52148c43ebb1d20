// Must not compile: Julia's x^2 ported as C++'s `^` on a float, which is exclusive or.
// expect: '^' is C++'s exclusive or, not a power: write Julia's x^2 as pow(x, 2) or x * x
#include <spvjit/spvjit.hpp>

using namespace spvjit;

void build(KernelBuilder& kb) {
  auto f = kb.param<Global<float>>("f");
  Val<float> x = f[0];
  f[1] = x ^ 2;
}
