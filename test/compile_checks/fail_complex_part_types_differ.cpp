// Complex<float> and Complex<double> in one operation must name complex_cast.
// expect: complex numbers of two part types (Complex<float> and Complex<double>); convert one with
// complex_cast<T>()
#include "spvjit/spvjit.hpp"

void kernel_body(spvjit::KernelBuilder& kb) {
  auto zf = kb.param<spvjit::Global<std::complex<float>>>("zf");
  auto zd = kb.param<spvjit::Const<std::complex<double>>>("zd");
  auto i = kb.global_index();
  zf[i] = zf[i] + zd[i];
}
