// Must not compile: shifts are for integers.
// expect: no match for 'operator<<='
#include <spvjit/spvjit.hpp>

using namespace spvjit;

void build(KernelBuilder& kb) {
  auto f = kb.param<Global<float>>("f");
  f[0] <<= 1.0f;
}
