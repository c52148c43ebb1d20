// Must not compile: the builder's internal state is not API (spvjit's own headers reach it
// through detail::state_of).
// expect: is private within this context
#include <spvjit/spvjit.hpp>

void* peek(spvjit::KernelBuilder& kb) { return kb.state(); }
