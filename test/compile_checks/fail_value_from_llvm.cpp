// Must not compile: a kernel value comes from the builder's operations, never from an LLVM value
// the application made (spvjit's own code makes its values with ir/handles.hpp).
// expect: is private within this context
#include <spvjit/spvjit.hpp>

spvjit::Value adopt(spvjit::detail::BuilderState* state, llvm::Value* v) {
  return spvjit::Value(state, v, spvjit::Scalar::F32);
}
