// A Julia port's A[i, j] is C++'s comma operator (it would mean A[j]): refused with what to write.
// expect: ',' between kernel values is C++'s comma operator, so A[i, j] would mean A[j]
#include "spvjit/spvjit.hpp"

void kernel_body(spvjit::KernelBuilder& kb) {
  auto A = kb.param<spvjit::GlobalArray<float, 2>>("A");
  auto [i, j] = spvjit::global_indices<2>(kb);
  A[i, j] = 1.0f;
}
