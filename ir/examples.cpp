#include "spvjit/examples.hpp"

#include "spvjit/builder.hpp"

namespace spvjit::examples {

namespace {
template <class T>
KernelDef saxpy_of() {
  using A = arithmetic_t<T>;
  KernelBuilder kb(std::string("saxpy_") + std::string(name(scalar_of<T>)));
  auto z = kb.param<Global<T>>("Z");
  auto x = kb.param<Const<T>>("X");
  auto y = kb.param<Const<T>>("Y");
  auto a = kb.param<A>("a");
  auto i = kb.global_index();
  kb.if_(kb.in_bounds(), [&] { z[i] = a * x[i] + y[i]; });
  return kb.finish();
}

template <class T>
KernelDef scale_of(unsigned dims) {
  using A = arithmetic_t<T>;
  KernelBuilder kb(std::string("scale") + std::to_string(dims) + "d_" +
                   std::string(name(scalar_of<T>)));
  auto out = kb.param<Global<T>>("A");
  auto in = kb.param<Const<T>>("B");
  Val<std::int64_t> i = kb.global_index(0);
  if (dims == 3) {
    i = i + kb.ndrange(0) * (kb.global_index(1) + kb.ndrange(1) * kb.global_index(2));
  }
  kb.if_(kb.in_bounds(), [&] { out[i] = A(2) * in[i]; });
  return kb.finish();
}
}  // namespace

KernelDef saxpy(Scalar element) {
  switch (element) {
    case Scalar::F16: return saxpy_of<half>();
    case Scalar::F32: return saxpy_of<float>();
    case Scalar::F64: return saxpy_of<double>();
    default:
      throw UserError("examples::saxpy: element type " + std::string(name(element)) +
                      "; expected f16, f32 or f64");
  }
}

KernelDef scale(Scalar element, unsigned dims) {
  if (dims != 1 && dims != 3) {
    throw UserError("examples::scale: " + std::to_string(dims) + " dimensions; expected 1 or 3");
  }
  switch (element) {
    case Scalar::F16: return scale_of<half>(dims);
    case Scalar::F32: return scale_of<float>(dims);
    case Scalar::F64: return scale_of<double>(dims);
    default:
      throw UserError("examples::scale: element type " + std::string(name(element)) +
                      "; expected f16, f32 or f64");
  }
}

}  // namespace spvjit::examples
