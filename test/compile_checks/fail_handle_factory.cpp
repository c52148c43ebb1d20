// Must not compile: the handles befriend HandleFactory, but the public headers only declare it;
// its definition, the one way to a handle's private constructor, stays inside the library.
// expect: incomplete type 'spvjit::detail::HandleFactory'
#include <spvjit/spvjit.hpp>

spvjit::Value adopt(spvjit::detail::BuilderState* state, llvm::Value* v) {
  return spvjit::detail::HandleFactory::make<spvjit::Value>(state, v, spvjit::Scalar::F32);
}
