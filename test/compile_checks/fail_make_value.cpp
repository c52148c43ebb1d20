// Must not compile: the library's own maker of values from LLVM values (ir/handles.hpp) is not in
// the public headers, so an application cannot wrap an LLVM value of its own as a kernel value.
// expect: 'make_value' is not a member of 'spvjit::detail'
#include <spvjit/spvjit.hpp>

spvjit::Value adopt(spvjit::detail::BuilderState* state, llvm::Value* v) {
  return spvjit::detail::make_value(state, v, spvjit::Scalar::F32);
}
