// A Complex<float> times a kernel double must say which cast to insert, not list overloads.
// expect: a complex number and a real of another float type; insert cast<T>() on the real
#include "spvjit/spvjit.hpp"

void kernel_body(spvjit::KernelBuilder& kb) {
  auto z = kb.param<spvjit::Global<std::complex<float>>>("z");
  auto s = kb.param<double>("s");
  auto i = kb.global_index();
  z[i] = z[i] * s;
}
