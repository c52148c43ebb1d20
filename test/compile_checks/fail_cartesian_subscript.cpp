// KA's A[I] with a CartesianIndex must say to write A(I), not fail deep inside index_value.
// expect: A[I] with a CartesianIndex; write A(I)
#include "spvjit/spvjit.hpp"

void kernel_body(spvjit::KernelBuilder& kb) {
  auto a = kb.param<spvjit::GlobalArray<float, 2>>("a");
  const spvjit::CartesianIndex<2> I = spvjit::global_indices<2>(kb);
  a[I] = 1.0f;
}
