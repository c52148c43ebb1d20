// Must not compile: an algorithm's kernel is built once per functor type and cached, so a
// functor that carries state (a capturing lambda) would be compiled with the first call's.
// expect: functors must be stateless
#include <spvjit/algorithms.hpp>

using namespace spvjit;

float scaled_sum(Algorithms& algs, const Buffer<float>& x, float scale) {
  return reduce(algs, x, 0.0f, [scale](auto a, auto b) { return a + b * scale; });
}
