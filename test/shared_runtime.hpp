// One Runtime and Jit for the whole test process: device start-up costs ~85 ms, and tests must
// not depend on their order.
#pragma once

#include "spvjit/spvjit.hpp"

namespace spvjit::test {

inline Runtime& runtime() {
  static Runtime rt;
  return rt;
}

inline Jit& jit() {
  static Jit j(runtime());
  return j;
}

}  // namespace spvjit::test
