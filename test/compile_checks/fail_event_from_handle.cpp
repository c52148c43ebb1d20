// Must not compile: events come from Kernel::launch_event, which ties them to their Runtime.
// expect: is private within this context
#include <spvjit/spvjit.hpp>

spvjit::Event adopt(_cl_event* e) { return spvjit::Event(e, nullptr); }
