// Must not compile: buffers come from a Runtime (allocate, zeros, upload), not from its core.
// expect: is private within this context
#include <spvjit/spvjit.hpp>

spvjit::Buffer<float> make(const std::shared_ptr<spvjit::detail::RuntimeCore>& core) {
  return spvjit::Buffer<float>(core, 4);
}
