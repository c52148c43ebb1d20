// Must not compile: the sides of a ternary give kernel values of two types.
// expect: TernarySidesDiffer<float, double>
#include <spvjit/spvjit.hpp>

using namespace spvjit;

void build(KernelBuilder& kb) {
  auto x = kb.param<float>("x");
  auto y = kb.param<double>("y");
  (void)kb.ternary(
      x > 0.0f, [&] { return x; }, [&] { return y; });
}
