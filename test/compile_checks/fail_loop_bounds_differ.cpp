// Must not compile: a loop's bounds are kernel integers of two types.
// expect: LoopBoundsDiffer<int, long int>
#include <spvjit/spvjit.hpp>

using namespace spvjit;

void build(KernelBuilder& kb) {
  auto n = kb.param<std::int64_t>("n");
  kb.for_(kb.lit(0), n, [](auto) {});
}
